// The runtime's live view of the iteration in flight. It listens to the
// engine's event sink and writes, in the background:
// - a batch of new output lines, tool calls, the phase and the last heartbeat
//   every FLUSH_MS at most, only when something changed (heartbeats alone at
//   most every HEARTBEAT_FLUSH_MS), each batch capped, the rows rolling-capped;
// - health events (state changes, nudges, escalations, retries) at once, as
//   real events, so they reach the page and the alert outbox when they happen.
// The step commit never waits on a batch: it only awaits the write in flight
// (settle) and leaves out the health events already stored. An iteration that
// ends before the first flush writes nothing at all.
import { LIVE_EVENT } from "../live-output";
import type { EngineEvent, EventSink } from "../engine";
import type { Db } from "../db/client";
import { clearLiveEvents, writeLiveEvents } from "../db/live-output.repo";
import type { NewLoopEvent } from "../db/events.repo";
import { eventRows } from "../loops/step-rows";
import type { LivePayload } from "../loops/live-iteration.service";

export const FLUSH_MS = 300;
const HEARTBEAT_FLUSH_MS = 2_000;
/** Per batch: the newest lines and characters kept; the rest is counted as skipped. */
const BATCH_LINES = 200;
const BATCH_CHARS = 16_000;
const TOOLS_KEPT = 50;
const PRUNE_EVERY = 10;
const LIVE_HEALTH_EVENTS = new Set(["health_changed", "intervention", "agent_retry"]);

interface Iteration extends Omit<LivePayload, "iteration"> {
  number: number;
  chars: number;
  skippedLines: number;
  totalLines: number;
  dirty: boolean;
  /** A heartbeat arrived since the last batch. */
  beat: boolean;
  lastFlushAt: number;
}

export class LiveRecorder implements EventSink {
  /** Engine events already stored live: the step commit leaves them out. */
  readonly committed = new WeakSet<EngineEvent>();
  private current: Iteration | null = null;
  private pendingHealth: EngineEvent[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private writing: Promise<void> | null = null;
  private wrote = false;
  private flushes = 0;
  private stopped = false;

  constructor(
    private readonly opts: {
      db: Db;
      loopId: string;
      owner: string;
      now: () => number;
      actorIds: ReadonlyMap<string, string | null>;
      onWritten?: () => void;
      flushMs?: number;
    },
  ) {}

  emit(event: EngineEvent): void {
    if (this.stopped || event.loopId !== this.opts.loopId) return;
    if (event.type === "iteration_started") return this.begin(event);
    const it = this.current;
    if (!it || event.iteration !== it.number) return;
    switch (event.type) {
      case "agent_progress": {
        const p = event.progress;
        it.heartbeatAt = event.at;
        it.beat = true;
        if (p.kind === "output") this.addLine(it, p.text, event.at, p.skipped ?? 0);
        else if (p.kind === "tool_call") {
          it.tools.push({ name: p.name, at: event.at });
          if (it.tools.length > TOOLS_KEPT) it.tools.shift();
          it.dirty = true;
        }
        return;
      }
      case "phase_started":
        it.phase = event.phase;
        it.dirty = true;
        return;
      case "iteration_finished":
        // Nothing more to show live: the iteration row replaces it.
        this.stopTimer();
        return;
      default:
        if (!LIVE_HEALTH_EVENTS.has(event.type)) return;
        if (event.type === "health_changed") it.health = event.to;
        if (event.type === "intervention") {
          it.interventions.push({ level: event.level, message: event.message, at: event.at });
        }
        it.dirty = true;
        this.pendingHealth.push(event);
        this.flush();
    }
  }

  private begin(event: Extract<EngineEvent, { type: "iteration_started" }>) {
    this.current = {
      number: event.iteration,
      agentId: event.agentId,
      startedAt: event.at,
      phase: "agent",
      heartbeatAt: null,
      outputAt: null,
      health: "healthy",
      interventions: [],
      tools: [],
      lines: [],
      chars: 0,
      skippedLines: 0,
      totalLines: 0,
      // The first batch waits a period: an iteration shorter than that writes nothing.
      dirty: true,
      beat: false,
      lastFlushAt: event.at,
    };
    this.stopTimer();
    this.timer = setInterval(() => this.tick(), this.opts.flushMs ?? FLUSH_MS);
    this.timer.unref?.();
  }

  private addLine(it: Iteration, text: string, at: number, skippedBefore: number) {
    it.lines.push(text);
    it.chars += text.length;
    it.totalLines += skippedBefore + 1;
    it.skippedLines += skippedBefore;
    it.outputAt = at;
    it.dirty = true;
    while (it.lines.length > BATCH_LINES || (it.chars > BATCH_CHARS && it.lines.length > 1)) {
      it.chars -= it.lines.shift()!.length;
      it.skippedLines++;
    }
  }

  private tick() {
    const it = this.current;
    if (!it) return;
    // A silent agent writes nothing: its last batch keeps saying when it last beat.
    const beatDue = it.beat && this.opts.now() - it.lastFlushAt >= HEARTBEAT_FLUSH_MS;
    if (it.dirty || beatDue) this.flush();
  }

  /** One write at a time; what arrives meanwhile goes in the next. */
  private flush() {
    if (this.writing || this.stopped) return;
    const it = this.current;
    if (!it) return;
    const health = this.pendingHealth.splice(0);
    const payload: LivePayload = {
      iteration: it.number,
      agentId: it.agentId,
      startedAt: it.startedAt,
      phase: it.phase,
      heartbeatAt: it.heartbeatAt,
      outputAt: it.outputAt,
      health: it.health,
      interventions: [...it.interventions],
      tools: it.tools.splice(0),
      lines: it.lines.splice(0),
      skippedLines: it.skippedLines,
      totalLines: it.totalLines,
    };
    it.chars = 0;
    it.skippedLines = 0;
    it.dirty = false;
    it.beat = false;
    it.lastFlushAt = this.opts.now();
    const rows: NewLoopEvent[] = [
      ...eventRows(health, this.opts.actorIds),
      { loopId: this.opts.loopId, type: LIVE_EVENT, actor: "engine", reason: null, payload },
    ];
    const prune = ++this.flushes % PRUNE_EVERY === 0;
    this.writing = writeLiveEvents(this.opts.db, {
      loopId: this.opts.loopId,
      owner: this.opts.owner,
      events: rows,
      prune,
    })
      .then((written) => {
        if (!written) return;
        this.wrote = true;
        for (const e of health) this.committed.add(e);
        this.opts.onWritten?.();
      })
      // A failed batch is not fatal: the health events are stored with the step instead.
      .catch(() => undefined)
      .finally(() => {
        this.writing = null;
        if (this.pendingHealth.length > 0) this.flush();
      });
  }

  /** Before a step commit: no batch in flight, and no more until the next iteration starts. */
  async settle(): Promise<void> {
    this.stopTimer();
    while (this.writing) await this.writing;
  }

  /** After the step commit stored the iteration: its live rows go. */
  async clear(): Promise<void> {
    this.current = null;
    this.pendingHealth = [];
    if (!this.wrote) return;
    this.wrote = false;
    await clearLiveEvents(this.opts.db, this.opts.loopId).catch(() => undefined);
    this.opts.onWritten?.();
  }

  stop() {
    this.stopped = true;
    this.stopTimer();
  }

  private stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
