import { tracked } from "@trpc/server";
import { z } from "zod";
import { listLoopEvents, openEventStream } from "../../events/events.service";
import { roleProcedure, router } from "../trpc";
import { idInput as loopId } from "./id-inputs";
import { eventPageOutput } from "./misc.types";

export const eventStreamInput = z
  .object({
    loopId: loopId.optional(),
    // Filled by the client link on reconnect (or from the Last-Event-ID header):
    // the id of the last event this subscriber received.
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/, "lastEventId must be an event id")
      .nullish(),
  })
  .optional();

export const eventListInput = z.object({
  loopId,
  beforeId: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
  types: z.array(z.string().min(1).max(100)).max(20).optional(),
});

export const eventsRouter = router({
  /**
   * Live LoopEvents for one loop or all loops, as server-sent events. Each is
   * tracked by its id, so httpSubscriptionLink (or a browser EventSource) resumes
   * after the last one it received: a reconnect replays what was missed first.
   */
  stream: roleProcedure("viewer")
    .input(eventStreamInput)
    // A plain async resolver, not a generator: the starting point is pinned
    // before the response starts, so once the client sees the stream connected
    // (onStarted), every event committed afterwards reaches it.
    .subscription(async ({ ctx, input, signal }) => {
      const events = await openEventStream(ctx.db, {
        loopId: input?.loopId,
        lastEventId: input?.lastEventId ? Number(input.lastEventId) : null,
        signal: signal ?? new AbortController().signal,
      });
      return (async function* () {
        for await (const event of events) yield tracked(String(event.id), event);
      })();
    }),

  /** The audit view: one loop's events, newest first, a page at a time. */
  list: roleProcedure("viewer")
    .input(eventListInput)
    .output(eventPageOutput)
    .query(({ ctx, input }) =>
      listLoopEvents(ctx.db, input.loopId, { beforeId: input.beforeId, limit: input.limit, types: input.types }),
    ),
});
