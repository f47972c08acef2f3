import { describe, expect, it } from "vitest";
import { handleJobRequest } from "./job-route";
import { createJobSigner, SIGNATURE_HEADER } from "./job-signing";
import type { JobRuntime } from "./runtime-deps";
import { Semaphore } from "./semaphore";

// No slice may run in these tests: a runtime whose every use throws says so loudly.
const runtime = {
  jobs: new Proxy({} as JobRuntime, {
    get: () => {
      throw new Error("no slice should run");
    },
  }),
  signer: createJobSigner("test-secret"),
  slots: new Semaphore(1),
};

describe("job route body limit", () => {
  it("refuses a body over 64 KB with 413 before checking the signature, signed or not", async () => {
    const body = JSON.stringify({ loopId: "x".repeat(70 * 1024) });
    for (const signature of [null, runtime.signer.sign(body)]) {
      const res = await handleJobRequest(
        new Request("http://app/api/jobs/run", {
          method: "POST",
          body,
          headers: signature ? { [SIGNATURE_HEADER]: signature } : {},
        }),
        runtime,
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
    }
  });

  it("a small unsigned body is still a 401", async () => {
    const res = await handleJobRequest(
      new Request("http://app/api/jobs/run", { method: "POST", body: '{"loopId":"a"}' }),
      runtime,
    );
    expect(res.status).toBe(401);
  });
});
