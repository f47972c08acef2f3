// Closing the wake-ups before the database: a NOTIFY still queued is sent
// first, so nothing reopens the closed client's pool afterwards.
import { expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { sleep } from "../../test/event-test-helpers";
import { openDatabase } from "../db/client";
import { closeEventWakeups, notifyEventsWritten } from "./event-wakeups";

const APP = "wakeup-close-test";

describeEachProvider("event wake-ups at shutdown", ({ kind, db, temp }) => {
  it.runIf(kind === "postgresql")(
    "a NOTIFY queued at shutdown is sent before the close, and leaves no connection behind",
    async () => {
      const url = new URL(temp().target.url);
      url.searchParams.set("application_name", APP);
      const closing = openDatabase({ kind: "postgresql", url: url.toString() });
      // The first is sent at once; the rest wait out the spacing and share one more NOTIFY.
      const sent = [notifyEventsWritten(closing), notifyEventsWritten(closing), notifyEventsWritten(closing)];
      await closeEventWakeups(closing);
      await closing.close();
      // Every caller's NOTIFY went out before the close...
      expect(await Promise.race([Promise.all(sent).then(() => "sent"), sleep(50).then(() => "pending")])).toBe("sent");
      // ...and nothing ran on the closed client later (old code: the queued one reconnected its pool).
      await sleep(300);
      const [row] = await db().prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`,
        APP,
      );
      expect(row?.n).toBe(0);
    },
  );
});
