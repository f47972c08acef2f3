/**
 * Asks a model for JSON matching a zod schema. Models sometimes wrap JSON in
 * prose or fences, or get a field wrong; one repair round (showing the model
 * its reply and what was wrong) fixes most of that without looping forever.
 */
import type { z } from "zod";
import type { TokenUsage } from "../engine";
import { AgentError } from "./agent-error";
import type { AgentDeps } from "./deps";
import { addUsage, callModel, type ModelCall } from "./llm-call";
import type { ModelRef } from "./llm.schema";

export interface JsonReply<T> {
  value: T;
  repaired: boolean;
  usage: TokenUsage;
  costUsd: number;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): Parsed<T> {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const source = (fenced ?? text).trim();
  const start = source.indexOf("{");
  const end = source.lastIndexOf("}");
  if (start === -1 || end < start) return { ok: false, problem: "the reply contains no JSON object" };
  let data: unknown;
  try {
    data = JSON.parse(source.slice(start, end + 1));
  } catch (error) {
    return { ok: false, problem: `the JSON does not parse (${(error as Error).message})` };
  }
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problem: result.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; "),
  };
}

export async function generateJson<T>(
  ref: ModelRef,
  deps: AgentDeps,
  call: Omit<ModelCall, "messages"> & { prompt: string; shape: string },
  schema: z.ZodType<T>,
): Promise<JsonReply<T>> {
  const first = await callModel(ref, deps, call);
  const parsed = parseJsonReply(first.text, schema);
  if (parsed.ok) return { value: parsed.value, repaired: false, usage: first.usage, costUsd: first.costUsd };

  const second = await callModel(ref, deps, {
    ...call,
    prompt: undefined,
    messages: [
      { role: "user", content: call.prompt },
      { role: "assistant", content: first.text },
      {
        role: "user",
        content: `Your reply was not valid: ${parsed.problem}. Reply again with only a JSON object of the form ${call.shape} and nothing else.`,
      },
    ],
  });
  const usage = addUsage(first.usage, second.usage);
  const costUsd = first.costUsd + second.costUsd;
  const repaired = parseJsonReply(second.text, schema);
  if (repaired.ok) return { value: repaired.value, repaired: true, usage, costUsd };
  throw new AgentError("bad_reply", `${call.what} returned malformed JSON twice: ${repaired.problem}`, {
    retryable: false,
    usage,
    costUsd,
  });
}
