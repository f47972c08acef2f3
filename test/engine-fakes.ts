/**
 * Fakes for engine tests (and for adapter/runtime tests that drive the
 * engine): a virtual clock whose timers fire in time order whenever the
 * program is otherwise idle, plus scripted agents, controls and sinks.
 */
// Test code runs in Node: the fakes hash with node:crypto, as the runtime does.
import { createHash } from "node:crypto";
import type {
  AgentPort,
  AgentRunRequest,
  AgentRunResult,
  ControlAck,
  ControlCommand,
  ControlQueue,
  ControlRequest,
  Deps,
  EngineEvent,
  EventSink,
} from "../server/engine";

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * Virtual time. A sleep registers a timer; once every pending promise has
 * settled (a real macrotask later) the earliest timer fires and time jumps
 * to it. Long waits therefore cost nothing and ordering is deterministic.
 */
export class FakeClock implements Deps {
  private t: number;
  private seq = 0;
  private ids = 0;
  private seed: number;
  private timers: Timer[] = [];
  private scheduled = false;
  /** Every requested sleep duration, in request order. */
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 0, 1), seed = 42) {
    this.t = start;
    this.seed = seed;
  }

  now = (): number => this.t;

  newId = (): string => `id-${++this.ids}`;

  sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

  /** mulberry32: small, seeded, good enough for jitter. */
  random = (): number => {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let r = Math.imul(this.seed ^ (this.seed >>> 15), 1 | this.seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = { at: this.t + Math.max(0, ms), seq: ++this.seq, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.timers = this.timers.filter((x) => x !== timer);
          resolve();
        },
        { once: true },
      );
      this.schedule();
    });
  };

  advance(ms: number): void {
    this.t += ms;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const timer = this.timers.shift();
      if (!timer) return;
      this.t = Math.max(this.t, timer.at);
      timer.resolve();
      if (this.timers.length > 0) this.schedule();
    }, 0);
  }
}

export type AgentStep =
  | Partial<AgentRunResult>
  | Error
  | ((request: AgentRunRequest, clock: FakeClock) => Promise<AgentRunResult> | AgentRunResult);

export function result(partial: Partial<AgentRunResult> = {}): AgentRunResult {
  return {
    output: "output",
    claim: { done: false },
    usage: { input: 100, output: 50, cache: 0 },
    costUsd: 0.01,
    toolCalls: [],
    ...partial,
  };
}

/** Plays the steps in order; the last one repeats forever. */
export class ScriptedAgent implements AgentPort {
  readonly requests: AgentRunRequest[] = [];

  constructor(
    private readonly steps: AgentStep[],
    private readonly clock: FakeClock,
  ) {}

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    this.requests.push(request);
    const step = this.steps[Math.min(this.requests.length - 1, this.steps.length - 1)];
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(request, this.clock);
    return result(step);
  }
}

/** An agent that never answers until aborted, like a hung process. */
export function hangingStep(heartbeatEveryMs = 0): AgentStep {
  return (request, clock) =>
    new Promise<AgentRunResult>((_, reject) => {
      request.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      const beat = async () => {
        while (heartbeatEveryMs > 0 && !request.signal.aborted) {
          await clock.sleep(heartbeatEveryMs, request.signal);
          if (!request.signal.aborted) request.onProgress({ kind: "heartbeat" });
        }
      };
      void beat();
    });
}

/** An in-memory control queue: requests stay pending until a step answers them. */
export class FakeControls implements ControlQueue {
  pending: ControlRequest[] = [];
  readonly acks: ControlAck[] = [];
  reads = 0;
  /** Called on every read, before answering: inject requests at chosen moments. */
  onRead?: (read: number, controls: FakeControls) => void;
  private seq = 0;

  add(command: ControlCommand, by = "alice", reason?: string): ControlRequest {
    const request: ControlRequest = {
      id: `req-${++this.seq}`,
      requestedAt: 0,
      by,
      command,
      ...(reason ? { reason } : {}),
    };
    this.pending.push(request);
    return request;
  }

  async read(): Promise<ControlRequest[]> {
    this.reads++;
    this.onRead?.(this.reads, this);
    return [...this.pending];
  }

  settle(acks: readonly ControlAck[]): void {
    for (const ack of acks) {
      this.acks.push(ack);
      this.pending = this.pending.filter((r) => r.id !== ack.requestId);
    }
  }
}

export class CollectingSink implements EventSink {
  readonly events: EngineEvent[] = [];

  emit(event: EngineEvent): void {
    this.events.push(event);
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }
}
