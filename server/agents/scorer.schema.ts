import { z } from "zod";
import { processFields } from "./command.schema";
import { modelFields } from "./llm.schema";
import { runnerIds } from "./test-runners/runners";

const nameField = (fallback: string) =>
  z.string().min(1).max(64).default(fallback).describe("Name shown in charts, reports and feedback");

/** Pure checks can also gate completion as validators (their errors feed the next input). */
const roleField = (fallback: "score" | "both") =>
  z
    .enum(["score", "validate", "both"])
    .default(fallback)
    .describe("Use as a score, as a validator (pass/fail with errors), or both");

const relativePath = z
  .string()
  .refine((p) => !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "must be a path inside the workspace");

export const keywordScorerSchema = z
  .object({
    kind: z.literal("keyword"),
    name: nameField("keywords"),
    keywords: z.array(z.string().min(1)).min(1).describe("Terms the output should contain"),
    caseSensitive: z.boolean().default(false).describe("Match case"),
    wholeWord: z.boolean().default(true).describe("Match whole words only"),
    role: roleField("score"),
  })
  .describe("Keywords: share of the terms present (correctness)");

export const lengthScorerSchema = z
  .object({
    kind: z.literal("length"),
    name: nameField("length"),
    unit: z.enum(["chars", "words"]).default("chars").describe("Count characters or words"),
    min: z.number().int().min(0).default(0).describe("Minimum"),
    max: z.number().int().min(1).optional().describe("Maximum (empty = none)"),
    role: roleField("score"),
  })
  .refine((c) => c.max === undefined || c.max >= c.min, { message: "must be >= min", path: ["max"] })
  .describe("Length: full score inside the range, proportionally less outside");

export const regexScorerSchema = z
  .object({
    kind: z.literal("regex"),
    name: nameField("regex"),
    pattern: z.string().min(1).describe("Regular expression (JavaScript syntax)"),
    flags: z
      .string()
      .regex(/^[imsu]*$/, "only i, m, s and u are allowed")
      .default("")
      .describe("Flags"),
    expect: z
      .enum(["match", "no-match"])
      .default("match")
      .describe("Pass when the output matches, or when it does not"),
    minMatches: z.number().int().min(1).default(1).describe("Matches needed to pass"),
    role: roleField("score"),
  })
  .refine(
    (c) => {
      try {
        new RegExp(c.pattern, c.flags);
        return true;
      } catch {
        return false;
      }
    },
    { message: "is not a valid regular expression", path: ["pattern"] },
  )
  .describe("Regex: pass/fail on a pattern");

export const jsonSchemaScorerSchema = z
  .object({
    kind: z.literal("json-schema"),
    name: nameField("json"),
    required: z
      .array(z.string().min(1))
      .default([])
      .describe('Fields that must be present, as dot paths ("result.files")'),
    schema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema the structured output must satisfy"),
    role: roleField("both"),
  })
  .refine((c) => c.required.length > 0 || c.schema !== undefined, {
    message: "name required fields or give a schema",
    path: ["required"],
  })
  .describe("JSON schema / required fields of the structured output");

export const toolCallsScorerSchema = z
  .object({
    kind: z.literal("tool-calls"),
    name: nameField("tools"),
    minCount: z.number().int().min(0).default(0).describe("Minimum tool calls"),
    required: z.array(z.string().min(1)).default([]).describe("Tools that must be called"),
    counted: z
      .array(z.string().min(1))
      .default([])
      .describe("Tools that count towards the counted minimum (any of them)"),
    minCounted: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Minimum calls to the counted tools (default 1 when any are listed)"),
    role: roleField("both"),
  })
  .describe("Tool calls: minimum count, required tools, counted tools");

export const testReportFormats = ["auto", "tap", "junit", "json", "exit-code"] as const;
export const checkRunners = ["auto", "none", ...runnerIds] as const;

export const commandCheckScorerSchema = z
  .object({
    kind: z.literal("command-check"),
    name: nameField("tests"),
    argv: z.array(z.string().min(1)).min(1).describe("Command and arguments, run in the workspace without a shell"),
    format: z
      .enum(testReportFormats)
      .default("auto")
      .describe(
        "Test report format (auto: the runner's report, else TAP, JUnit XML, JSON or a summary line, else the exit code)",
      ),
    runner: z
      .enum(checkRunners)
      .default("auto")
      .describe(
        "Test runner (auto: detect it from the command and the project and ask it for a report file; none: read the output as it is)",
      ),
    reportFile: relativePath.optional().describe("Read the report from this file instead of stdout (e.g. junit.xml)"),
    heldOut: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "a folder or .patch file name under the server's held-out folder")
      .optional()
      .describe(
        "Held-out tests: a folder (copied over the tree) or a .patch file (applied) in RALPH_DATA_DIR/held-out, brought in only for grading and never visible to the agent; missing at grading time fails the check",
      ),
    ...processFields,
    timeoutSeconds: z.number().min(0).default(600).describe("Kill the check after (seconds, 0 = never)"),
  })
  .describe("Command check: pass ratio of the project's tests (ground-truth evidence)");

export const llmJudgeScorerSchema = z
  .object({
    kind: z.literal("llm-judge"),
    name: nameField("judge"),
    ...modelFields,
    rubric: z.string().min(1).describe("What a good answer looks like; the judge scores 0..1 against it"),
    maxOutputChars: z
      .number()
      .int()
      .min(100)
      .max(200_000)
      .default(8000)
      .describe("Output characters shown to the judge"),
  })
  .refine((c) => c.provider !== "openai-compatible" || !!c.baseURL, {
    message: "an OpenAI-compatible server needs its base URL",
    path: ["baseURL"],
  })
  .describe("LLM judge: a rubric score with a rationale");

export const scorerConfigSchema = z.discriminatedUnion("kind", [
  keywordScorerSchema,
  lengthScorerSchema,
  regexScorerSchema,
  jsonSchemaScorerSchema,
  toolCallsScorerSchema,
  commandCheckScorerSchema,
  llmJudgeScorerSchema,
]);

export type ScorerConfig = z.output<typeof scorerConfigSchema>;
export type ScorerConfigInput = z.input<typeof scorerConfigSchema>;
export type KeywordScorerConfig = z.output<typeof keywordScorerSchema>;
export type LengthScorerConfig = z.output<typeof lengthScorerSchema>;
export type RegexScorerConfig = z.output<typeof regexScorerSchema>;
export type JsonSchemaScorerConfig = z.output<typeof jsonSchemaScorerSchema>;
export type ToolCallsScorerConfig = z.output<typeof toolCallsScorerSchema>;
export type CommandCheckScorerConfig = z.output<typeof commandCheckScorerSchema>;
export type LlmJudgeScorerConfig = z.output<typeof llmJudgeScorerSchema>;
