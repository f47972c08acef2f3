/**
 * A grading tree's copy of a dependency folder (node_modules from the user's checkout or from the setup
 * command's copy, a .venv). It is made once per tree and kept across iterations: a full copy of a real
 * node_modules costs seconds each time on ext4, which has no reflinks. But the check runs code the agent
 * wrote in that tree, and that code can write into the copy (prepend "strictEqual = () => {}" to mocha's
 * CLI) so the next iteration's run passes everything. So the copy is fingerprinted when it is made and again
 * before each use, and a copy that changed in any way is made again from its pristine source.
 *
 * The fingerprint takes each entry's path, size, mode, inode, mtime and ctime. The ctime is the part a
 * process cannot put back: any write, rename or chmod sets it to now, and only root can change the clock.
 */
import { createHash } from "node:crypto";
import { constants, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { cp } from "node:fs/promises";
import { dirname, join } from "node:path";

// In memory: a restarted server (or another worker) has no fingerprint and copies again, the safe side.
const fingerprints = new Map<string, string>();

/** Makes `to` an unchanged copy of `from`; returns whether it copied (false: the kept copy was intact). */
export async function freshDependencyCopy(from: string, to: string): Promise<boolean> {
  if (isLink(to)) rmSync(to, { force: true });
  if (existsSync(to)) {
    const known = fingerprints.get(to);
    if (known !== undefined && known === fingerprint(to)) return false;
    rmSync(to, { recursive: true, force: true });
  }
  await copyIn(from, to);
  fingerprints.set(to, fingerprint(to));
  return true;
}

/** A hash over every entry below `root` (links not followed): what changed, not only what was added. */
function fingerprint(root: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path, { bigint: true });
      hash.update(`${rel}${name}\0${st.mode}\0${st.size}\0${st.ino}\0${st.mtimeNs}\0${st.ctimeNs}\0`);
      if (st.isSymbolicLink()) hash.update(`${readlinkSync(path)}\0`);
      else if (st.isDirectory()) walk(path, `${rel}${name}/`);
    }
  };
  const top = lstatSync(root, { bigint: true });
  hash.update(`${top.mode}\0${top.ino}\0${top.ctimeNs}\0`);
  if (top.isDirectory()) walk(root, "");
  return hash.digest("hex");
}

/** A copy-on-write clone where the filesystem has them, a plain copy otherwise; made whole or not at all. */
async function copyIn(from: string, to: string): Promise<void> {
  const partial = `${to}.ralph-partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  // Relative links inside (node_modules/.bin) stay relative, so they point into the copy.
  await cp(from, partial, { recursive: true, verbatimSymlinks: true, mode: constants.COPYFILE_FICLONE });
  renameSync(partial, to);
}

export function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
