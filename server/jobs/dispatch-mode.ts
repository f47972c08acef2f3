// How an app instance runs its loops. Pure, so the choice is tested and documented in one place:
// - "in-process": slices run inside this process, a global semaphore bounding
//   them. The default for a single app (no RALPH_INTERNAL_URL): nothing is
//   gained by sending a request to itself.
// - "http": each slice is a signed POST to /api/jobs/run, so it runs in a route
//   handler within the platform's request time limit, on whichever instance the
//   URL reaches. The default once RALPH_INTERNAL_URL points somewhere (a load
//   balancer in front of several instances, a host that stops background work
//   between requests).
// - "workers": RALPH_RUN_JOBS=false, the app runs no loops; `npm run worker` does.
export type DispatchMode = "in-process" | "http" | "workers";

export function resolveDispatchMode(env: {
  RALPH_RUN_JOBS: boolean;
  RALPH_APP_DISPATCH: "auto" | "in-process" | "http";
  RALPH_INTERNAL_URL?: string;
}): DispatchMode {
  if (!env.RALPH_RUN_JOBS) return "workers";
  if (env.RALPH_APP_DISPATCH !== "auto") return env.RALPH_APP_DISPATCH;
  return env.RALPH_INTERNAL_URL ? "http" : "in-process";
}
