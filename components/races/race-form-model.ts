// The race form's state and what it sends: pure, so the shape `races.create` validates is built in
// one place and tested without a browser.
import type { RouterInputs } from "@/components/shared/api-types";

export type RaceInput = RouterInputs["races"]["create"];
export type Preset = "generic" | "claude-code" | "codex";

export interface ContenderDraft {
  label: string;
  preset: Preset;
  /** The command line, for the generic preset (split on whitespace; no shell). */
  command: string;
  model: string;
  prompt: string;
}

export interface RaceDraft {
  name: string;
  goal: string;
  workspace: string;
  /** The check every contender is graded by, e.g. `npm test`. */
  check: string;
  maxIterations: number;
  policy: "first_verified" | "operator";
  /** The branch the winner lands onto (empty: the branch the checkout has checked out). */
  targetBranch: string;
  contenders: ContenderDraft[];
}

export const emptyContender = (n: number): ContenderDraft => ({
  label: `contender ${n}`,
  preset: "claude-code",
  command: "",
  model: "",
  prompt: "",
});

export const emptyRace = (): RaceDraft => ({
  name: "",
  goal: "",
  workspace: "",
  check: "npm test",
  maxIterations: 10,
  policy: "first_verified",
  targetBranch: "",
  contenders: [emptyContender(1), emptyContender(2), emptyContender(3)],
});

const words = (s: string) => s.trim().split(/\s+/).filter(Boolean);

export function raceInput(d: RaceDraft): RaceInput {
  const check = words(d.check);
  return {
    name: d.name.trim(),
    goal: d.goal.trim(),
    policy: d.policy,
    targetBranch: d.targetBranch.trim(),
    base: {
      workspace: d.workspace.trim(),
      scorers: check.length ? [{ kind: "command-check", name: "check", argv: check }] : [],
      loop: { stop: { maxIterations: d.maxIterations, scoreThreshold: 1 }, completion: { evidence: ["score"] } },
    },
    contenders: d.contenders.map((c) => ({
      label: c.label.trim(),
      prompt: c.prompt.trim(),
      agent: {
        kind: "command" as const,
        preset: c.preset,
        ...(c.preset === "generic" ? { argv: words(c.command) } : {}),
        ...(c.model.trim() ? { model: c.model.trim() } : {}),
      },
    })),
    start: true,
  };
}
