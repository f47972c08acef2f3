"use client";
// Start a race: one goal and repository, graded by one check, and two or more contenders that differ
// by agent (preset, command, model) or by a prompt added to the goal. The server checks every
// contender before starting any (policy, evidence, preflight) and answers with the first refusal.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPCClient } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { Field, Select, TextArea, TextInput } from "@/components/ui/field";
import {
  emptyContender,
  emptyRace,
  raceInput,
  type ContenderDraft,
  type Preset,
  type RaceDraft,
} from "./race-form-model";

export function RaceForm() {
  const client = useTRPCClient();
  const router = useRouter();
  const [draft, setDraft] = useState<RaceDraft>(emptyRace);
  const set = <K extends keyof RaceDraft>(key: K, value: RaceDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const setContender = (i: number, patch: Partial<ContenderDraft>) =>
    setDraft((d) => ({ ...d, contenders: d.contenders.map((c, j) => (j === i ? { ...c, ...patch } : c)) }));
  const create = useMutation({
    mutationFn: () => client.races.create.mutate(raceInput(draft)),
    onSuccess: ({ id }) => router.push(`/races/${id}`),
  });
  return (
    <form
      className="max-w-4xl space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="race-name" label="Name (optional)">
          <TextInput id="race-name" value={draft.name} onChange={(e) => set("name", e.target.value)} />
        </Field>
        <Field id="race-policy" label="When a contender passes the evidence">
          <Select
            id="race-policy"
            value={draft.policy}
            onChange={(e) => set("policy", e.target.value as RaceDraft["policy"])}
          >
            <option value="first_verified">The first verified wins: land it, stop the others</option>
            <option value="operator">I pick the winner</option>
          </Select>
        </Field>
      </div>
      <Field
        id="race-target"
        label="Land the winner onto (branch)"
        hint="Empty: the branch your checkout has checked out. The merge queue re-runs the check before it lands."
      >
        <TextInput id="race-target" value={draft.targetBranch} onChange={(e) => set("targetBranch", e.target.value)} />
      </Field>
      <Field id="race-goal" label="Goal" required>
        <TextArea id="race-goal" rows={3} value={draft.goal} onChange={(e) => set("goal", e.target.value)} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="race-workspace" label="Repository (absolute path)" required>
          <TextInput id="race-workspace" value={draft.workspace} onChange={(e) => set("workspace", e.target.value)} />
        </Field>
        <Field id="race-check" label="Check (the evidence)" hint="Run in a clean grading tree, e.g. npm test">
          <TextInput id="race-check" value={draft.check} onChange={(e) => set("check", e.target.value)} />
        </Field>
        <Field id="race-max" label="Iterations at most, each">
          <TextInput
            id="race-max"
            type="number"
            min={1}
            value={draft.maxIterations}
            onChange={(e) => set("maxIterations", Math.max(1, Number(e.target.value) || 1))}
          />
        </Field>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Contenders</legend>
        {draft.contenders.map((c, i) => {
          // The contender's free-text settings share one markup; ids are `c<row>-<setting>`.
          const text = (key: "label" | "command" | "model" | "prompt", label: string) => (
            <Field id={`c${i}-${key}`} label={label}>
              <TextInput
                id={`c${i}-${key}`}
                value={c[key]}
                onChange={(e) => setContender(i, { [key]: e.target.value })}
              />
            </Field>
          );
          return (
            <div
              key={i}
              className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-4 dark:border-slate-800"
              data-testid="contender-row"
            >
              {text("label", `Contender ${i + 1}`)}
              <Field id={`c${i}-preset`} label="Agent">
                <Select
                  id={`c${i}-preset`}
                  value={c.preset}
                  onChange={(e) => setContender(i, { preset: e.target.value as Preset })}
                >
                  <option value="claude-code">Claude Code</option>
                  <option value="codex">Codex</option>
                  <option value="generic">A command</option>
                </Select>
              </Field>
              {c.preset === "generic" ? text("command", "Command") : text("model", "Model (optional)")}
              {text("prompt", "Added to the goal (optional)")}
            </div>
          );
        })}
        <div className="flex gap-2">
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={draft.contenders.length >= 8}
            onClick={() => set("contenders", [...draft.contenders, emptyContender(draft.contenders.length + 1)])}
          >
            Add a contender
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={draft.contenders.length <= 2}
            onClick={() => set("contenders", draft.contenders.slice(0, -1))}
          >
            Remove the last
          </Button>
        </div>
      </fieldset>
      {create.isError && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">
          {errorMessage(create.error)}
        </p>
      )}
      <Button type="submit" disabled={create.isPending}>
        Start the race
      </Button>
    </form>
  );
}
