// Settings → Alerts (admins: channels, delivery log, send test, retry) and
// per-loop mutes and snoozes (operators; anyone signed in may read them).
import { z } from "zod";
import { ALERT_KINDS, DELIVERY_STATUSES } from "../../alert-kinds";
import {
  alertChannels,
  CHANNEL_KINDS,
  createAlertChannel,
  deleteAlertChannel,
  deliveryLog,
  loopAlertMutes,
  muteLoopAlert,
  retryDeadDelivery,
  sendTestAlert,
  unmuteLoopAlert,
  updateAlertChannel,
} from "../../alerts/alert-channels.service";
import { getEnv } from "../../env";
import { actorName } from "../../loops/loop-services";
import { getSecretKey } from "../../secrets/secret-key";
import type { Actor } from "../../auth/actor";
import { roleProcedure, router, adminProcedure as admin } from "../trpc";
import { longIdInput as id } from "./id-inputs";
import { alertsOutputs, channelOutput, createdChannelOutput, deliveryOutput, muteOutput } from "./alerts.types";

const kinds = z.array(z.enum(ALERT_KINDS)).min(1, "choose at least one event").max(ALERT_KINDS.length);
const acting = (actor: Actor) => ({ id: actor.id, name: actorName(actor) });
/** A channel's loops (empty: every loop, the global rule). */
const loopIds = z.array(z.string().trim().min(1).max(100)).max(200);

export const alertsRouter = router({
  channels: admin.output(z.array(channelOutput)).query(({ ctx }) => alertChannels(ctx.db)),
  /** The signing secret is in this answer only. */
  createChannel: admin
    .input(
      z.object({
        name: z.string().trim().min(1, "name the channel").max(100),
        kind: z.enum(CHANNEL_KINDS),
        url: z.string().trim().url("enter the webhook URL").max(2000),
        events: kinds,
        loopIds: loopIds.optional(),
      }),
    )
    .output(createdChannelOutput)
    .mutation(({ ctx, input }) =>
      createAlertChannel(ctx.db, getSecretKey(), input, {
        actor: acting(ctx.actor),
        newId: ctx.services.engine.newId,
        allowHosts: getEnv().RALPH_ALERT_ALLOW_HOSTS,
      }),
    ),
  updateChannel: admin
    .input(z.object({ id, events: kinds.optional(), loopIds: loopIds.optional(), enabled: z.boolean().optional() }))
    .output(alertsOutputs.ok)
    .mutation(({ ctx, input }) => {
      const { id: channelId, ...change } = input;
      return updateAlertChannel(ctx.db, channelId, change, acting(ctx.actor));
    }),
  deleteChannel: admin
    .input(z.object({ id }))
    .output(alertsOutputs.ok)
    .mutation(({ ctx, input }) => deleteAlertChannel(ctx.db, input.id, acting(ctx.actor))),
  sendTest: admin
    .input(z.object({ channelId: id }))
    .output(alertsOutputs.testQueued)
    .mutation(({ ctx, input }) =>
      sendTestAlert(ctx.db, input.channelId, { newId: ctx.services.engine.newId, now: ctx.services.engine.now() }),
    ),
  deliveries: admin
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(200).default(50),
          status: z.enum(DELIVERY_STATUSES).optional(),
        })
        .default({ limit: 50 }),
    )
    .output(z.array(deliveryOutput))
    .query(({ ctx, input }) => deliveryLog(ctx.db, input)),
  retry: admin
    .input(z.object({ id }))
    .output(alertsOutputs.ok)
    .mutation(({ ctx, input }) => retryDeadDelivery(ctx.db, input.id, ctx.services.engine.now())),

  mutes: roleProcedure("viewer")
    .input(z.object({ loopId: id }))
    .output(z.array(muteOutput))
    .query(({ ctx, input }) => loopAlertMutes(ctx.db, input.loopId)),
  /** Mute one kind ("*": every kind) for a loop; with `minutes`, a snooze. */
  mute: roleProcedure("operator")
    .input(
      z.object({
        loopId: id,
        kind: z.enum([...ALERT_KINDS, "*"]),
        minutes: z
          .number()
          .int()
          .min(1)
          .max(60 * 24 * 30)
          .nullish(),
      }),
    )
    .output(alertsOutputs.muted)
    .mutation(({ ctx, input }) =>
      muteLoopAlert(
        ctx.db,
        { loopId: input.loopId, kind: input.kind, minutes: input.minutes ?? null },
        { actor: acting(ctx.actor), newId: ctx.services.engine.newId, now: ctx.services.engine.now() },
      ),
    ),
  unmute: roleProcedure("operator")
    .input(z.object({ loopId: id, kind: z.enum([...ALERT_KINDS, "*"]) }))
    .output(alertsOutputs.ok)
    .mutation(({ ctx, input }) => unmuteLoopAlert(ctx.db, input.loopId, input.kind, acting(ctx.actor))),
});
