// Settings → Usage limits → Clear: an admin says the account's window no longer
// holds (the plan was upgraded, the provider reset it early, the CLI misread
// it). The window row goes, with one audit event saying who and why, and each
// loop waiting on that account is sent a stored "resume" control (the same
// "resume now" an operator can send one loop), so it tries its agent at its
// next safe point; brand-new loops no longer join the window.
import { appendEvents } from "../db/events.repo";
import { deleteLimitWindow, loopsWaitingForLimit } from "../db/usage-limits.repo";
import { conflict } from "../errors";
import { requestControl } from "./loop-controls.service";
import { actorName, type ActingAs, type LoopServices } from "./loop-services";
import { loopAccounts } from "./usage-account";

export interface ClearedWindow {
  account: string;
  /** Loops sent "resume", and the ones whose resume was refused (they moved on meanwhile). */
  resumed: string[];
  refused: { id: string; note: string }[];
}

export async function clearLimitWindow(
  svc: LoopServices,
  account: string,
  acting: ActingAs & { reason: string },
): Promise<ClearedWindow> {
  const window = await deleteLimitWindow(svc.db.prisma, account);
  const waiting = (await loopsWaitingForLimit(svc.db.prisma)).filter((l) => loopAccounts(l.config).primary === account);
  if (!window && waiting.length === 0) throw conflict(`no usage-limit window is in force for ${account}`);
  await appendEvents(svc.db.prisma, [
    {
      loopId: null,
      type: "limit_window_cleared",
      actorId: acting.actor.id,
      actor: actorName(acting.actor),
      reason: acting.reason,
      payload: {
        account,
        until: window?.until.toISOString() ?? null,
        message: window?.message ?? null,
        loops: waiting.map((l) => l.id),
      },
    },
  ]);
  const reason = `usage-limit window of ${account} cleared: ${acting.reason}`;
  const result: ClearedWindow = { account, resumed: [], refused: [] };
  for (const loop of waiting) {
    try {
      await requestControl(svc, loop.id, { kind: "resume" }, { actor: acting.actor, reason });
      result.resumed.push(loop.id);
    } catch (error) {
      result.refused.push({ id: loop.id, note: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}
