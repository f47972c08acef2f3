import { loopsRouter } from "./routers/loops.router";
import { systemRouter } from "./routers/system.router";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  system: systemRouter,
  loops: loopsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: used by React Server Components and by router tests. */
export const createCaller = createCallerFactory(appRouter);
