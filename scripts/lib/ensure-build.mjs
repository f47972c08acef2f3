// Builds the app when there is no build yet or a source file is newer than it,
// so `npm start` and `npm test` always serve the code in the checkout.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "server",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "package.json",
  "postcss.config.mjs",
  "tsconfig.json",
];
const SKIP = new Set(["node_modules", ".next", "generated"]);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (SKIP.has(entry) || entry.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function buildIsStale(root) {
  const marker = join(root, ".next", "BUILD_ID");
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

export function ensureBuild(root) {
  if (!buildIsStale(root)) return false;
  console.log("Building Ralph Control (next build)…");
  execFileSync(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  return true;
}
