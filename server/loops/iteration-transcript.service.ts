// One iteration's transcript lines as the command executor kept them
// (server/agents/transcript-lines.ts): compacted, capped and scrubbed of the
// loop's secrets when they were stored. The browser reads them as a
// conversation with lib/transcript, the same model as the live card.
import { iterationTranscript } from "../db/iterations.repo";
import type { Database } from "../db/client";
import { notFound } from "../errors";

export async function iterationTranscriptOf(db: Database, loopId: string, number: number, attempt?: number) {
  const row = await iterationTranscript(db.prisma, loopId, number, attempt);
  if (!row) throw notFound(`Iteration ${number} of loop`, loopId);
  const stored = (row.transcript ?? null) as { lines?: unknown; skipped?: unknown } | null;
  const lines = Array.isArray(stored?.lines) ? stored.lines.filter((l): l is string => typeof l === "string") : [];
  const skipped = typeof stored?.skipped === "number" ? stored.skipped : 0;
  return { number: row.number, attempt: row.attempt, lines, skipped };
}
