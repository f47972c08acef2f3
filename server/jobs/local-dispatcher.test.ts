import { describe, expect, it } from "vitest";
import { LocalDispatcher } from "./local-dispatcher";
import type { JobRuntime } from "./runtime-deps";

describe("LocalDispatcher", () => {
  it("keeps a bounded list of slice errors however many slices throw, and counts them all", async () => {
    const dispatcher = new LocalDispatcher();
    // A runtime that fails on first use, as a database that went away would.
    dispatcher.attach(
      new Proxy({} as JobRuntime, {
        get() {
          throw new Error("database unreachable");
        },
      }),
    );
    for (let i = 0; i < 500; i++) dispatcher.dispatch(`loop-${i}`);
    await dispatcher.idle();
    expect(dispatcher.errorCount).toBe(500);
    expect(dispatcher.errors.length).toBe(50);
    expect(dispatcher.errors.at(-1)).toMatchObject({ message: "database unreachable" });
  });
});
