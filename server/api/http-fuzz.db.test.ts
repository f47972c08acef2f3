// Property: whatever arrives at the tRPC endpoint (any procedure, batched or
// not, anonymous or signed in at any role, with random, malformed or hostile
// input), the answer is never a 5xx and never hangs, and an error is a JSON
// body that says what went wrong. Requests go through the same handler as the
// Next route, in-process, against a real database per provider. Seeded
// (RALPH_FUZZ_SEED), bounded (RALPH_FUZZ_MS), each distinct request sent once,
// every procedure reached, and paths with malformed percent-escapes included.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { createUser } from "../../test/auth-fixtures";
import { servicesWithoutJobs } from "../../test/trpc-http-server";
import {
  FUZZ_ORIGIN,
  fuzzBudgetMs,
  fuzzKey,
  fuzzRequest,
  fuzzSeed,
  procedurePaths,
  procedures,
  toRequest,
  type FuzzRequest,
} from "../../test/http-fuzz";
import { createShareLink } from "../share/share-links.service";
import type { LoopServices } from "../loops/loop-services";
import { handleTrpcHttp } from "./http-handler";

// checks.run executes commands in a workspace: a random-but-valid check must not run on the test host.
// auth.signOut would end the sessions the rest of the run relies on (it is covered in http-security).
const SKIPPED = new Set(["checks.run", "auth.signOut"]);
const HANG_MS = 30_000;

interface TrpcError {
  json?: { message?: unknown; code?: unknown; data?: { code?: unknown; httpStatus?: unknown } };
}

/** Every error in the answer, one per call for a batch. */
function errorsIn(body: unknown): TrpcError[] {
  const items = Array.isArray(body) ? body : [body];
  return items.flatMap((item) =>
    item && typeof item === "object" && "error" in item ? [item.error as TrpcError] : [],
  );
}

describeEachProvider("tRPC endpoint under fuzzed requests", ({ db, kind }) => {
  let services: LoopServices;
  const cookies: Record<string, string> = {};
  const known: string[] = [];

  async function signIn(role: "viewer" | "operator" | "admin") {
    const user = await createUser(db(), role);
    const res = await handleTrpcHttp(
      new Request(`${FUZZ_ORIGIN}/api/trpc/auth.signIn`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: FUZZ_ORIGIN, host: "fuzz.test" },
        body: JSON.stringify({ json: { email: user.email, password: user.password } }),
      }),
      services,
      { trustProxy: false },
    );
    expect(res.status).toBe(200);
    cookies[role] = res.headers.getSetCookie()[0]!.split(";")[0]!;
    // Other accounts to aim users.update/resetPassword at, so the fuzzing sessions stay alive.
    const target = await createUser(db(), role);
    known.push(target.id, target.email, user.email);
  }

  beforeAll(async () => {
    services = servicesWithoutJobs(db());
    const loopId = randomUUID();
    await db().prisma.loop.create({
      data: { id: loopId, goal: "g", agentKind: "demo", config: {}, status: "running" },
    });
    for (const role of ["viewer", "operator", "admin"] as const) await signIn(role);
    const share = await createShareLink(db(), { loopId, expiresAt: null, createdById: null, newId: randomUUID });
    known.push(loopId, share.path.split("/").pop()!, share.id, "no-such-id", "1");
  });

  it(
    "answers every request with a 2xx or a clear 4xx, never a 5xx or a hang",
    async () => {
      const seed = fuzzSeed();
      const statuses = new Map<number, number>();
      let requests = 0;
      let repeats = 0;
      const sent = new Set<string>();
      const reached = new Set<string>();
      const check = async (r: FuzzRequest) => {
        // Each distinct request once: the budget goes to new ones, not to fast-check's repeats.
        const key = fuzzKey(r);
        if (sent.has(key)) {
          repeats++;
          return;
        }
        sent.add(key);
        for (const path of procedurePaths(r)) reached.add(path);
        const left = new AbortController();
        const timer = setTimeout(() => left.abort(), HANG_MS);
        try {
          const res = await handleTrpcHttp(toRequest(r, { cookies }, left.signal), services, { trustProxy: false });
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.headers.get("content-type")?.includes("text/event-stream")) {
            await res.body?.cancel();
            expect(res.status).toBeLessThan(500);
            return;
          }
          const text = await res.text();
          expect(res.status, text.slice(0, 500)).toBeLessThan(500);
          const body: unknown = JSON.parse(text);
          if (res.status >= 400)
            expect(errorsIn(body).length + (body && "error" in (body as object) ? 1 : 0)).toBeGreaterThan(0);
          for (const error of errorsIn(body)) {
            const data = error.json?.data;
            // A batch answers 207 with one error per failed call: each must be a 4xx too.
            if (data) expect(Number(data.httpStatus), JSON.stringify(error).slice(0, 500)).toBeLessThan(500);
            if (error.json) expect(typeof error.json.message).toBe("string");
          }
          expect(text).not.toMatch(/\n\s+at |node_modules/);
        } finally {
          clearTimeout(timer);
          left.abort();
        }
      };
      const budget = fuzzBudgetMs();
      console.log(`[fuzz ${kind}] seed=${seed} budget=${budget}ms (replay: RALPH_FUZZ_SEED=${seed})`);
      try {
        await fc.assert(fc.asyncProperty(fuzzRequest({ known, skip: (path) => SKIPPED.has(path) }), check), {
          seed,
          numRuns: 1_000_000,
          interruptAfterTimeLimit: budget,
          markInterruptAsFailure: false,
        });
      } finally {
        const figures = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
        console.log(
          `[fuzz ${kind}] requests=${requests} (distinct; ${repeats} repeats skipped) statuses ${figures.join(" ")}`,
        );
      }
      expect(requests).toBeGreaterThan(0);
      // Every procedure was called at least once (a short RALPH_FUZZ_MS may not get there).
      if (budget >= 30_000) {
        const missed = procedures()
          .map((p) => p.path)
          .filter((path) => !SKIPPED.has(path) && !reached.has(path));
        expect(missed).toEqual([]);
      }
    },
    fuzzBudgetMs() + 5 * 60_000,
  );
});
