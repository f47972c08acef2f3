// The layer graph of the shipped code, checked by `npm run lint` (and by
// `npx depcruise .`). Imports are judged after resolution, so relative
// paths, `@/` aliases and lib/** are all covered. Tests, test helpers and benchmarks are left out here: they may
// reach across layers on purpose. .dependency-cruiser.dev.mjs checks them.
// ARCHITECTURE.md ("Layers") describes the same picture in words.

/** Code that never ships: tests, their helpers and fixtures, benchmarks, dev-only scripts and tool configs. */
export const DEV =
  "(^|/)(test|bench|e2e|fixtures)/|\\.test\\.tsx?$|^scripts/(new-migration\\.ts|test\\.mjs)$|^[^/]+\\.config\\.(ts|mjs)$|^\\.dependency-cruiser|^prisma/";

/** Build and tool output (git-ignored), never source. */
export const GENERATED =
  "^(\\.next|coverage|test-results|test-reports|playwright-report|tmp|data)/|^next-env\\.d\\.ts$";

/** server/env.ts, errors.ts and version.ts: plain helpers every server layer may use. */
const SERVER_ROOT = "server/[^/]+\\.ts$";

/**
 * Who may import whom, lowest layer first. Each folder may import itself and
 * the folders listed; every other import between our own modules is refused.
 * The list only points down, so the folders cannot form a cycle.
 */
const LAYERS = [
  ["server/engine", []],
  ["server/db", [SERVER_ROOT]],
  ["server/agents", ["server/engine", SERVER_ROOT]],
  ["server/security", [SERVER_ROOT]],
  ["server/secrets", ["server/db", "server/agents", SERVER_ROOT]],
  ["server/auth", ["server/db", SERVER_ROOT]],
  ["server/events", ["server/db", SERVER_ROOT]],
  [
    "server/loops",
    ["server/engine", "server/db", "server/agents", "server/secrets", "server/auth", "server/events", SERVER_ROOT],
  ],
  ["server/share", ["server/loops", "server/db", "server/auth", "server/agents", SERVER_ROOT]],
  // Alerts: the outbox's channels and deliverer (SSRF-guarded fetch from agents, sealed URLs from secrets),
  // and the alarm check, which judges alarms with the same service as the list (loops).
  ["server/alerts", ["server/db", "server/agents", "server/secrets", "server/loops", SERVER_ROOT]],
  [
    "server/jobs",
    ["server/engine", "server/db", "server/loops", "server/events", "server/agents", "server/secrets", SERVER_ROOT],
  ],
  // Health reports whether the agent sandbox works, so it may ask the agents layer. Start-up installs
  // the shared-page rate-limit gate proxy.ts asks (server/share/share-admission.ts).
  [
    "server/system",
    ["server/db", "server/auth", "server/jobs", "server/agents", "server/alerts", "server/share", SERVER_ROOT],
  ],
  [
    "server/api",
    [
      "server/loops",
      "server/events",
      "server/share",
      "server/alerts",
      "server/secrets",
      "server/auth",
      "server/system",
      "server/db/storage-errors\\.ts$",
      SERVER_ROOT,
    ],
  ],
  // The MCP server: its tools call the tRPC router (createCaller, so roles and audit are the API's); it keeps
  // mutating calls' idempotency keys (db) and reads the caller from an API token (auth).
  ["server/mcp", ["server/api", "server/auth", "server/db", "server/loops", "server/engine", SERVER_ROOT]],
  // Route handlers are server entry points: they hand requests to the API, MCP and the job runtime.
  ["app/api", ["server/api", "server/mcp", "server/jobs", "server/system"]],
  // The one bridge from pages to the server (React Server Components).
  ["lib/trpc/server\\.tsx$", ["lib", "server/api", "server/jobs/app-runtime\\.ts$"]],
  ["lib", []],
  // The notice classes and their names: one plain-data file the server and the browser both read.
  ["server/alert-kinds\\.ts$", ["lib/notices/notice-classes\\.ts$"]],
  ["components", ["lib/(?!trpc/server\\.tsx$)"]],
  ["app", ["components", "lib"]],
  ["instrumentation\\.ts$", ["server/system"]],
  ["proxy\\.ts$", ["lib/auth", "server/auth", "server/security", "server/request-path\\.ts$"]],
  // Entry points that compose the runtime outside Next (worker, migrations, seeding).
  ["scripts", ["server"]],
  // The `ralph` CLI talks to a server over tRPC; it shares the shared page's pure report model,
  // and `ralph run` (no server) loads the headless runtime on demand.
  [
    "cli",
    [
      "components/report/report-model\\.ts$",
      "components/loops/format\\.ts$",
      "lib/charts",
      "server/jobs/headless-run\\.ts$",
    ],
  ],
];

const anyOf = (paths) => `^(${paths.join("|")})`;
const folder = (path) => (/[$)]$/.test(path) ? path : `${path}/`);

const allowed = [
  // Packages and Node built-ins; the forbidden rules below narrow who may use which.
  { from: {}, to: { dependencyTypes: ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-no-pkg", "core"] } },
  { from: { path: `^${SERVER_ROOT}` }, to: { path: "^package\\.json$" } },
  ...LAYERS.map(([from, to]) => ({
    from: { path: `^${folder(from)}` },
    to: { path: anyOf([folder(from), ...to.map(folder)]) },
  })),
  // Types may flow up where values may not: the API names the database handle,
  // and the browser knows the server only by the AppRouter type.
  { from: { path: "^server/api/" }, to: { path: "^server/db/", dependencyTypes: ["type-only"] } },
  {
    from: { path: "^(app|components|lib|cli)/" },
    to: { path: "^server/api/root\\.ts$", dependencyTypes: ["type-only"] },
  },
];

const forbidden = [
  {
    name: "storage-only-in-server-db",
    comment: "Only server/db talks to the database: Prisma, its generated clients, pg and better-sqlite3.",
    severity: "error",
    from: { pathNot: "^server/db/" },
    to: {
      path: "^(node_modules/(@prisma/|prisma/|pg/|pg-[^/]+/|better-sqlite3/)|server/db/generated/)",
    },
  },
  {
    name: "engine-is-pure",
    comment: "server/engine imports only itself and zod: no framework, no I/O, no Node built-ins, no other layer.",
    severity: "error",
    from: { path: "^server/engine/" },
    to: { pathNot: "^(server/engine/|node_modules/zod/)" },
  },
  {
    name: "engine-through-its-index",
    comment: "Outside the engine, import it from server/engine (index.ts), never a file inside it.",
    severity: "error",
    from: { pathNot: "^server/engine/" },
    to: { path: "^server/engine/", pathNot: "^server/engine/index\\.ts$" },
  },
  {
    name: "no-circular",
    comment: "No import cycles between files, type-only imports included.",
    severity: "error",
    from: {},
    to: { circular: true },
  },
  {
    name: "no-folder-cycles",
    comment: "No import cycles between folders.",
    severity: "error",
    scope: "folder",
    from: {},
    to: { circular: true },
  },
  {
    name: "not-unresolvable",
    comment: "Every import resolves (a typo'd path would otherwise escape every rule above).",
    severity: "error",
    from: {},
    to: { couldNotResolve: true },
  },
];

const config = {
  forbidden,
  allowed,
  allowedSeverity: "error",
  options: {
    // Dev code is left out of this graph; imports of it are caught by the dev configuration.
    exclude: { path: `${DEV}|${GENERATED}` },
    // Packages and the generated Prisma clients stay in the graph as leaves, so
    // the storage rule sees who imports them.
    doNotFollow: { path: "^node_modules/|^server/db/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: a cycle or a layer breach in types is still one.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

export default config;
