// npm run worker: starts scripts/worker.ts with the runtime's node flags and malloc
// settings (scripts/lib/runtime-node-flags.mjs), the same as the app server gets.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUNTIME_NODE_FLAGS, runtimeEnv } from "./lib/runtime-node-flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = [...RUNTIME_NODE_FLAGS, "--import", "tsx", join(root, "scripts/worker.ts"), ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { cwd: process.cwd(), stdio: "inherit", env: runtimeEnv() });
// The worker stops cleanly on these (it finishes its slices' current iterations): pass them on, and wait.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
