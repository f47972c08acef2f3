// A job runtime on a test database with an in-process agent behind the real
// engine ports: the runtime, storage and engine are real; only the agent's
// work is instant and scripted.
import type {
  AgentPort,
  AgentRunRequest,
  AgentRunResult,
  EnginePorts,
  ScorerPort,
  SnapshotCodec,
} from "../server/engine";
import type { Database } from "../server/db/client";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime, type RuntimeSettings } from "../server/jobs/runtime-deps";
import { Semaphore } from "../server/jobs/semaphore";
import { systemDeps } from "../server/jobs/system-deps";
import type { LoopServices } from "../server/loops/loop-services";
import { LOCAL_OPERATOR } from "../server/auth/actor";

export type ScriptedAgent = (req: AgentRunRequest) => Promise<AgentRunResult> | AgentRunResult;

/** Output "step N" with a score that reaches 1 at `solvedAt`. */
export const improvingAgent =
  (solvedAt = 3): ScriptedAgent =>
  (req) => ({
    output: `attempt ${req.iteration}: ${"✓".repeat(Math.min(req.iteration, solvedAt))}`,
    claim: { done: req.iteration >= solvedAt },
    usage: { input: 100, output: 50, cache: 10 },
    costUsd: 0.01,
    toolCalls: [],
  });

/** Answers after `ms` (or at once when `ms` says so for that iteration), honouring aborts. */
export const agentTaking =
  (ms: (req: AgentRunRequest) => number): ScriptedAgent =>
  (req) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          resolve({
            output: `attempt ${req.iteration}`,
            claim: { done: false },
            usage: { input: 10, output: 5, cache: 0 },
            costUsd: 0.001,
            toolCalls: [],
          }),
        ms(req),
      );
      req.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });

export const progressScorer = (solvedAt = 3): ScorerPort => ({
  name: "progress",
  score: ({ output }) => ({ score: Math.min(1, (output.match(/✓/g)?.length ?? 0) / solvedAt) }),
});

export interface Harness {
  runtime: JobRuntime;
  dispatcher: LocalDispatcher;
  services: LoopServices;
  calls: AgentRunRequest[];
  /** The slice semaphore, when `concurrency` was given. */
  slots?: Semaphore;
  stop(): Promise<void>;
}

export function createHarness(
  db: Database,
  agents: Record<string, ScriptedAgent>,
  options: {
    settings?: Partial<RuntimeSettings>;
    scorers?: ScorerPort[];
    instanceId?: string;
    /** Bounds the slices the dispatcher runs at once, as the app's in-process mode does. */
    concurrency?: number;
    /** Snapshot versions the runtime restores into (a simulated upgrade). */
    codec?: SnapshotCodec;
  } = {},
): Harness {
  const calls: AgentRunRequest[] = [];
  const slots = options.concurrency ? new Semaphore(options.concurrency) : undefined;
  const dispatcher = new LocalDispatcher(slots);
  const ports = (loop: { agentKind: string }): EnginePorts => {
    const script = agents[loop.agentKind];
    if (!script) throw new Error(`no test agent "${loop.agentKind}"`);
    const agent: AgentPort = {
      run: async (req) => {
        calls.push(req);
        return script(req);
      },
    };
    return { agent, scorers: options.scorers ?? [progressScorer()] };
  };
  const runtime: JobRuntime = {
    db,
    ports,
    dispatcher,
    engine: systemDeps,
    settings: { ...DEFAULT_SETTINGS, heartbeatMs: 50, ...options.settings },
    instanceId: options.instanceId ?? "test",
    ...(options.codec ? { codec: options.codec } : {}),
  };
  dispatcher.attach(runtime);
  return {
    runtime,
    dispatcher,
    services: { db, dispatcher, engine: systemDeps },
    calls,
    slots,
    stop: () => dispatcher.stop(),
  };
}

export const asOperator = (reason?: string) => ({ actor: LOCAL_OPERATOR, reason: reason ?? null });

export async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
