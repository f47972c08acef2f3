// The signed HTTP hop, for apps that dispatch slices to a job route: a real
// node:http server serving the job route's logic, an HttpDispatcher sending
// to it, and the real runtime behind them, on SQLite and PostgreSQL.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { asOperator, waitFor } from "../../test/runtime-harness";
import type { AgentRunRequest, AgentRunResult } from "../engine";
import { createLoop } from "../loops/loop-create.service";
import { HttpDispatcher, JOB_ROUTE } from "./http-dispatcher";
import { handleJobRequest } from "./job-route";
import { createJobSigner, SIGNATURE_HEADER } from "./job-signing";
import { DEFAULT_SETTINGS, type JobRuntime } from "./runtime-deps";
import { Semaphore } from "./semaphore";
import { systemDeps } from "./system-deps";

describeEachProvider("job route over HTTP", ({ db }) => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function start(limit: number) {
    const signer = createJobSigner("x".repeat(40));
    const slots = new Semaphore(limit);
    let running = 0;
    const stats = { most: 0, calls: 0, statuses: [] as number[] };
    const agent = async (req: AgentRunRequest): Promise<AgentRunResult> => {
      running++;
      stats.calls++;
      stats.most = Math.max(stats.most, running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return {
        output: `step ${req.iteration}`,
        claim: { done: false },
        usage: { input: 1, output: 1, cache: 0 },
        costUsd: 0.001,
        toolCalls: [],
      };
    };
    const jobs = {} as JobRuntime;
    server = createServer((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const request = new Request(`http://127.0.0.1${req.url}`, {
          method: "POST",
          headers: { [SIGNATURE_HEADER]: String(req.headers[SIGNATURE_HEADER] ?? "") },
          body: Buffer.concat(chunks),
        });
        const response =
          req.url === JOB_ROUTE
            ? await handleJobRequest(request, { jobs, signer, slots })
            : new Response(null, { status: 404 });
        stats.statuses.push(response.status);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(await response.text());
      })();
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dispatcher = new HttpDispatcher(origin, signer, () => undefined, limit);
    Object.assign(jobs, {
      db: db(),
      ports: () => ({ agent: { run: agent } }),
      dispatcher,
      engine: systemDeps,
      settings: { ...DEFAULT_SETTINGS, heartbeatMs: 50 },
      instanceId: "http-test",
    } satisfies JobRuntime);
    const services = { db: db(), dispatcher, engine: systemDeps };
    const newLoop = async () =>
      (
        await createLoop(
          services,
          {
            goal: "over http",
            agentKind: "agent",
            definition: {},
            engineConfig: { stop: { maxIterations: 3, noProgressIterations: 0 } },
            start: true,
          },
          asOperator(),
        )
      ).id;
    return { origin, signer, slots, stats, newLoop };
  }

  it("runs loops through signed requests, at most `limit` slices at once", async () => {
    const { stats, newLoop } = await start(1);
    const ids = [await newLoop(), await newLoop(), await newLoop()];
    await waitFor(
      () => db().prisma.loop.findMany({ where: { id: { in: ids } } }),
      (rows) => rows.every((r) => r.status === "stopped"),
      20_000,
    );
    expect(stats.calls).toBe(9);
    expect(stats.most).toBe(1);
    // The dispatcher never sends more than the route accepts: no request was turned away.
    expect(stats.statuses.every((s) => s === 200)).toBe(true);
  });

  it("refuses unsigned requests, and answers busy while every slot is taken", async () => {
    const { origin, signer, slots } = await start(1);
    const body = JSON.stringify({ loopId: "nope" });
    const post = (headers: Record<string, string>) => fetch(`${origin}${JOB_ROUTE}`, { method: "POST", body, headers });
    expect((await post({})).status).toBe(401);
    const release = slots.tryAcquire()!;
    const busy = await post({ [SIGNATURE_HEADER]: signer.sign(body) });
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    release();
    const free = await post({ [SIGNATURE_HEADER]: signer.sign(body) });
    expect(free.status).toBe(200);
    expect(await free.json()).toMatchObject({ claimed: false, outcome: "not_claimable" });
  });
});
