// The preflight's look at an agent CLI where the agent will run it: is it
// visible inside the sandbox (a private /tmp; the data and app folders hidden),
// and which version answers `<cli> --version` there, against the range the
// preset is written for. Results are cached per binary (path, size, mtime).
import { execFile } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, sep } from "node:path";
import { findExecutable } from "./executable";
import type { IsolationSettings } from "./sandbox/isolation";
import { sandboxArgv } from "./sandbox/sandbox-runtime";
import type { PresetVersions } from "./stream-parser";

export type VersionStatus = "ok" | "warning" | "problem" | "unknown";

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Why a sandboxed agent cannot see this path, or null when it can. */
export function invisibleReason(path: string, isolation: Pick<IsolationSettings, "hidden">, workspace: string | null) {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // not there: the lookup says so
  }
  // The workspace is mounted inside whatever folder it is in.
  if (workspace && inside(real, workspace)) return null;
  if (inside(real, "/tmp") || inside(real, tmpdir()))
    return `${real} is under /tmp, and a sandboxed agent has a private /tmp: install the CLI outside /tmp (e.g. npm install -g)`;
  const hidden = isolation.hidden.find((h) => inside(real, h));
  if (hidden)
    return `${real} is inside ${hidden}, which the sandbox hides from agents: install the CLI elsewhere (e.g. npm install -g)`;
  return null;
}

export type CliLookup = { found: true; path: string; skipped: string[] } | { found: false | null; reason: string };

/**
 * `command` as the sandboxed agent will find it: the PATH entries it cannot see are passed over
 * (inside the sandbox they do not exist, so its shell finds the next one).
 */
export function findSandboxedCli(
  command: string,
  pathVar: string,
  workspace: string | null,
  isolation: Pick<IsolationSettings, "hidden">,
): CliLookup {
  const first = findExecutable(command, pathVar, workspace);
  if (first.found !== true) return first;
  const reason = invisibleReason(first.path, isolation, workspace);
  if (!reason) return { found: true, path: first.path, skipped: [] };
  if (command.includes("/")) return { found: false, reason };
  const visible = pathVar
    .split(delimiter)
    .filter((dir) => dir && !invisibleReason(join(/*turbopackIgnore: true*/ dir, command), isolation, workspace));
  const next = findExecutable(command, visible.join(delimiter), workspace);
  return next.found === true ? { found: true, path: next.path, skipped: [reason] } : { found: false, reason };
}

/** -1, 0 or 1 for dotted numeric versions (1.2.10 > 1.2.9). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** What `--version` printed, judged against the preset's range. */
export function judgeVersion(
  name: string,
  versions: PresetVersions,
  out: { exitCode: number | null; output: string },
): { status: VersionStatus; message: string; version?: string } {
  const range = `supported: ${versions.min} or newer, verified with ${versions.verified}`;
  const text = out.output.trim().slice(0, 300);
  if (out.exitCode !== 0)
    return {
      status: "problem",
      message: `\`${name} --version\` failed inside the sandbox (exit ${out.exitCode ?? "killed"})${text ? `: ${text}` : ""}`,
    };
  const version = versions.parse.exec(out.output)?.[1];
  if (!version) return { status: "unknown", message: `could not read a version from "${text}" (${range})` };
  if (compareVersions(version, versions.min) < 0)
    return {
      status: "problem",
      version,
      message: `version ${version} is too old for this preset (${range}): update the CLI`,
    };
  if (compareVersions(version, versions.verified) > 0)
    return {
      status: "warning",
      version,
      message: `version ${version} is newer than the verified ${versions.verified}: it should work, but its flags or output may have changed; check the first iteration`,
    };
  return { status: "ok", version, message: `version ${version} (${range})` };
}

const run = (argv: string[], env: Record<string, string>, timeoutMs: number) =>
  new Promise<{ exitCode: number | null; output: string }>((resolve) => {
    const options = {
      env: env as NodeJS.ProcessEnv,
      timeout: timeoutMs,
      maxBuffer: 1 << 20,
      encoding: "utf8" as const,
    };
    execFile(argv[0]!, argv.slice(1), options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ exitCode: code, output: `${stdout}${stderr ? `\n${stderr}` : ""}` });
    });
  });

const cache = new Map<string, Promise<{ exitCode: number | null; output: string }>>();

/** `<path> --version`, inside the sandbox when `isolation` is given, with an empty HOME. */
export function cliVersionOutput(
  path: string,
  pathVar: string,
  isolation: IsolationSettings | null,
  timeoutMs = 30_000,
) {
  let key = `${isolation ? "sandbox" : "host"}:${path}`;
  try {
    const s = statSync(path);
    key += `:${s.size}:${s.mtimeMs}`;
  } catch {
    // missing: run it anyway and report what happens
  }
  let pending = cache.get(key);
  if (!pending) {
    pending = (async () => {
      const home = mkdtempSync(join(/*turbopackIgnore: true*/ tmpdir(), "ralph-cli-version-"));
      try {
        const env = { PATH: pathVar || "/usr/bin:/bin", HOME: home };
        if (!isolation) return await run([path, "--version"], env, timeoutMs);
        const wrapped = await sandboxArgv(
          [path, "--version"],
          { writable: [home], hidden: isolation.hidden, hosts: [] },
          isolation.allowHosts,
        );
        try {
          return await run(wrapped.argv, env, timeoutMs);
        } finally {
          wrapped.release();
        }
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    })();
    cache.set(key, pending);
    // A failure (a busy machine's timeout) is asked again next time.
    void pending.then((r) => r.exitCode !== 0 && cache.delete(key));
  }
  return pending;
}
