/**
 * JUnit / xUnit XML through a real XML parser (fast-xml-parser): vitest,
 * pytest --junitxml, mocha xunit, node --test-reporter=junit (which writes
 * <testsuites> with bare <testcase>s and raw ">" in attributes), jest-junit,
 * go-junit-report. Suites may nest; each <testcase> is one test.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { FailingTest } from "../../engine";
import { firstLines, projectPath, ReportBuilder, type ParsedReport } from "./report";

type Node = Record<string, unknown>;

const ARRAYS = new Set(["testsuites", "testsuite", "testcase", "failure", "error", "skipped"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Numeric references (&#xFC;) as mocha writes them; the option is deprecated but exact.
  htmlEntities: true,
  isArray: (name) => ARRAYS.has(name),
});

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : []);
const text = (n: Node | string | undefined) => (typeof n === "string" ? n : (str(n?.["#text"]) ?? ""));

/** The XML part of a text that may carry log lines before or after it. */
function xmlPart(raw: string): string | null {
  const start = raw.search(/<\?xml|<testsuites[\s>]|<testsuite[\s>]/);
  if (start === -1) return null;
  const ends = [...raw.matchAll(/<\/testsuites>|<\/testsuite>|<testsuites[^<]*\/>|<testsuite[^<]*\/>/g)];
  const last = ends.at(-1);
  return last ? raw.slice(start, last.index + last[0].length) : raw.slice(start);
}

/**
 * Node's junit reporter escapes `"` in message attributes twice (`&amp;quot;`).
 * Undo that only when the failure's body proves the result is the real text.
 */
function unescapeQuotes(message: string, body: string): string {
  if (!message.includes("&quot;")) return message;
  const once = message.replaceAll("&quot;", '"');
  return body.includes(once) ? once : message;
}

function failureOf(problem: Node | string): string | undefined {
  const body = text(problem);
  const attr = typeof problem === "string" ? undefined : str(problem["@_message"]);
  const message = attr ? unescapeQuotes(attr, body) : undefined;
  return firstLines(message) ?? firstLines(body);
}

const looksLikeFile = (s: string | undefined) => !!s && /[/\\]|\.(m?[jt]sx?|py|go|rs|rb|java|kt|cs)$/.test(s);

function caseName(tc: Node, suites: string[]): { name: string; file?: string } {
  const name = str(tc["@_name"]) ?? "(unnamed test)";
  const classname = str(tc["@_classname"]);
  const fileAttr = str(tc["@_file"]);
  const file = fileAttr ?? (looksLikeFile(classname) ? classname : undefined);
  const context = suites.filter((s) => s !== classname && s !== file);
  const useClass = classname && classname !== "test" && classname !== file && !looksLikeFile(classname);
  const parts = [...context, ...(useClass && !context.includes(classname) ? [classname] : []), name];
  return { name: parts.join(" > "), ...(file ? { file } : {}) };
}

interface Walk {
  b: ReportBuilder;
  cases: number;
  cwd: string | undefined;
}

function walkCases(node: Node, suites: string[], w: Walk) {
  for (const tc of list(node.testcase)) {
    w.cases++;
    const { name, file } = caseName(tc, suites);
    const failures = list(tc.failure);
    const problems = [...failures, ...list(tc.error)];
    const id = `${projectPath(file, w.cwd) ?? str(tc["@_classname"]) ?? ""}::${name}`;
    w.b.outcome(
      id,
      problems.length > 0
        ? failures.length > 0
          ? "failed"
          : "errored"
        : tc.skipped !== undefined
          ? "skipped"
          : "passed",
    );
    if (problems.length > 0) {
      const test: FailingTest = { name };
      const where = projectPath(file, w.cwd);
      if (where) test.file = where;
      const message = failureOf(problems[0]!) ?? firstLines(str(tc["@_failure"]));
      if (message) test.message = message;
      // <error> alone: the test could not run (a collection or setup error), rather than failed.
      if (failures.length > 0) w.b.fail(test);
      else w.b.error(test);
    } else if (tc.skipped !== undefined) w.b.skip();
    else w.b.pass();
  }
}

function walkSuites(node: Node, suites: string[], w: Walk) {
  walkCases(node, suites, w);
  for (const child of [...list(node.testsuite), ...list(node.testsuites)]) {
    const name = str(child["@_name"]);
    walkSuites(child, name ? [...suites, name] : suites, w);
  }
}

/** Suites at the top, whether or not a <testsuites> wraps them; their cases walked too. */
function walkTop(doc: Node, w: Walk) {
  const wrappers = list(doc.testsuites);
  for (const wrapper of wrappers) walkCases(wrapper, [], w);
  const top = [...list(doc.testsuite), ...wrappers.flatMap((x) => list(x.testsuite))];
  // One outer suite is a wrapper ("pytest", "Mocha Tests", the only file), not context worth repeating.
  const named = top.length > 1;
  for (const suite of top) {
    const name = str(suite["@_name"]);
    walkSuites(suite, named && name ? [name] : [], w);
  }
}

/** Totals from suite attributes, for reports that list no test cases. */
function suiteTotals(node: Node, b: ReportBuilder) {
  for (const suite of list(node.testsuite)) {
    const n = (k: string) => Number(str(suite[`@_${k}`]) ?? 0) || 0;
    const bad = n("failures") + n("errors");
    const skipped = n("skipped") + n("disabled");
    b.skip(skipped);
    b.pass(Math.max(0, n("tests") - bad - skipped));
    b.failed += bad;
    suiteTotals(suite, b);
  }
  for (const inner of list(node.testsuites)) suiteTotals(inner, b);
}

export function parseJunit(raw: string, cwd?: string): ParsedReport | null {
  const xml = xmlPart(raw);
  if (xml === null) return null;
  const b = new ReportBuilder();
  if (XMLValidator.validate(xml) !== true) {
    b.warn("the JUnit XML is incomplete or malformed");
    return b.build("junit", false);
  }
  const doc = parser.parse(xml) as Node;
  const w: Walk = { b, cases: 0, cwd };
  walkTop(doc, w);
  if (w.cases === 0) suiteTotals({ testsuite: [...list(doc.testsuite), ...list(doc.testsuites)] }, b);
  return b.build("junit", true);
}
