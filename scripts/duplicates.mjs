// Lists duplicated code in the source files only (`npm run duplicates`), so the count
// is the one the clean-up target speaks of: tests, e2e, test helpers, fixtures,
// migrations and the bench are left out. It copies the tracked source files into a
// temporary folder and runs the `duplicates` command there (it must be on PATH).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const EXCLUDED = [/\.test\.tsx?$/, /^e2e\//, /(^|\/)test\//, /(^|\/)fixtures\//, /(^|\/)migrations\//, /^bench\//];

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => file && !EXCLUDED.some((pattern) => pattern.test(file)));

const copy = mkdtempSync(join(tmpdir(), "ralph-duplicates-"));
try {
  for (const file of files) {
    mkdirSync(join(copy, dirname(file)), { recursive: true });
    cpSync(file, join(copy, file));
  }
  const args = ["--repo", copy, "--most", "200", "--seconds", "120", ...process.argv.slice(2)];
  process.stdout.write(execFileSync("duplicates", args, { encoding: "utf8" }));
} finally {
  rmSync(copy, { recursive: true, force: true });
}
