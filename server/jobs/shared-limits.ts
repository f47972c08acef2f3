// Usage limits shared across loops (issue 18): before an attempt, a loop on an
// account that another loop found limited waits with it; after a step, a limit
// this loop learned is recorded for the others. The waiting itself is the
// engine's (joinSharedLimit, usageLimitPreflight).
import { joinSharedLimit, type EngineEvent, type LoopSnapshot, type StepOutcome } from "../engine";
import { activeLimitWindow, recordLimitWindow } from "../db/usage-limits.repo";
import type { Db } from "../db/client";
import { loopAccounts } from "../loops/usage-account";

export class SharedLimits {
  private readonly accounts: { primary: string | null; fallback: string | null };
  /** Events of a join not stored yet: they go with the next commit. */
  private carried: EngineEvent[] = [];

  constructor(
    private readonly db: Db,
    private readonly loopId: string,
    config: unknown,
    private readonly hasFallback: boolean,
  ) {
    this.accounts = loopAccounts(config);
  }

  /** The snapshot to step from: waiting with the account's window when one is in force. */
  async beforeStep(snapshot: LoopSnapshot, now: number): Promise<LoopSnapshot> {
    if (this.accounts.primary === null) return snapshot;
    const window = await activeLimitWindow(this.db, this.accounts.primary, new Date(now));
    if (!window) return snapshot;
    const shared = {
      until: window.until.getTime(),
      learnedAt: window.learnedAt.getTime(),
      message: window.message,
      window: window.window,
      usedPercent: window.usedPercent,
    };
    const joined = joinSharedLimit(snapshot, shared, now, this.hasFallback);
    this.carried.push(...joined.events);
    return joined.snapshot;
  }

  /** The join's events, once: the caller stores them with its commit. */
  takeEvents(): EngineEvent[] {
    return this.carried.splice(0);
  }

  /** Records a limit this loop's own agent hit, for the other loops on its account. */
  async afterStep(outcome: StepOutcome, now: number): Promise<void> {
    const ran = outcome.iteration?.record.agent ?? "primary";
    const account = ran === "fallback" ? this.accounts.fallback : this.accounts.primary;
    if (account === null || outcome.iteration?.record.status !== "rate_limited") return;
    for (const event of outcome.events) {
      const learned =
        (event.type === "limit_wait_started" && !event.shared) || event.type === "limit_fallback" ? event : null;
      if (!learned) continue;
      await recordLimitWindow(this.db, {
        account,
        until: new Date(learned.until),
        learnedAt: new Date(now),
        message: learned.message,
        loopId: this.loopId,
        window: learned.window ?? null,
        usedPercent: learned.usedPercent ?? null,
      });
    }
  }
}
