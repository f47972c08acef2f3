// Output contracts of the notices router: the one class vocabulary
// (server/alert-kinds.ts) reaches the browser through these.
import { z } from "zod";
import { NOTICE_CLASSES } from "../../alert-kinds";

const notice = z.object({
  id: z.number(),
  class: z.enum(NOTICE_CLASSES),
  excerpt: z.string(),
  /** The deep link (a question's opens the loop's answer box). */
  url: z.string(),
  at: z.date(),
});

const group = z.object({
  loopId: z.string(),
  loopName: z.string(),
  loopStatus: z.string(),
  archived: z.boolean(),
  notices: z.array(notice),
});

export const noticesOutputs = {
  ok: z.object({ ok: z.literal(true) }),
  inbox: z.object({ open: z.array(group), archived: z.array(group) }),
  mutes: z.array(z.object({ loopId: z.string().nullable(), class: z.enum([...NOTICE_CLASSES, "*"]) })),
  subscriptions: z.array(z.object({ id: z.string(), host: z.string(), createdAt: z.date() })),
};
