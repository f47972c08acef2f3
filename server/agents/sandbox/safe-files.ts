/**
 * The server's own reads and writes of files an agent can reach (the prompt
 * file in its workspace, a test report in its HOME). The agent may have
 * replaced the file, or a folder on the way, with a symlink to a file of the
 * server's (the database, the secret key): these never follow one out of the
 * folder they are meant for, and never open anything but a regular file.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, sep } from "node:path";
import { physicalPath } from "./workspace-guard";

const within = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Throws unless `path`'s folder, resolved through every symlink, is inside `dir`. */
function assertFolderInside(path: string, dir: string): void {
  const folder = physicalPath(dirname(path));
  if (!within(folder, physicalPath(dir))) {
    throw new Error(`${path} leads out of ${dir} (to ${folder}); refusing to follow it`);
  }
}

/** Writes `content` to `path` inside `dir`: a symlink (or anything else) in its place is removed first, never followed. */
export function writeFileInside(dir: string, path: string, content: string): void {
  assertFolderInside(path, dir);
  mkdirSync(dirname(path), { recursive: true });
  assertFolderInside(path, dir);
  try {
    if (!lstatSync(path).isFile()) rmSync(path, { recursive: true, force: true });
    else rmSync(path, { force: true });
  } catch {
    // absent
  }
  // O_CREAT|O_EXCL: fails rather than follow a link that appeared after the removal.
  writeFileSync(path, content, { flag: "wx" });
}

/** The text of the regular file `path` inside `dir`, or null (missing, a symlink, not a regular file, or out of `dir`). */
export function readFileInside(dir: string, path: string): string | null {
  let fd: number;
  try {
    assertFolderInside(path, dir);
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    // A FIFO or a device would block or never end: only a regular file is read.
    return fstatSync(fd).isFile() ? readFileSync(fd, "utf8") : null;
  } finally {
    closeSync(fd);
  }
}
