// Paths of the server's own machine (its data folder, where agents' homes and
// worktrees live, and the app's folder) inside text a shared page shows: an
// agent prints `home=/srv/ralph/data/agent-homes/…` and the report published
// it. Each becomes "[server path]", the rest of the path kept.
import { resolve } from "node:path";
import { getEnv } from "../env";
import { appDir } from "../app-dir";

export const SERVER_PATH = "[server path]";

/** Folders worth hiding: absolute, at least two levels deep (never "/" or "/home"), longest first. */
export function serverPathsToHide(candidates: readonly string[]): string[] {
  const deep = candidates
    .map((p) => p.replace(/\/+$/, ""))
    .filter((p) => p.startsWith("/") && p.split("/").filter(Boolean).length >= 2);
  return [...new Set(deep)].sort((a, b) => b.length - a.length);
}

/** `value` with every occurrence of `paths` in its strings replaced (deep, through arrays and plain objects). */
export function redactServerPaths<T>(value: T, paths: readonly string[]): T {
  if (typeof value === "string") {
    return paths.reduce<string>((text, p) => text.split(p).join(SERVER_PATH), value) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => redactServerPaths(v, paths)) as T;
  if (value instanceof Date || typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactServerPaths(v, paths)])) as T;
}

/** This server's folders: its data folder and the app's own. */
export const thisServersPaths = () => serverPathsToHide([resolve(getEnv().RALPH_DATA_DIR), appDir()]);
