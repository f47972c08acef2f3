// One line per tool call: what a reader needs to follow the agent
// (`Bash: npm test`, `Edit: src/sum.js`), never the whole input.
import { CAPS } from "./types";
import { obj, oneLine, plural, relPath, str, type Json } from "./text";

const FILE_TOOLS = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead"]);

/** The one-line summary of a Claude Code tool call's input. */
export function claudeToolSummary(name: string, input: unknown, cwd: string | null): string {
  const i = obj(input) ?? {};
  const line = (s: string | undefined) => oneLine(s ?? "", CAPS.summary);
  if (name === "Bash") return line(str(i.command));
  const file = str(i.file_path) ?? str(i.notebook_path);
  if (FILE_TOOLS.has(name) && file) return line(relPath(file, cwd));
  if (name === "Glob" || name === "Grep") {
    const where = str(i.path);
    return line(`${str(i.pattern) ?? ""}${where ? ` in ${relPath(where, cwd)}` : ""}`);
  }
  if (name === "WebFetch") return line(str(i.url));
  if (name === "WebSearch") return line(str(i.query));
  if (name === "Task" || name === "Agent") return line(str(i.description) ?? str(i.prompt));
  if (name === "TodoWrite" && Array.isArray(i.todos)) return plural(i.todos.length, "item");
  if (name === "AskUserQuestion") return line(questionText(i));
  return line(firstString(i));
}

function questionText(i: Json): string | undefined {
  const q = Array.isArray(i.questions) ? obj(i.questions[0]) : undefined;
  return str(q?.question) ?? str(i.question);
}

/** The first string field of an unknown tool's input, else its JSON. */
function firstString(i: Json): string {
  for (const v of Object.values(i)) if (typeof v === "string" && v.trim()) return v;
  const json = JSON.stringify(i);
  return json === "{}" ? "" : json;
}

/** Codex's file_change: the file when there is one, else how many. */
export function fileChangeSummary(changes: unknown, cwd: string | null): string {
  const list = Array.isArray(changes) ? changes.map(obj).filter((c): c is Json => !!c) : [];
  const [only] = list;
  if (list.length === 1 && only) return oneLine(relPath(str(only.path) ?? "", cwd), CAPS.summary);
  return plural(list.length, "file");
}
