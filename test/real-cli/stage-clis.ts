// The real agent CLIs from the pinned devDependencies, staged where a sandboxed
// agent can run them. Inside the sandbox the app folder (this checkout, with its
// node_modules) is hidden and /tmp is private, so node_modules/.bin/claude is
// not there for the agent; CI may even clone under /tmp. The native binaries are
// linked (copied across file systems) once into ~/.cache, outside both.
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const pkgDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const version = (name: string) =>
  (JSON.parse(readFileSync(join(pkgDir(name), "package.json"), "utf8")) as { version: string }).version;

export const CLAUDE_VERSION = version("@anthropic-ai/claude-code");
export const CODEX_VERSION = version("@openai/codex");

export function linkOrCopy(from: string, to: string) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** A folder outside /tmp and the checkout holding `claude` and `codex` (native binaries); put it first on PATH. */
export function stagedCliDir(): string {
  const root = join(homedir(), ".cache", "ralph-control-test-clis", `claude-${CLAUDE_VERSION}-codex-${CODEX_VERSION}`);
  const bin = join(root, "bin");
  if (existsSync(join(bin, "claude")) && existsSync(join(bin, "codex"))) return bin;
  const building = `${root}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, "bin"), { recursive: true });
  linkOrCopy(join(pkgDir("@anthropic-ai/claude-code-linux-x64"), "claude"), join(building, "bin", "claude"));
  // Codex's platform package: the native binary with its helpers (rg) beside it.
  const vendor = join(pkgDir("@openai/codex-linux-x64"), "vendor", "x86_64-unknown-linux-musl");
  cpSync(vendor, join(building, "codex"), { recursive: true });
  symlinkSync(join(root, "codex", "bin", "codex"), join(building, "bin", "codex"));
  rmSync(root, { recursive: true, force: true });
  renameSync(building, root);
  return bin;
}
