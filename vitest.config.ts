import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = {
  "@": fileURLToPath(new URL(".", import.meta.url)),
  // Next's server-only guard has no meaning outside Next.
  "server-only": fileURLToPath(new URL("./node_modules/next/dist/compiled/server-only/empty.js", import.meta.url)),
};

// eslint-disable-next-line no-restricted-syntax -- test tooling, not app configuration
const ciRetries = process.env.CI ? 1 : 0;

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["**/*.test.ts", "**/*.test.tsx"],
          exclude: ["**/*.db.test.ts", "node_modules/**", "e2e/**", ".next/**", "tmp/**"],
          environment: "node",
          // Generous: the lint-rule tests start ESLint and the agent tests spawn processes,
          // which on a loaded 2-core machine can take seconds. Timing is never asserted here.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "db",
          include: ["**/*.db.test.ts"],
          exclude: ["node_modules/**", ".next/**", "tmp/**"],
          environment: "node",
          globalSetup: ["./test/db-global-setup.ts"],
          // One file at a time: the crash tests spawn real workers with
          // second-scale leases, and a starved CPU would make them measure load.
          fileParallelism: false,
          // CI gets one second attempt for these process-level tests (real workers,
          // SIGKILL/SIGSTOP, a restarted cluster): a retried pass is still reported.
          retry: ciRetries,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
    coverage: {
      provider: "v8",
      include: ["server/engine/**/*.ts"],
      exclude: ["**/*.test.ts"],
      reporter: ["text-summary", "text"],
      thresholds: { lines: 90 },
    },
  },
});
