// Output contracts of the auth mutations, the check preview and the audit list.
// Nested structures the server builds (test evidence, event payloads) keep
// their server types; the top-level keys are the contract.
import { z } from "zod";
import type { describeCheck, runCheckOnce } from "../../loops/check-preview.service";
import type { listLoopEvents } from "../../events/events.service";

type Described = ReturnType<typeof describeCheck>;
type Ran = Awaited<ReturnType<typeof runCheckOnce>>;
type Listed = Awaited<ReturnType<typeof listLoopEvents>>["items"][number];

export const signInOutput = z.object({ ok: z.literal(true), expiresAt: z.date() });
export const changePasswordOutput = z.object({ ok: z.literal(true), endedSessions: z.number() });
export const setupStatusOutput = z.object({
  needed: z.boolean(),
  allowedHere: z.boolean(),
  problem: z.string().nullable(),
});
export const setupOutput = z.object({ ok: z.literal(true), email: z.string() });

export const checkDescriptionOutput = z.object({
  runner: z.object({ id: z.string(), label: z.string(), needs: z.string() }).nullable(),
  via: z.string().nullable(),
  argv: z.array(z.string()),
  env: z.custom<Described["env"]>(),
  report: z.custom<Described["report"]>(),
  note: z.string().nullable(),
});

export const checkRunOutput = z.object({
  score: z.number(),
  reason: z.string(),
  tests: z.custom<Ran["tests"]>(),
  durationMs: z.number(),
  /** worktree: a temporary worktree prepared as the loop's; checkout: the folder itself (in place). */
  ranIn: z.enum(["worktree", "checkout"]),
  note: z.string().nullable(),
});

export const eventPageOutput = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      loopId: z.string().nullable(),
      type: z.string(),
      actorId: z.string().nullable(),
      actor: z.string(),
      /** The person's name when a user acted (the live stream does not carry it). */
      actorName: z.string().nullable().optional(),
      reason: z.string().nullable(),
      payload: z.custom<Listed["payload"]>(),
      createdAt: z.date(),
    }),
  ),
  nextBeforeId: z.number().optional(),
});
