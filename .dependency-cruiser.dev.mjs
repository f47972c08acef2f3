// The rules that also bind code that never ships: tests, test helpers,
// benchmarks and dev scripts. They may cross layers (a test drives the API and
// reads rows back) but still form no import cycles, reach the engine only
// through its index, never touch Prisma directly, and import only what
// resolves. Shipped code is checked by .dependency-cruiser.mjs; both run in
// `npm run lint`.
import shipped, { DEV, GENERATED } from "./.dependency-cruiser.mjs";

const rule = (name) => shipped.forbidden.find((r) => r.name === name);
const fromDev = (name, extra = {}) => {
  const r = rule(name);
  return { ...r, from: { ...r.from, path: DEV, ...extra } };
};

const config = {
  forbidden: [
    {
      name: "not-to-dev-code",
      comment: "Shipped code never imports tests, test helpers or benchmarks.",
      severity: "error",
      from: { pathNot: DEV },
      to: { path: DEV },
    },
    {
      name: "dev-storage-through-server-db",
      comment:
        "Tests reach the database through server/db (and pg, to create and drop scratch databases); never through Prisma directly.",
      severity: "error",
      // The Prisma CLI's own configs are the exception that proves the rule.
      from: { path: DEV, pathNot: "(^|/)prisma\\.config\\.ts$" },
      to: { path: "^(node_modules/(@prisma/|prisma/)|server/db/generated/)" },
    },
    fromDev("engine-through-its-index", { pathNot: "^server/engine/" }),
    // A cycle through a dev file has an import out of it, so this finds every
    // cycle the shipped check cannot see.
    fromDev("no-circular"),
    fromDev("not-unresolvable"),
  ],
  options: {
    ...shipped.options,
    exclude: { path: GENERATED },
  },
};

export default config;
