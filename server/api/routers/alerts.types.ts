// Output contracts of the alerts router. A channel's URL and signing secret
// are stored sealed; only `createChannel` answers with the secret, once.
import { z } from "zod";
import { ALERT_KINDS, DELIVERY_STATUSES } from "../../alert-kinds";

const ok = z.object({ ok: z.literal(true) });

export const channelOutput = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  /** The webhook's host only: the full URL may carry a token. */
  host: z.string(),
  events: z.array(z.enum(ALERT_KINDS)),
  loopIds: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.date(),
});

export const createdChannelOutput = z.object({ channel: channelOutput, signingSecret: z.string() });

export const deliveryOutput = z.object({
  id: z.string(),
  channelId: z.string(),
  eventId: z.number().nullable(),
  loopId: z.string().nullable(),
  kind: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  nextAttemptAt: z.date(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.date(),
  deliveredAt: z.date().nullable(),
  channel: z.object({ name: z.string(), kind: z.string() }),
});

export const muteOutput = z.object({
  id: z.string(),
  loopId: z.string(),
  kind: z.string(),
  until: z.date().nullable(),
  createdById: z.string().nullable(),
  createdAt: z.date(),
});

export const alertsOutputs = {
  ok,
  muted: z.object({ ok: z.literal(true), until: z.date().nullable() }),
  testQueued: z.object({ id: z.string() }),
};
