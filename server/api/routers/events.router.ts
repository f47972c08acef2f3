import { tracked } from "@trpc/server";
import { z } from "zod";
import { latestCommittedEventId, listEvents } from "../../db/events.repo";
import { streamEvents } from "../../loops/event-stream";
import { getEventWakeups } from "../../loops/event-wakeups";
import { roleProcedure, router } from "../trpc";

const loopId = z.string().min(1).max(100);

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
      const latest = await latestCommittedEventId(ctx.db);
      // A delivered id is committed, so it is never above the newest id unless
      // the database was reset or its newest events deleted: then resume from
      // the newest, or the stream would wait for ids that may never come.
      const afterId = input?.lastEventId ? Math.min(Number(input.lastEventId), latest) : latest;
      const events = streamEvents(ctx.db, {
        loopId: input?.loopId,
        afterId,
        signal: signal ?? new AbortController().signal,
        wakeups: getEventWakeups(ctx.db),
      });
      return (async function* () {
        for await (const event of events) yield tracked(String(event.id), event);
      })();
    }),

  /** The audit view: one loop's events, newest first, a page at a time. */
  list: roleProcedure("viewer")
    .input(eventListInput)
    .query(async ({ ctx, input }) => {
      const items = await listEvents(ctx.db.prisma, input.loopId, {
        beforeId: input.beforeId,
        limit: input.limit,
        types: input.types,
      });
      return { items, nextBeforeId: items.length === input.limit ? items.at(-1)?.id : undefined };
    }),
});
