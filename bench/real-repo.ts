// A repository shaped like a real project, for the snapshot and worktree
// figures (issue 29): `files` tracked files in deep folders (packages/<pkg>/<a>/<b>/…),
// mixed sizes (most a few KB, some tens of KB, a few hundred KB), a committed
// history, and a large untracked, gitignored node_modules-like folder that a
// scan must not walk. Deterministic: the same seed gives the same tree.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A small deterministic PRNG (mulberry32): the same repository on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXT = [".ts", ".ts", ".ts", ".tsx", ".js", ".json", ".md", ".css", ".py", ".go"];

function body(bytes: number, i: number): string {
  const line = `export const value${i} = ${JSON.stringify("x".repeat(40))}; // filler line\n`;
  return line.repeat(Math.max(1, Math.ceil(bytes / line.length)));
}

export interface RealRepo {
  dir: string;
  /** Tracked file paths, relative. */
  tracked: string[];
}

/** Writes the repository into `dir` (created) and commits it. */
export function makeRealShapedRepo(
  dir: string,
  opts: { files?: number; ignoredFiles?: number; seed?: number; folders?: number } = {},
): RealRepo {
  const files = opts.files ?? 10_000;
  const ignored = opts.ignoredFiles ?? 20_000;
  const rand = prng(opts.seed ?? 29);
  mkdirSync(dir, { recursive: true });
  const tracked: string[] = [];
  const made = new Set<string>();
  const write = (rel: string, text: string) => {
    const full = join(dir, rel);
    const parent = dirname(full);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(full, text);
  };
  // The folders first, depth 2-7 under a package folder, then the files spread over them: about 12 files a
  // folder on average, as in real projects (this repository has 9, the `next` package 13). Picking a
  // fresh random path per file instead gave 7,300 folders for 10,000 files, a tree no project has, whose
  // folder count (status stats every folder) rather than its file count set the figures.
  const folderCount = opts.folders ?? Math.ceil(files / 12);
  const folders = Array.from({ length: folderCount }, () => {
    const depth = 2 + Math.floor(rand() * 6);
    const parts = [`packages`, `pkg${Math.floor(rand() * 12)}`];
    for (let d = 2; d < depth; d++) parts.push(`mod${Math.floor(rand() * 6)}`);
    return parts;
  });
  for (let i = 0; i < files; i++) {
    const parts = folders[Math.floor(rand() * folderCount)]!;
    const r = rand();
    const size = r < 0.7 ? 200 + rand() * 3000 : r < 0.97 ? 4000 + rand() * 40_000 : 100_000 + rand() * 300_000;
    const rel = `${parts.join("/")}/file${i}${EXT[i % EXT.length]}`;
    write(rel, body(size, i));
    tracked.push(rel);
  }
  write(".gitignore", "node_modules/\ndist/\n*.log\n");
  write("package.json", JSON.stringify({ name: "real-shaped", version: "1.0.0" }, null, 2));
  tracked.push(".gitignore", "package.json");
  // The dependency folder: many small files in nested packages, never tracked.
  for (let i = 0; i < ignored; i++) {
    const pkg = `node_modules/dep${i % 400}/lib/sub${i % 7}`;
    write(`${pkg}/f${i}.js`, `module.exports = ${i};\n`);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  // Packed, as a clone or a gc leaves a real repository; and no `gc --auto` left running in the background of the figures.
  git("-c", "gc.auto=0", "commit", "-q", "-m", "initial import");
  git("repack", "-a", "-d", "-q");
  return { dir, tracked };
}
