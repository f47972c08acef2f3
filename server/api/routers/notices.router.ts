// The inbox, the caller's own notice mutes and their browsers' Web Push
// subscriptions. Anyone signed in may read notices and manage their own
// mutes and subscriptions: they concern only what reaches that person.
import { z } from "zod";
import {
  inbox,
  noticeMutes,
  pushSubscriptions,
  setNoticeMute,
  subscribePush,
  unsubscribePush,
} from "../../alerts/notices.service";
import { getEnv } from "../../env";
import { forbidden } from "../../errors";
import { actorName } from "../../loops/loop-services";
import { NOTICE_CLASSES } from "../../alert-kinds";
import { getSecretKey } from "../../secrets/secret-key";
import { getVapidKeys } from "../../secrets/vapid-keys";
import type { Actor } from "../../auth/actor";
import { roleProcedure, router } from "../trpc";
import { noticesOutputs } from "./notices.types";

const signedIn = roleProcedure("viewer");
/** Mutes and subscriptions belong to a user: the unauthenticated local operator has none. */
const user = (actor: Actor) => {
  if (!actor.id) throw forbidden("sign in to keep your own notice settings");
  return { id: actor.id, name: actorName(actor) };
};
const b64url = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/, "base64url");

export const noticesRouter = router({
  inbox: signedIn.output(noticesOutputs.inbox).query(({ ctx }) => inbox(ctx.db)),
  mutes: signedIn.output(noticesOutputs.mutes).query(({ ctx }) => noticeMutes(ctx.db, user(ctx.actor).id)),
  /** Mute or unmute a class ("*": all) for a loop (null: every loop). */
  setMute: signedIn
    .input(
      z.object({
        loopId: z.string().min(1).max(200).nullable(),
        class: z.enum([...NOTICE_CLASSES, "*"]),
        muted: z.boolean(),
      }),
    )
    .output(noticesOutputs.ok)
    .mutation(({ ctx, input }) => setNoticeMute(ctx.db, user(ctx.actor), input)),
  /** The server's VAPID public key, for PushManager.subscribe's applicationServerKey. */
  pushKey: signedIn.output(z.object({ publicKey: z.string() })).query(() => ({ publicKey: getVapidKeys().publicKey })),
  subscriptions: signedIn
    .output(noticesOutputs.subscriptions)
    .query(({ ctx }) => pushSubscriptions(ctx.db, user(ctx.actor).id)),
  /** A browser's PushSubscription.toJSON(). */
  subscribe: signedIn
    .input(
      z.object({
        endpoint: z.string().url().max(2000),
        keys: z.object({ p256dh: b64url, auth: b64url }),
      }),
    )
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) =>
      subscribePush(ctx.db, getSecretKey(), user(ctx.actor), input, {
        newId: ctx.services.engine.newId,
        allowHosts: getEnv().RALPH_ALERT_ALLOW_HOSTS,
      }),
    ),
  unsubscribe: signedIn
    .input(z.object({ endpoint: z.string().url().max(2000) }))
    .output(z.object({ ok: z.literal(true), removed: z.boolean() }))
    .mutation(({ ctx, input }) => unsubscribePush(ctx.db, user(ctx.actor), input.endpoint)),
});
