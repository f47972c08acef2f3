// npm test: unit, then SQLite + PostgreSQL integration, then the browser suite
// against the built app. Stops at the first failing stage and always ends with
// one summary line: "total: N passed, N failed, N skipped".
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./lib/ensure-build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reports = join(root, "test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const bin = (name) => join(root, "node_modules/.bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };

function readCounts(file, kind) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8"));
  if (kind === "vitest") {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  } else {
    totals.passed += report.stats.expected + report.stats.flaky;
    totals.failed += report.stats.unexpected;
    totals.skipped += report.stats.skipped;
  }
}

function stage(label, file, args, report, kind) {
  console.log(`\n=== ${label} ===`);
  try {
    execFileSync(file, args, { cwd: root, stdio: "inherit" });
  } finally {
    readCounts(report, kind);
  }
}

const vitest = (project) => [
  "run",
  "--project",
  project,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${join(reports, `vitest-${project}.json`)}`,
];

let exitCode = 0;
try {
  stage("unit tests", bin("vitest"), vitest("unit"), join(reports, "vitest-unit.json"), "vitest");
  stage(
    "integration tests (SQLite and PostgreSQL)",
    bin("vitest"),
    vitest("db"),
    join(reports, "vitest-db.json"),
    "vitest",
  );
  console.log("\n=== build for the browser tests ===");
  ensureBuild(root);
  stage(
    "browser tests (Chromium, built app)",
    bin("playwright"),
    ["test"],
    join(reports, "playwright.json"),
    "playwright",
  );
} catch (error) {
  exitCode = typeof error?.status === "number" && error.status !== 0 ? error.status : 1;
}
if (exitCode !== 0 && totals.failed === 0) totals.failed = 1; // a stage crashed before reporting
console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
