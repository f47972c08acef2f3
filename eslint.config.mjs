import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: "Read configuration through server/env.ts (getEnv), never process.env directly.",
};

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", "server/db/generated/**", "coverage/**", "test-results/**", "playwright-report/**", "tmp/**", "next-env.d.ts"],
  },
  {
    rules: {
      "no-restricted-syntax": ["error", processEnv],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The one module that reads the environment; Next's build-time NEXT_RUNTIME
    // switch; the Prisma CLI's own configs; and the generator, which hands the
    // environment to the Prisma CLI it runs.
    // Test harnesses and fixture CLIs inspect their own environment on purpose.
    files: ["server/env.ts", "instrumentation.ts", "prisma.config.ts", "prisma/postgresql/prisma.config.ts", "scripts/generate.mjs", "test/**", "**/fixtures/**"],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    // Prisma stays inside server/db.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["server/db/**", "scripts/**", "prisma.config.ts", "prisma/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@prisma/*", "**/db/generated/**"], message: "Only server/db imports Prisma." }] },
      ],
    },
  },
  {
    // The engine is the pure core: no frameworks, no I/O, no other server layer.
    files: ["server/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*"], message: "server/engine imports no UI or framework code." },
            { group: ["@trpc/*", "@prisma/*", "@tanstack/*"], message: "server/engine imports no framework or storage code." },
            { group: ["node:*", "fs", "path", "child_process", "crypto", "http", "https", "net", "os", "pg", "better-sqlite3"], message: "server/engine does no I/O; pass effects in through ports." },
            { group: ["../*", "@/*"], message: "server/engine imports nothing from other server/ folders or the app." },
          ],
        },
      ],
    },
  },
  {
    // Pages and components see the server only through tRPC.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["app/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/server/(?!api/rsc$|api/root$)",
              message: "app/ and components/ reach the server only through tRPC (server/api/rsc, AppRouter types).",
            },
          ],
        },
      ],
    },
  },
];

export default config;
