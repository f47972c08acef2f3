/**
 * Toolchains that live in the server user's HOME (rustup, pyenv, nvm, asdf,
 * Go's module cache) find themselves through that HOME. A sandboxed process
 * gets the loop's own HOME instead, so `cargo test` answered "could not
 * choose a version of cargo". Each toolchain has a variable naming its home:
 * set it to the server user's, which the sandbox shows read-only (only the
 * credential stores are hidden). What they write (cargo's registry cache,
 * Go's module cache, pip's cache) still goes to the loop's writable HOME.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface ToolchainHome {
  toolchain: "rustup" | "pyenv" | "nvm" | "asdf" | "go";
  variable: string;
  value: string;
}

/** The toolchains installed under `home`, and the variable each needs inside the sandbox. */
export function toolchainHomes(home = homedir()): ToolchainHome[] {
  const found: ToolchainHome[] = [];
  const at = (path: string) => (existsSync(join(home, path)) ? join(home, path) : null);
  const rustup = at(".rustup");
  if (rustup) found.push({ toolchain: "rustup", variable: "RUSTUP_HOME", value: rustup });
  const pyenv = at(".pyenv");
  if (pyenv) found.push({ toolchain: "pyenv", variable: "PYENV_ROOT", value: pyenv });
  const nvm = at(".nvm");
  if (nvm) found.push({ toolchain: "nvm", variable: "NVM_DIR", value: nvm });
  const asdf = at(".asdf");
  if (asdf) {
    found.push({ toolchain: "asdf", variable: "ASDF_DIR", value: asdf });
    found.push({ toolchain: "asdf", variable: "ASDF_DATA_DIR", value: asdf });
  }
  // Go's downloaded modules, read as a file proxy: the loop's own module cache fills from it
  // (read-only, it could not be the cache itself), then from the network.
  const goCache = at("go/pkg/mod/cache/download");
  if (goCache)
    found.push({ toolchain: "go", variable: "GOPROXY", value: `file://${goCache},https://proxy.golang.org` });
  return found;
}

/** The variables to add to a sandboxed process's environment; what it was given explicitly wins. */
export function toolchainEnv(given: Readonly<Record<string, string>>, home = homedir()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of toolchainHomes(home)) if (given[t.variable] === undefined) out[t.variable] = t.value;
  return out;
}
