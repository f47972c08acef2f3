import type { AgentPort, AgentRunResult } from "../engine";
import { abortedError } from "./agent-error";
import { detectClaim } from "./claim";
import type { AgentDeps } from "./deps";
import { callModel } from "./llm-call";
import type { LlmAgentConfig } from "./llm.schema";

/** A direct model call per iteration; the composed input is the prompt. */
export function createLlmAgent(config: LlmAgentConfig, deps: AgentDeps): AgentPort {
  return {
    async run(request): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The model call");
      request.onProgress({ kind: "progress", message: `calling ${config.provider}:${config.model}` });
      const reply = await callModel(config, deps, {
        what: `${config.provider} model ${config.model}`,
        system: config.system,
        prompt: request.input,
        maxOutputTokens: config.maxOutputTokens,
        temperature: config.temperature,
        signal: request.signal,
      });
      return {
        output: reply.text,
        claim: detectClaim(reply.text),
        usage: reply.usage,
        costUsd: reply.costUsd,
        toolCalls: [],
        truncated: reply.finishReason === "length",
        meta: {
          kind: "llm",
          provider: config.provider,
          model: config.model,
          responseModel: reply.responseModel,
          finishReason: reply.finishReason,
          warnings: reply.warnings,
        },
      };
    },
  };
}
