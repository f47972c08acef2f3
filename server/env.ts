// The only module that reads process.env. Everything else imports `env`
// (or calls parseEnv in tests) so configuration is validated once, at start.
import { z } from "zod";

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => v.startsWith("file:") || /^postgres(ql)?:\/\//.test(v), {
    message: 'must start with "file:" (SQLite) or "postgresql://" (PostgreSQL)',
  });

const splitList = (v: unknown) =>
  typeof v === "string"
    ? v
        .split(/[\s,]+/)
        .map((x) => x.trim())
        .filter(Boolean)
    : v;

/**
 * Names that are the server's own configuration: everything this module
 * reads, every RALPH_* variable, and what the database drivers and Next
 * read by themselves. None of them may ever reach an agent.
 */
export function isServerConfigName(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    SERVER_CONFIG_NAMES.has(upper) || /^(RALPH|DATABASE|NEXT|PRISMA|__NEXT)_/.test(upper) || /^PG[A-Z_]*$/.test(upper)
  );
}

const nameList = z.preprocess(
  splitList,
  z.array(
    z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/, "must be environment variable names like OPENAI_API_KEY")
      .refine((n) => !isServerConfigName(n), "must not name the server's own configuration"),
  ),
);
const hostList = z.preprocess(
  (v) => (splitList(v) as unknown[] | undefined)?.map((h) => (typeof h === "string" ? h.toLowerCase() : h)),
  z.array(z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.*-]+)(:\d{1,5})?$/, "must be host or host:port entries")),
);
const pathList = z.preprocess(
  splitList,
  z.array(z.string().refine((p) => p.startsWith("/"), "must be absolute paths")),
);

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.preprocess((v) => (v === "" ? undefined : v), databaseUrl.default("file:./data/ralph.db")),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Where the embedded defaults keep their files (SQLite database, key files).
  RALPH_DATA_DIR: z.string().min(1).default("./data"),
  // A PostgreSQL server where tooling and tests may create and drop scratch databases.
  RALPH_PG_ADMIN_URL: databaseUrl.default("postgresql://postgres@127.0.0.1:5432/postgres"),
  // How often the sweeper looks for loops whose lease expired (ms).
  RALPH_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  // Signs job requests to the app's own routes. Unset: a key kept in
  // RALPH_DATA_DIR/job-secret (created 0600 on first start). Several app
  // instances or workers must share one value.
  RALPH_JOB_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Where the app reaches its own job routes; default http://127.0.0.1:$PORT.
  RALPH_INTERNAL_URL: z.url().optional(),
  // Whether this app instance runs loops itself (false: leave them to `npm run worker`).
  RALPH_RUN_JOBS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  // Logs each operator control's server-side steps (ms) as one JSON line: where a click's time goes.
  RALPH_CONTROL_TIMINGS: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  RALPH_LEASE_MS: z.coerce.number().int().min(1000).default(15_000),
  RALPH_HEARTBEAT_MS: z.coerce.number().int().min(50).default(2_000),
  // How long the merge queue lets a landing's evidence re-run take before it needs review (30 minutes).
  RALPH_LANDING_CHECK_TIMEOUT_MS: z.coerce.number().int().min(1000).default(1_800_000),
  RALPH_SLICE_BUDGET_MS: z.coerce.number().int().min(1000).default(55_000),
  // Group commit: how long a step commit waits (ms) for those of other loops in
  // this process to share its transaction and fsync. 0: each commits alone.
  RALPH_GROUP_COMMIT_MS: z.coerce.number().int().min(0).max(50).default(2),
  RALPH_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  // Slices one app instance runs at once (the rest wait their turn).
  RALPH_APP_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  // How the app runs slices: in its own process, or as signed requests to its
  // job route (server/jobs/dispatch-mode.ts). auto: http when
  // RALPH_INTERNAL_URL is set, else in-process.
  RALPH_APP_DISPATCH: z.enum(["auto", "in-process", "http"]).default("auto"),
  // Sign-in sessions end after this long without a request, and in any case
  // this long after sign-in.
  RALPH_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 30)
    .default(8 * 60),
  RALPH_SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(7 * 24),
  // Failed sign-ins allowed per account and per client address in 15 minutes.
  RALPH_SIGNIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  RALPH_SIGNIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).max(10_000).default(20),
  // Creates (or, with a new password, resets) this admin at start. Both or neither.
  RALPH_ADMIN_EMAIL: z.preprocess((v) => (v === "" ? undefined : v), z.email("must be an email address").optional()),
  RALPH_ADMIN_PASSWORD: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(12, "must be at least 12 characters").max(200).optional(),
  ),
  // Encrypts stored secrets (AES-256-GCM): base64 of 32 random bytes. Unset: a
  // key kept in RALPH_DATA_DIR/secret-key (created 0600 on first use).
  RALPH_SECRET_KEY: z
    .string()
    .refine(
      (v) => Buffer.from(v, "base64").length === 32,
      "must be base64 of exactly 32 bytes (openssl rand -base64 32)",
    )
    .optional(),
  // Behind a reverse proxy: take the client address from the last
  // X-Forwarded-For entry (the proxy's view) instead of the socket.
  RALPH_TRUST_PROXY: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  // Agent isolation (docs/sandbox.md, "Trust model"). `off` runs every
  // command agent without the sandbox; each loop then shows a warning.
  RALPH_AGENT_SANDBOX: z.enum(["on", "off"]).default("on"),
  // Agent processes (and the per-iteration git commands) are started by a small
  // helper process, whose fork costs a few ms where the server's costs tens.
  // `off` spawns them from the server itself (server/agents/spawner.ts).
  RALPH_SPAWN_HELPER: z.enum(["on", "off"]).default("on"),
  // `on`: sandboxed processes run in a sandbox started once per policy (loop workspace,
  // HOME, network allowlist) and kept warm, each in namespaces of its own inside
  // it (server/agents/sandbox/warm-sandbox.ts). `off` starts a sandbox per process.
  RALPH_SANDBOX_WARM: z.enum(["on", "off"]).default("on"),
  // Server variables an agent may take (envAllow, apiKeyEnv, secrets[].env),
  // comma-separated. Nothing else of the server's environment reaches an agent.
  RALPH_AGENT_ENV_ALLOW: nameList.default([]),
  // Loopback or private hosts agents may reach (a local Ollama, a webhook on
  // this machine), comma-separated `host` or `host:port`.
  RALPH_AGENT_ALLOW_HOSTS: hostList.default([]),
  // Where each loop's agent HOME lives (default: beside the data folder, as
  // `<RALPH_DATA_DIR>-agent-homes`). Never inside the data folder.
  RALPH_AGENT_HOMES_DIR: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  // Folders inside which operators may put a loop's workspace (admins may
  // choose any folder but the data and app folders).
  RALPH_WORKSPACE_ROOTS: pathList.default([]),
  // Loopback or private hosts alert channels may reach (a webhook receiver on
  // this network), comma-separated `host` or `host:port`. Public hosts need no entry.
  RALPH_ALERT_ALLOW_HOSTS: hostList.default([]),
  // The app's address as people open it, for the deep links alerts carry
  // (default http://localhost:$PORT).
  RALPH_PUBLIC_URL: z.url().optional(),
});

export type Env = z.infer<typeof envSchema>;

// Hoisted function declarations above read this once the module has loaded.
const SERVER_CONFIG_NAMES = new Set<string>(Object.keys(envSchema.shape));

export class EnvError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super("Invalid environment configuration:\n" + issues.map((i) => `  ${i.variable}: ${i.message}`).join("\n"));
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) {
    const { RALPH_ADMIN_EMAIL: email, RALPH_ADMIN_PASSWORD: password } = result.data;
    if (!email !== !password) {
      const missing = email ? "RALPH_ADMIN_PASSWORD" : "RALPH_ADMIN_EMAIL";
      throw new EnvError([
        { variable: missing, message: "RALPH_ADMIN_EMAIL and RALPH_ADMIN_PASSWORD must be set together" },
      ]);
    }
    return result.data;
  }
  throw new EnvError(
    result.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? "?"), message: issue.message })),
  );
}

let cached: Env | undefined;

/** The validated environment of this process, parsed on first use. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The variables a child process (a CLI agent, a check command) may inherit:
 * only the named ones, never the server's whole environment. This is the one
 * sanctioned way for other modules to see raw process variables.
 */
export function inheritedEnv(allow: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of allow) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A provider key or secret from the environment, by name (e.g. OPENAI_API_KEY). */
export function secretFromEnv(name: string): string | undefined {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) return undefined;
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
}
