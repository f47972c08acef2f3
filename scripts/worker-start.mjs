// npm run worker: starts scripts/worker.ts with the runtime's node flags and malloc
// settings (scripts/lib/runtime-node-flags.mjs), the same as the app server gets.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUNTIME_NODE_FLAGS, runtimeEnv } from "./lib/runtime-node-flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = [...RUNTIME_NODE_FLAGS, "--import", "tsx", join(root, "scripts/worker.ts"), ...process.argv.slice(2)];
// A process group of its own: the worker takes a second SIGINT as "exit now", so Ctrl+C must reach
// it once, through this process, not also straight from the terminal.
const child = spawn(process.execPath, args, {
  cwd: process.cwd(),
  stdio: ["ignore", "inherit", "inherit"],
  env: runtimeEnv(),
  detached: true,
});
// One Ctrl+C can arrive here twice at once (from the terminal and from npm, which passes it on):
// a repeat within half a second is the same one. A later one is passed on (the worker exits at once).
let lastSignalAt = -Infinity;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (performance.now() - lastSignalAt < 500) return;
    lastSignalAt = performance.now();
    child.kill(signal);
  });
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
