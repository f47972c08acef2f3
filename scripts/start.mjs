// npm start: build if needed, then serve. The server migrates the database
// itself at start (instrumentation.ts), so a fresh checkout needs nothing else.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./lib/ensure-build.mjs";
import { RUNTIME_NODE_FLAGS, runtimeEnv } from "./lib/runtime-node-flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
ensureBuild(root);

// The server runs loops in-process: it gets the runtime's node flags and malloc settings (see runtime-node-flags.mjs).
const args = [...RUNTIME_NODE_FLAGS, join(root, "node_modules/next/dist/bin/next"), "start"];
const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env: runtimeEnv() });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
