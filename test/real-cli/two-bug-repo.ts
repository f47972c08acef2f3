// A small project with two bugs and a real test runner (node --test), and the
// model scripts that fix it the way an agent would, through each CLI's own
// tools: look, edit (Claude Code's Read + Edit; Codex's apply_patch), run the
// tests, answer. Each iteration fixes the first bug still there, so the loop
// completes at iteration 2 on the tests' evidence.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Conversation, Turn } from "../model-server/model-server";

const SOURCE = `export function add(a, b) {
  return a - b; // add
}

export function twice(a) {
  return a + a + 1; // twice
}
`;
// Each bug and its fix, as the scripts spell the edit.
export const FIXES = [
  { before: "  return a - b; // add", after: "  return a + b; // add" },
  { before: "  return a + a + 1; // twice", after: "  return a + a; // twice" },
];

export function createTwoBugRepo(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "test"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "two-bugs", private: true, type: "module", scripts: { test: "node --test" } }, null, 2),
  );
  writeFileSync(join(dir, "src", "math.js"), SOURCE);
  writeFileSync(
    join(dir, "test", "math.test.js"),
    `import { test } from "node:test";
import assert from "node:assert/strict";
import { add, twice } from "../src/math.js";

test("add adds", () => assert.equal(add(2, 3), 5));
test("twice doubles", () => assert.equal(twice(4), 8));
`,
  );
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A");
  git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "two bugs");
  return dir;
}

const bugIn = (source: string) => FIXES.findIndex((f) => source.includes(f.before));
const results = (c: Conversation) => c.toolResults.map((r) => r.output);

/** Claude Code: Bash to look, Read then Edit (its rule: read before edit), Bash to test, then answer. */
export function claudeFixer(c: Conversation): Turn {
  const out = results(c);
  if (out.length === 0)
    return {
      text: "Let me look at the code.",
      toolCalls: [{ name: "Bash", input: { command: "pwd && cat src/math.js", description: "Show the source" } }],
    };
  const [pwd = "", ...rest] = out[0]!.split("\n");
  const file = `${pwd.trim()}/src/math.js`;
  const bug = bugIn(rest.join("\n"));
  if (out.length === 1) return { text: "Reading it.", toolCalls: [{ name: "Read", input: { file_path: file } }] };
  if (out.length === 2 && bug >= 0)
    return {
      text: `Fixing bug ${bug + 1}.`,
      toolCalls: [
        { name: "Edit", input: { file_path: file, old_string: FIXES[bug]!.before, new_string: FIXES[bug]!.after } },
      ],
    };
  if (out.length <= 3)
    return {
      text: "Running the tests.",
      toolCalls: [{ name: "Bash", input: { command: "npm test", description: "Run the tests" } }],
    };
  const left = FIXES.filter((f, i) => i > bug && rest.join("\n").includes(f.before)).length;
  return {
    text:
      left === 0
        ? `Fixed the last bug; the tests pass. <promise>COMPLETE</promise>`
        : `Fixed bug ${bug + 1}; ${left} left.`,
  };
}

/** Codex: exec_command to look, apply_patch (freeform) to edit, exec_command to test, then answer. */
export function codexFixer(c: Conversation): Turn {
  const out = results(c);
  if (out.length === 0)
    return { text: "Looking at the code.", toolCalls: [{ name: "exec_command", input: { cmd: "cat src/math.js" } }] };
  const source = out[0]!;
  const bug = bugIn(source);
  if (out.length === 1 && bug >= 0) {
    const patch = `*** Begin Patch\n*** Update File: src/math.js\n@@\n-${FIXES[bug]!.before}\n+${FIXES[bug]!.after}\n*** End Patch\n`;
    return { text: `Fixing bug ${bug + 1}.`, toolCalls: [{ name: "apply_patch", input: patch }] };
  }
  if (out.length <= 2)
    return { text: "Running the tests.", toolCalls: [{ name: "exec_command", input: { cmd: "npm test" } }] };
  const left = FIXES.filter((f, i) => i > bug && source.includes(f.before)).length;
  return {
    text:
      left === 0
        ? `Fixed the last bug; the tests pass. <promise>COMPLETE</promise>`
        : `Fixed bug ${bug + 1}; ${left} left.`,
  };
}
