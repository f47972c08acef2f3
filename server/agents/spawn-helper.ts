/**
 * The server's side of the spawn helper (spawn-helper.process.mjs, see there why it
 * exists). Started on the first spawn and again on the first spawn after it
 * died; runs in flight when it dies fail (their groups die with its lifelines).
 * It holds nothing of the server's configuration: its environment is PATH
 * alone, and each spawn carries its own.
 *
 * The helper is found at `server/agents/spawn-helper.process.mjs` under the app folder
 * (appDir(): the server's working folder, or where the `ralph` bin lives); without it,
 * processes are spawned directly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { inheritedEnv } from "../env";
import { appDir } from "../app-dir";
import type { SpawnEvents, SpawnHandle, SpawnRequest } from "./spawn-events";

type FromHelper =
  | { t: "spawned"; id: number; pid: number }
  | { t: "error"; id: number; message: string }
  | { t: "out" | "err"; id: number; chunk: Buffer }
  | { t: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: "close"; id: number };

interface Helper {
  child: ChildProcess;
  runs: Map<number, SpawnEvents>;
  gone: boolean;
}

// On globalThis so that `next dev`'s module reloads share one helper (and one run-id sequence,
// since run ids key the helper's messages) instead of starting another.
const shared = ((
  globalThis as unknown as { ralphSpawnHelper?: { current: Helper | null; nextId: number } }
).ralphSpawnHelper ??= { current: null, nextId: 1 });
let warnedMissing = false;

export const helperScript = () => join(/*turbopackIgnore: true*/ appDir(), "server/agents/spawn-helper.process.mjs");

/** An idle helper must not keep a script or test process alive; one with runs in flight does. */
function holdOpen(h: Helper, open: boolean) {
  if (open) {
    h.child.ref();
    h.child.channel?.ref();
  } else {
    h.child.unref();
    h.child.channel?.unref();
  }
}

function forget(h: Helper, id: number): SpawnEvents | undefined {
  const events = h.runs.get(id);
  if (!events) return undefined;
  h.runs.delete(id);
  if (h.runs.size === 0 && !h.gone) holdOpen(h, false);
  return events;
}

function dispatch(h: Helper, m: FromHelper) {
  const events = h.runs.get(m.id);
  if (!events) return;
  switch (m.t) {
    case "spawned":
      events.spawned(m.pid);
      break;
    case "out":
      events.stdout(m.chunk);
      break;
    case "err":
      events.stderr(m.chunk);
      break;
    case "exit":
      events.exit(m.code, m.signal);
      break;
    case "close":
      forget(h, m.id)?.close();
      break;
    case "error":
      forget(h, m.id)?.failed(m.message);
      break;
  }
}

function startHelper(): Helper | null {
  const script = helperScript();
  if (!existsSync(script)) {
    if (!warnedMissing) console.warn(`[ralph] ${script} not found: child processes are spawned directly`);
    warnedMissing = true;
    return null;
  }
  const child = spawn(process.execPath, [script], {
    env: inheritedEnv(["PATH"]) as NodeJS.ProcessEnv,
    // Its own stdout is unused; its stderr is the server's, for what Node itself reports.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    serialization: "advanced",
  });
  const h: Helper = { child, runs: new Map(), gone: false };
  child.on("message", (m: FromHelper) => dispatch(h, m));
  // `close` comes after the exit and after every message it sent was read: a run that closed just
  // before the helper died is not failed.
  const lost = (why: string) => {
    if (h.gone) return;
    h.gone = true;
    if (shared.current === h) shared.current = null;
    const orphaned = [...h.runs.values()];
    h.runs.clear();
    for (const events of orphaned) events.failed(why);
  };
  child.once("error", (e) => lost(`the spawn helper failed: ${e.message}`));
  child.once("close", (code, signal) => lost(`the spawn helper died (${signal ?? `exit code ${code}`})`));
  holdOpen(h, false);
  return h;
}

/** Null when there is no helper to use (its script is missing): the caller spawns directly. */
export function helperSpawn(req: SpawnRequest, events: SpawnEvents): SpawnHandle | null {
  const h = shared.current ?? (shared.current = startHelper());
  if (!h) return null;
  const id = shared.nextId++;
  let exited = false;
  h.runs.set(id, {
    ...events,
    exit: (code, signal) => {
      exited = true; // the helper closed the lifeline itself
      events.exit(code, signal);
    },
  });
  if (h.runs.size === 1) holdOpen(h, true);
  const send = (message: Record<string, unknown>) =>
    h.child.send(message, (error: Error | null) => {
      // The channel closed under us: the helper is dying, and `close` fails its runs.
      if (error) h.child.kill("SIGKILL");
    });
  send({
    t: "spawn",
    id,
    file: req.file,
    args: req.args,
    cwd: req.cwd,
    env: req.env,
    stdin: req.stdin,
    detached: req.detached,
    lifeline: req.lifeline,
    ...(req.spool ? { spool: req.spool } : {}),
  });
  return {
    release: () => {
      if (!exited && h.runs.has(id)) send({ t: "release", id });
    },
    abandon: () => {
      if (forget(h, id)) send({ t: "abandon", id });
    },
  };
}

/**
 * The attempt whose runs spooled to `file` is stored: the helper forgets their tails (and so never writes
 * them). Without a helper there is nothing to forget.
 */
export function forgetSpool(file: string): void {
  const h = shared.current;
  if (!h || h.gone || !h.child.connected) return;
  h.child.send({ t: "unspool", file }, () => undefined);
}

/** The helper's pid while it runs (tests kill it to check that runs fail cleanly). */
export const spawnHelperPid = (): number | undefined => shared.current?.child.pid;
