import { alertsRouter } from "./routers/alerts.router";
import { noticesRouter } from "./routers/notices.router";
import { authRouter } from "./routers/auth.router";
import { checksRouter } from "./routers/checks.router";
import { eventsRouter } from "./routers/events.router";
import { landingRouter } from "./routers/landing.router";
import { loopsRouter } from "./routers/loops.router";
import { permissionsRouter } from "./routers/permissions.router";
import { racesRouter } from "./routers/races.router";
import { secretsRouter } from "./routers/secrets.router";
import { shareRouter } from "./routers/share.router";
import { systemRouter } from "./routers/system.router";
import { tokensRouter } from "./routers/tokens.router";
import { usersRouter } from "./routers/users.router";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  system: systemRouter,
  loops: loopsRouter,
  races: racesRouter,
  events: eventsRouter,
  auth: authRouter,
  users: usersRouter,
  secrets: secretsRouter,
  share: shareRouter,
  checks: checksRouter,
  tokens: tokensRouter,
  alerts: alertsRouter,
  notices: noticesRouter,
  landing: landingRouter,
  permissions: permissionsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller: used by React Server Components and by router tests. */
export const createCaller = createCallerFactory(appRouter);
