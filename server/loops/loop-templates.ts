// Starting points for the New-loop form. Each is a complete definition that
// validates as is; operators pick one and adjust. The demo needs no keys and
// paces itself (~2.5 s per iteration, a dozen or more iterations) so its
// charts fill in live and a newcomer has time to try Interrupt and Nudge.
import { inputSections } from "../engine";
import { DEFAULT_DEMO_GOAL, demoLoopPreset } from "../agents/demo.preset";
import type { ScorerConfigInput } from "../agents/scorer.schema";
import { loopDefinitionSchema, type LoopDefinitionInput } from "./loop-definition";

export interface LoopTemplate {
  id: string;
  title: string;
  description: string;
  /** What has to exist on the server for the template to run. */
  requires: string | null;
  definition: LoopDefinitionInput;
}

export const DEMO_TEMPLATE_ID = "demo";

function demoTemplate(): LoopTemplate {
  // Ten productive steps plus the demo's plateaus: about 15 iterations, well over half a minute.
  const preset = demoLoopPreset(DEFAULT_DEMO_GOAL, { seed: 42, delayMs: 2500, stepsToComplete: 10 });
  return {
    id: DEMO_TEMPLATE_ID,
    title: "Demo (no keys)",
    description:
      "An offline demo agent that improves with plateaus, fails now and then and claims done too early. Nothing leaves this machine.",
    requires: null,
    definition: { name: "Demo loop", ...preset },
  };
}

/**
 * Tests are the evidence: the loop completes only when they all pass. The
 * runner is detected in the workspace (vitest, jest, mocha, node --test from
 * package.json; pytest, go test, cargo test from their project files, even
 * without a package.json) and asked for a report naming the failing tests.
 */
const testsPass = (): ScorerConfigInput => ({
  kind: "command-check",
  name: "tests",
  argv: ["npm", "test"],
  format: "auto",
  runner: "auto",
  timeoutSeconds: 600,
});

/**
 * The prompt template, shown in the form so it can be edited: a coding agent
 * hears every section; a lone model call has no test run to report on.
 */
const codingSections = [...inputSections];
const modelSections = inputSections.filter((s) => s !== "Failing tests");

const codingLimits = {
  input: { sections: codingSections },
  stop: { maxIterations: 20, scoreThreshold: 1, noProgressIterations: 5, iterationTimeout: 2700 },
  completion: { evidence: ["score"] as ("score" | "verifier" | "validators")[], mode: "any" as const },
  budget: { maxCostUsd: 20 },
  approvals: { beforeCompletion: { enabled: true, deadline: 3600, defaultAction: "approve" as const } },
};

const codingGoal = "Make the failing tests in this repository pass without weakening them.";

/** A coding agent's template: everything but the agent is shared, so the two CLIs compete on equal terms. */
function codingTemplate(
  head: Omit<LoopTemplate, "definition">,
  name: string,
  agent: LoopDefinitionInput["agent"],
): LoopTemplate {
  return {
    ...head,
    definition: {
      name,
      goal: codingGoal,
      workspace: "",
      loop: codingLimits,
      agent,
      scorers: [testsPass()],
      verifier: { kind: "none" },
      reflector: { kind: "rule-based" },
    },
  };
}

export function loopTemplates(): LoopTemplate[] {
  const templates: LoopTemplate[] = [
    demoTemplate(),
    codingTemplate(
      {
        id: "claude-code-tests",
        title: "Claude Code until tests pass",
        description:
          "Runs Claude Code headless in the workspace each iteration; the project's tests (its detected runner) decide when the work is done.",
        requires:
          "the claude CLI on the server (outside /tmp) and ANTHROPIC_API_KEY, or a subscription token as CLAUDE_CODE_OAUTH_TOKEN (docs/agents.md)",
      },
      "Claude Code: tests pass",
      {
        kind: "command",
        preset: "claude-code",
        extraArgs: ["--permission-mode", "acceptEdits", "--allowedTools", "Bash,Read,Edit,Write"],
        secrets: [{ name: "ANTHROPIC_API_KEY" }],
        timeoutSeconds: 1200,
      },
    ),
    codingTemplate(
      {
        id: "codex-tests",
        title: "Codex until tests pass",
        description:
          "Runs `codex exec --json` in the workspace each iteration; the project's tests (its detected runner) decide when the work is done.",
        requires:
          "the codex CLI on the server (outside /tmp) and OPENAI_API_KEY, or a ChatGPT login as CODEX_AUTH_JSON (docs/agents.md)",
      },
      "Codex: tests pass",
      {
        kind: "command",
        preset: "codex",
        // The preset adds the sandbox, model and provider flags for the installed Codex.
        extraArgs: [],
        model: "gpt-5.5",
        secrets: [{ name: "CODEX_API_KEY", env: "OPENAI_API_KEY" }],
        timeoutSeconds: 1200,
      },
    ),
    {
      id: "llm-judge",
      title: "Model + LLM judge",
      description:
        "One model call per iteration; a second model scores each answer against a rubric and the loop stops at 0.9.",
      requires: "OPENAI_API_KEY in the server environment",
      definition: {
        name: "Model + judge",
        goal: "Write a one-page design note for rate limiting the public API: limits, headers, error responses and rollout.",
        loop: {
          input: { sections: modelSections },
          stop: { maxIterations: 8, scoreThreshold: 0.9, noProgressIterations: 3 },
          completion: { evidence: ["score"] },
          budget: { maxCostUsd: 2 },
        },
        agent: {
          kind: "llm",
          provider: "openai",
          model: "gpt-4.1-mini",
          apiKeyEnv: "OPENAI_API_KEY",
          maxOutputTokens: 4096,
        },
        scorers: [
          {
            kind: "llm-judge",
            name: "judge",
            provider: "openai",
            model: "gpt-4.1-mini",
            apiKeyEnv: "OPENAI_API_KEY",
            rubric:
              "Concrete limits per plan, the exact response headers, a 429 body example, and a staged rollout with a rollback. Score 1 only if all are present and consistent.",
          },
        ],
        verifier: { kind: "none" },
        reflector: { kind: "rule-based" },
      },
    },
  ];
  // A template that stopped validating would only fail when an operator submits it.
  for (const t of templates) loopDefinitionSchema.parse(t.definition);
  return templates;
}
