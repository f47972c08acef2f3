/**
 * Held-out tests: files the agent never sees, kept on the server under
 * RALPH_DATA_DIR/held-out (hidden from every sandbox), brought into the
 * grading tree only, after the reset, for the baseline run and each graded
 * run. A folder is copied over the tree; a `.patch` file is applied. Missing
 * at grading time is an error the check reports as a failure (fails closed).
 */
import { cpSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { git } from "../git/git-cli";

export class HeldOutMissingError extends Error {
  constructor(readonly path: string) {
    super(`the held-out check's files are missing at grading time (${path}): the check fails closed`);
    this.name = "HeldOutMissingError";
  }
}

export async function applyHeldOut(tree: string, root: string | undefined, name: string): Promise<string[]> {
  const path = root ? join(root, name) : name;
  if (!root || !existsSync(path)) throw new HeldOutMissingError(path);
  if (statSync(path).isDirectory()) {
    cpSync(path, tree, { recursive: true, force: true });
    return [path];
  }
  if (!name.endsWith(".patch")) throw new HeldOutMissingError(path);
  await git(tree, ["apply", "--whitespace=nowarn", path]);
  return [path];
}
