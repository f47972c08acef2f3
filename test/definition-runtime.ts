// A job runtime on a test database that builds each loop's ports from its stored definition (the real
// agents registry: command agents, presets, scorers), as the app does. Every stored secret resolves to
// `secret`: which secret a loop names decides its account, not its value.
import { testDeps } from "../server/agents/fixtures/harness";
import { createPorts } from "../server/agents/registry";
import type { IsolationSettings } from "../server/agents/sandbox/isolation";
import type { Database } from "../server/db/client";
import { LocalDispatcher } from "../server/jobs/local-dispatcher";
import { DEFAULT_SETTINGS, type JobRuntime } from "../server/jobs/runtime-deps";
import { systemDeps } from "../server/jobs/system-deps";

export function startDefinitionRuntime(
  db: Database,
  opts: { root: string; instanceId: string; secret?: string; isolation?: IsolationSettings },
) {
  const dispatcher = new LocalDispatcher();
  const runtime: JobRuntime = {
    db,
    dispatcher,
    engine: systemDeps,
    ports: (loop) => {
      const c = loop.config as { agent: unknown; fallbackAgent?: unknown; scorers?: unknown[] };
      const secret = opts.secret;
      const deps = testDeps(
        opts.root,
        {},
        {
          ...(secret === undefined ? {} : { secrets: { resolve: async () => secret } }),
          ...(opts.isolation ? { isolation: opts.isolation } : {}),
        },
      );
      return createPorts(
        { agent: c.agent, fallbackAgent: c.fallbackAgent, scorers: c.scorers ?? [] },
        { ...deps, permissions: loop.permissions },
        loop.id,
      );
    },
    settings: { ...DEFAULT_SETTINGS, heartbeatMs: 100 },
    instanceId: opts.instanceId,
  };
  dispatcher.attach(runtime);
  return { runtime, dispatcher, services: { db, dispatcher, engine: systemDeps } };
}
