import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { prismaModelNames, storageRule } from "./scripts/lib/eslint-storage-rule.mjs";

// Which module may import which (layers, Prisma and pg only in server/db, the
// engine's purity and index, no cycles) is dependency-cruiser's job
// (.dependency-cruiser.cjs, also in `npm run lint`). ESLint checks what import
// rules cannot see: code that reaches the environment, the clock or the
// database without importing anything.

const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: "Read configuration through server/env.ts (getEnv), never process.env directly.",
};

const ralph = { rules: { "storage-boundary": storageRule(prismaModelNames("prisma/schema.prisma")) } };

/** Code that never ships: tests, their helpers and fixtures, benchmarks. */
const DEV_FILES = ["**/*.test.ts", "**/*.test.tsx", "test/**", "bench/**", "e2e/**", "**/fixtures/**"];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "server/db/generated/**",
      "coverage/**",
      "test-results/**",
      "playwright-report/**",
      "tmp/**",
      "next-env.d.ts",
    ],
  },
  {
    plugins: { ralph },
    rules: {
      "no-restricted-syntax": ["error", processEnv],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The one module that reads the environment; Next's build-time NEXT_RUNTIME
    // switch; the Prisma CLI's own configs; and the generator, which hands the
    // environment to the Prisma CLI it runs; and the runtime launchers' helper,
    // which hands the environment, plus malloc settings, to the app server or worker it starts.
    // Test harnesses and fixture CLIs inspect their own environment on purpose.
    // The `ralph` CLI is a program of its own: cli/config.ts is where it reads
    // RALPH_URL and RALPH_TOKEN.
    files: [
      "server/env.ts",
      "cli/config.ts",
      "instrumentation.ts",
      "prisma.config.ts",
      "prisma/postgresql/prisma.config.ts",
      "scripts/generate.mjs",
      "scripts/lib/runtime-node-flags.mjs",
      "test/**",
      "**/fixtures/**",
    ],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    // Queries live in server/db. Tests and benchmarks may read rows back directly.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["server/db/**", ...DEV_FILES],
    rules: { "ralph/storage-boundary": "error" },
  },
  {
    // The engine never reads the clock, randomness, timers or the process:
    // they come in through Deps and the ports, so it runs under a fake clock.
    files: ["server/engine/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Use deps.now()." },
        { object: "Math", property: "random", message: "Use deps.random()." },
      ],
      "no-restricted-globals": [
        "error",
        ...["process", "globalThis", "performance", "crypto", "fetch", "require"].map((name) => ({
          name,
          message: "server/engine does no I/O and reads no ambient state; pass it in through Deps or a port.",
        })),
        ...["setTimeout", "setInterval", "setImmediate"].map((name) => ({
          name,
          message: "Use deps.sleep(): the engine's time is injected.",
        })),
      ],
      "no-restricted-syntax": [
        "error",
        processEnv,
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Use new Date(deps.now())." },
      ],
    },
  },
];

export default config;
