"use client";
// The stored-secret picker: for each secret the agent needs (a template's
// ANTHROPIC_API_KEY, an LLM's key), a dropdown of the stored secrets this user
// may use, by name. Left on its first option, the preflight links a stored
// secret of the variable's name, or reads the server's variable; the option
// says which. Choosing writes the name into the definition (the same field
// the form and the JSON show). Only for users who can create loops.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { useSettled } from "@/components/shared/use-settled";
import { Field, Select, describedBy } from "@/components/ui/field";
import { FormPanel } from "./form-panel";
import { getAt, type Path } from "./json-schema";

type Agents = { agent?: unknown; fallbackAgent?: unknown };

export function SecretPicker({
  value,
  enabled,
  onPick,
}: {
  value: unknown;
  enabled: boolean;
  onPick: (path: Path, secret: string | undefined) => void;
}) {
  const trpc = useTRPC();
  const { agent, fallbackAgent } = (value ?? {}) as Agents;
  const agents = { agent, ...(fallbackAgent ? { fallbackAgent } : {}) };
  // Re-asked a moment after typing stops, and only when the agents changed (not the goal).
  const key = JSON.stringify(agents);
  const settled = useSettled(key);
  const choices = useQuery({
    ...trpc.loops.secretChoices.queryOptions(JSON.parse(settled) as never),
    enabled: enabled && !!agent,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const slots = choices.data ?? [];
  if (!enabled || slots.length === 0) return null;
  return (
    <FormPanel label="Stored secrets" testId="secret-picker" title="Secrets the agent needs" className="space-y-3">
      {slots.map((slot) => {
        const id = `secret-pick-${slot.path.join("-")}`;
        // The form's value, not the server's echo: the pick shows at once.
        const current = getAt(value, slot.path as Path);
        const picked = typeof current === "string" ? current : "";
        const options = picked && !slot.options.includes(picked) ? [picked, ...slot.options] : slot.options;
        const hint =
          slot.options.length === 0
            ? `No stored secret you may use: an admin can add one named ${slot.variable} in Settings → Secrets.`
            : `Passed to the agent as ${slot.variable}.`;
        return (
          <Field key={id} id={id} label={`Stored secret for ${slot.variable}`} hint={hint}>
            <Select
              id={id}
              aria-describedby={describedBy(id, hint, undefined)}
              value={picked}
              onChange={(e) => onPick(slot.path as Path, e.target.value || undefined)}
            >
              <option value="">
                {slot.byName
                  ? `By name: the stored secret ${slot.byName}`
                  : `None: the server's ${slot.variable} variable`}
              </option>
              {options.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          </Field>
        );
      })}
    </FormPanel>
  );
}
