/**
 * package.json is protected by field, not whole: an agent may add a
 * dependency, but the fields that decide what the tests run (`scripts`, the
 * runners' own config blocks, the module type) come from the base commit.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { git } from "../git/git-cli";

const TEST_FIELDS = ["scripts", "type", "jest", "mocha", "ava", "c8", "nyc", "vitest"];

type Json = Record<string, unknown>;

const parse = (text: string): Json | null => {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
};

/**
 * For a modified package.json in the grading tree: puts the base commit's test fields into the snapshot's file.
 * Returns the test fields the agent changed (empty: an allowed change), or null when the file is not a
 * package.json both sides can read (then the whole file is restored as any protected file).
 */
export async function mergePackageTestFields(dir: string, baselineSha: string, path: string): Promise<string[] | null> {
  if (basename(path) !== "package.json") return null;
  const base = parse(await git(dir, ["show", `${baselineSha}:${path}`], { allowFail: true }));
  let snap: Json | null = null;
  try {
    snap = parse(readFileSync(join(dir, path), "utf8"));
  } catch {
    return null;
  }
  if (!base || !snap) return null;
  const changed = TEST_FIELDS.filter((f) => JSON.stringify(base[f]) !== JSON.stringify(snap[f]));
  const merged: Json = { ...snap };
  for (const f of TEST_FIELDS) {
    if (f in base) merged[f] = base[f];
    else delete merged[f];
  }
  writeFileSync(join(dir, path), `${JSON.stringify(merged, null, 2)}\n`);
  return changed;
}
