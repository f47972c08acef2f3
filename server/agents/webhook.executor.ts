/**
 * The webhook agent: one signed POST per iteration to an operator-run
 * service. Request body: {loopId, iteration, agentId, attempt, goal, input,
 * continuation, sentAt}. Headers: X-Ralph-Timestamp (unix seconds, equal to
 * sentAt) and X-Ralph-Signature: sha256=<hex HMAC-SHA256 of the raw body>;
 * the timestamp sits inside the signed body, so receivers can reject replays.
 * Reply: {output, usage?, cost?, claim?, toolCalls?, progress?, data?}.
 */
import { createHmac } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { z } from "zod";
import type { AgentPort, AgentRunResult } from "../engine";
import { AgentError, abortedError } from "./agent-error";
import { claimFromValue, detectClaim } from "./claim";
import type { AgentDeps } from "./deps";
import { defaultPriceLookup, priceUsage } from "./pricing";
import { progressReportSchema, usageSchema } from "./progress.schema";
import { scrubDeep, scrubSecrets } from "./redact";
import { refFrom, resolveRequired } from "./secret-resolver";
import { allowedForUrl, checkOutboundUrl, guardedLookup } from "./ssrf-guard";
import type { WebhookAgentConfig } from "./webhook.schema";

export const webhookReplySchema = z.object({
  output: z.string(),
  usage: usageSchema.optional(),
  cost: z.number().min(0).optional(),
  claim: z.union([z.boolean(), z.string(), z.object({ done: z.boolean(), text: z.string().optional() })]).optional(),
  toolCalls: z.array(z.string()).optional(),
  progress: progressReportSchema.optional(),
  data: z.unknown().optional(),
});

export function signBody(body: string, key: string): string {
  return `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;
}

interface HttpReply {
  status: number;
  body: string;
  retryAfter: string | null;
}

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  config: WebhookAgentConfig,
  allowHosts: readonly string[],
  signal: AbortSignal,
): Promise<HttpReply> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: "POST", headers, lookup: guardedLookup(allowHosts), signal },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > config.maxReplyBytes) {
            res.destroy();
            reject(
              new AgentError("bad_reply", `The webhook reply exceeded ${config.maxReplyBytes} bytes`, {
                retryable: false,
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            retryAfter: typeof retryAfter === "string" ? retryAfter : null,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function statusError(status: number, body: string, retryAfter: string | null): AgentError {
  const said = body.trim().slice(0, 300);
  const details = { status };
  if (status >= 300 && status < 400) {
    return new AgentError(
      "provider_rejected",
      `The webhook answered with a redirect (HTTP ${status}); redirects are not followed`,
      {
        retryable: false,
        details,
      },
    );
  }
  // The webhook's own answer: the loop waits for the retry-after instead of retrying at once.
  if (status === 429) {
    const message = `The webhook is rate limiting (HTTP 429): ${said}`;
    return new AgentError("rate_limited", message, {
      retryable: true,
      details: { ...details, usageLimit: { message, retryAfter } },
    });
  }
  if (status >= 500 || status === 408) {
    return new AgentError("provider_unavailable", `The webhook failed (HTTP ${status}): ${said}`, {
      retryable: true,
      details,
    });
  }
  return new AgentError("provider_rejected", `The webhook rejected the call (HTTP ${status}): ${said}`, {
    retryable: false,
    details,
  });
}

export function createWebhookAgent(config: WebhookAgentConfig, deps: AgentDeps): AgentPort {
  const pricing = deps.pricing ?? defaultPriceLookup;
  const now = deps.now ?? Date.now;
  const keyRef = refFrom(config.signingKeyEnv, config.signingKeySecret);

  return {
    async run(request): Promise<AgentRunResult> {
      if (request.signal.aborted) throw abortedError("The webhook call");
      // The admin's RALPH_AGENT_ALLOW_HOSTS, plus the loop's own list (only an admin can set it).
      const allowHosts = [...(deps.allowHosts ?? []), ...config.allowHosts];
      const url = checkOutboundUrl(config.url, allowHosts);
      const key = keyRef
        ? await resolveRequired(deps.secrets, keyRef, "Webhook signing key", { kind: "webhook", hosts: [url.hostname] })
        : undefined;
      const sentAt = Math.floor(now() / 1000);
      const body = JSON.stringify({
        loopId: request.loopId,
        iteration: request.iteration,
        agentId: request.agentId,
        attempt: request.attempt,
        goal: request.goal,
        input: request.input,
        continuation: request.continuation ?? null,
        sentAt,
      });
      const headers: Record<string, string> = {
        ...config.headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "ralph-control",
        "x-ralph-timestamp": String(sentAt),
        ...(key ? { "x-ralph-signature": signBody(body, key) } : {}),
      };
      const timeout = AbortSignal.timeout(config.timeoutSeconds * 1000);
      const secrets = [...(key ? [key] : []), ...Object.values(config.headers)];
      deps.redactor?.add(secrets);
      request.onProgress({ kind: "progress", message: `POST ${url.host}` });

      let reply: HttpReply;
      try {
        reply = await post(
          url,
          body,
          headers,
          config,
          allowedForUrl(url, allowHosts),
          AbortSignal.any([request.signal, timeout]),
        );
      } catch (error) {
        if (error instanceof AgentError) throw error;
        if (request.signal.aborted) throw abortedError("The webhook call");
        if (timeout.aborted)
          throw new AgentError("timeout", `The webhook did not answer within ${config.timeoutSeconds}s`, {
            retryable: true,
          });
        const message = scrubSecrets((error as Error).message, secrets);
        throw new AgentError("network", `Could not reach the webhook at ${url.host}: ${message}`, { retryable: true });
      }
      if (reply.status < 200 || reply.status >= 300)
        throw statusError(reply.status, scrubSecrets(reply.body, secrets), reply.retryAfter);

      let json: unknown;
      try {
        json = JSON.parse(reply.body);
      } catch {
        throw new AgentError("bad_reply", "The webhook reply is not JSON", { retryable: false });
      }
      const parsed = webhookReplySchema.safeParse(json);
      if (!parsed.success) {
        const problems = parsed.error.issues
          .map((i) => `${i.path.map(String).join(".") || "reply"}: ${i.message}`)
          .join("; ");
        throw new AgentError("bad_reply", `The webhook reply is invalid: ${problems}`, { retryable: false });
      }
      const data = parsed.data;
      const usage = data.usage ?? { input: 0, output: 0, cache: 0 };
      const warnings: string[] = [];
      let costUsd = data.cost ?? 0;
      if (data.cost === undefined && data.usage && config.model) {
        const priced = priceUsage(pricing, config.model, usage);
        costUsd = priced.costUsd;
        if (priced.warning) warnings.push(priced.warning);
      }
      const output = scrubSecrets(data.output, secrets);
      return {
        output,
        claim: detectClaim(output, claimFromValue(data.claim), request.completionSignal),
        usage,
        costUsd,
        toolCalls: data.toolCalls ?? [],
        progress: scrubDeep(data.progress, secrets),
        ...(data.data !== undefined ? { data: scrubDeep(data.data, secrets) } : {}),
        meta: { kind: "webhook", host: url.host, status: reply.status, warnings },
      };
    },
  };
}
