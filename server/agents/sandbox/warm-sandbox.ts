/**
 * A sandbox started once and kept warm: bubblewrap with the loop's
 * filesystem view, its network namespace with the proxy relays listening,
 * exactly as the sandbox runtime builds them for one command, holding a
 * process that only waits. Each command then enters its namespaces
 * (`nsenter`: user, mount, network, PID; the working directory resolved
 * inside), drops capabilities as bubblewrap does (`setpriv`), and runs under
 * the runtime's seccomp helper, which gives it user, PID and mount
 * namespaces of its own, as it does inside a fresh sandbox: nothing the
 * command starts outlives it, and it sees no process of the sandbox.
 *
 * What a fresh sandbox gave each command and a shared one would not, is put
 * back between commands: /tmp and /dev/shm are emptied to what the sandbox
 * started with. A sandbox whose /dev or /tmp cannot be put back, or whose
 * holder died, is closed and never used again.
 *
 * Why: starting bubblewrap, its namespaces, the relays and the runtime's
 * argument generation cost tens of ms per process; entering costs a few.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { withForwardNames } from "./loopback-hosts";
import { seccompHelperPath, sandboxArgv, type SandboxPlan } from "./sandbox-runtime";

const HOLDER = ["/bin/sh", "-c", "read _"];
const START_TIMEOUT_MS = 10_000;

let support: string | null | undefined;

/** Why warm sandboxes cannot be used here (null: they can): Linux, nsenter with --wdns, setpriv, the seccomp helper. */
export function warmUnsupported(): string | null {
  if (support !== undefined) return support;
  if (process.platform !== "linux") return (support = "not Linux");
  if (!seccompHelperPath()) return (support = "no seccomp helper");
  // --wdns resolves the working directory inside the sandbox's mount namespace. Without it nsenter
  // would keep a working directory on the host's mounts, and paths relative to it would leave the sandbox.
  const help = spawnSync("nsenter", ["--help"], { encoding: "utf8" });
  if (help.status !== 0 || !help.stdout.includes("--wdns")) return (support = "nsenter without --wdns");
  const setpriv = spawnSync("setpriv", ["--help"], { encoding: "utf8" });
  if (setpriv.status !== 0 || !setpriv.stdout.includes("--bounding-set")) return (support = "no setpriv");
  return (support = null);
}

const children = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const linkOf = (path: string) => {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
};

/** Entries (relative path → type, mode, link target) of a folder, down to its own file system's edge. */
function tree(dir: string, rel = "", dev?: number, out = new Map<string, string>()): Map<string, string> {
  const here = lstatSync(join(dir, rel));
  const device = dev ?? here.dev;
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    const kind = st.isDirectory() ? "d" : st.isSymbolicLink() ? `l:${readlinkSync(join(dir, path))}` : "f";
    out.set(path, `${kind}:${st.mode}:${st.dev === device ? "" : "mount"}`);
    // A bind mount (the workspace, a socket) is the sandbox's policy, not scratch space: never walked.
    if (st.isDirectory() && st.dev === device) tree(dir, path, device, out);
  }
  return out;
}

export class WarmSandbox {
  private holder: ChildProcess | null = null;
  private release: (() => void) | null = null;
  private target = 0;
  /** Variables bubblewrap sets (and unsets) for the command, as the runtime generated them. */
  private setEnv: Record<string, string> = {};
  private unsetEnv: string[] = [];
  private baseline = { tmp: new Map<string, string>(), dev: new Map<string, string>() };
  dead = false;
  busy = false;
  lastUsed = Date.now();

  constructor(
    readonly key: string,
    private readonly plan: SandboxPlan,
    private readonly allowHosts: readonly string[],
  ) {}

  async start(): Promise<void> {
    const wrapped = await sandboxArgv(HOLDER, this.plan, this.allowHosts);
    this.release = wrapped.release;
    const env = { PATH: "/usr/local/bin:/usr/bin:/bin" };
    const holder = spawn(wrapped.argv[0]!, wrapped.argv.slice(1), {
      cwd: this.plan.writable[0],
      env: env as unknown as NodeJS.ProcessEnv,
      // stdin is the holder's lifeline: it ends when this process closes it or dies.
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    this.holder = holder;
    holder.stdin!.on("error", () => undefined);
    holder.once("exit", () => this.close());
    // An idle warm sandbox does not keep a script or test process alive.
    holder.unref();
    (holder.stdin as unknown as { unref?(): void }).unref?.();
    const text = wrapped.argv[2] ?? "";
    const names = (flag: string) =>
      [...text.matchAll(new RegExp(`${flag} ([A-Za-z_][A-Za-z0-9_]*)`, "g"))].map((m) => m[1]!);
    const deadline = Date.now() + START_TIMEOUT_MS;
    const own = linkOf("/proc/self/ns/user");
    // bwrap (host) → bwrap, PID 1 of the sandbox → the runtime's shell (the relays, then the seccomp helper).
    while (!this.dead && Date.now() < deadline) {
      const init = this.findInit(holder.pid!, own);
      const shell = init ? children(init)[0] : undefined;
      const helper = seccompHelperPath()!;
      // Ready once the shell has seen both relays listen and started the holder under the seccomp helper.
      if (shell && children(shell).some((c) => linkOf(`/proc/${c}/exe`) === helper)) {
        this.target = shell;
        const environ = readFileSync(`/proc/${shell}/environ`, "utf8").split("\0");
        const values = new Map(environ.filter((e) => e.includes("=")).map((e) => [e.slice(0, e.indexOf("=")), e]));
        for (const name of names("--setenv")) {
          const entry = values.get(name);
          if (entry !== undefined) this.setEnv[name] = entry.slice(name.length + 1);
        }
        this.unsetEnv = names("--unsetenv");
        this.baseline = { tmp: tree(this.path("/tmp")), dev: tree(this.path("/dev")) };
        return;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    this.close();
    throw new Error("the warm sandbox did not start");
  }

  private findInit(root: number, own: string | null): number | undefined {
    const queue = [root];
    while (queue.length > 0) {
      const pid = queue.shift()!;
      const ns = linkOf(`/proc/${pid}/ns/user`);
      if (ns !== null && ns !== own) return pid;
      queue.push(...children(pid));
    }
    return undefined;
  }

  /** A path inside the sandbox, seen from the host (through the holder's root). */
  private path(inside: string): string {
    return `/proc/${this.target}/root${inside}`;
  }

  /** The argv and environment that run `argv` in this sandbox, in `cwd` (a path the sandbox shows as on the host). */
  command(argv: readonly string[], cwd: string, env: Record<string, string>) {
    const euid = process.geteuid?.() ?? 1;
    const runEnv: Record<string, string> = { ...env };
    for (const name of this.unsetEnv) delete runEnv[name];
    Object.assign(runEnv, this.setEnv, {
      // As the sandboxed command's own shell had them: /tmp is the private one, PWD where it runs.
      TMPDIR: "/tmp",
      PWD: cwd,
      // What the runtime puts before the seccomp helper: it may not create user namespaces of its own.
      SRT_ALLOW_NESTED_USERNS: "0",
    });
    return {
      // The names the holder's forwarders serve go straight to them, as in a fresh sandbox: asked of the
      // proxy, a name of this machine is not on its list (only 127.0.0.1:<port> is) and would get a 403.
      env: withForwardNames(runEnv, this.plan.forwards ?? []),
      argv: [
        "nsenter",
        `--target=${this.target}`,
        "--user",
        "--mount",
        "--net",
        "--pid",
        "--preserve-credentials",
        "--root",
        `--wdns=${cwd}`,
        "--",
        "setpriv",
        "--no-new-privs",
        "--inh-caps=-all",
        // bubblewrap's --cap-drop ALL, keeping CAP_SETFCAP for a uid-0 caller as the runtime does for the helper.
        `--bounding-set=-all${euid === 0 ? ",+setfcap" : ""}`,
        "--",
        seccompHelperPath()!,
        ...argv,
      ],
    };
  }

  /**
   * After a command: /tmp and /dev/shm back to what the sandbox started with.
   * Its processes are gone by now (the seccomp helper's PID namespace ends with
   * the command). False (and the sandbox closed) when that cannot be done.
   */
  recycle(): boolean {
    if (this.dead) return false;
    try {
      const tmp = this.path("/tmp");
      const now = tree(tmp);
      for (const [path, kind] of [...now].reverse()) {
        const was = this.baseline.tmp.get(path);
        if (was === undefined) rmSync(join(tmp, path), { recursive: true, force: true });
        else if (was !== kind) throw new Error(`/tmp/${path} changed`);
      }
      for (const name of readdirSync(this.path("/dev/shm"))) {
        rmSync(join(this.path("/dev/shm"), name), { recursive: true, force: true });
      }
      const dev = tree(this.path("/dev"));
      const same = (a: Map<string, string>, b: Map<string, string>) =>
        a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
      if (!same(tree(tmp), this.baseline.tmp) || !same(dev, this.baseline.dev)) throw new Error("not restored");
      this.lastUsed = Date.now();
      return true;
    } catch {
      this.close();
      return false;
    }
  }

  close(): void {
    if (this.dead) return;
    this.dead = true;
    const holder = this.holder;
    if (holder && holder.exitCode === null && holder.signalCode === null) {
      holder.stdin?.end();
      // The holder ends on end of input; its group goes if it does not.
      setTimeout(() => {
        try {
          if (holder.pid !== undefined) process.kill(-holder.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, 2000).unref();
      holder.once("exit", () => this.release?.());
    } else this.release?.();
  }
}
