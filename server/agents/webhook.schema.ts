import { z } from "zod";
import { MAX_KEPT_OUTPUT_BYTES } from "./command.schema";
import { secretEnvField, secretIdField } from "./secret-resolver";

export const webhookAgentSchema = z
  .object({
    kind: z.literal("webhook"),
    url: z.url({ protocol: /^https?$/ }).describe("Agent endpoint; receives a signed POST per iteration"),
    signingKeyEnv: secretEnvField("Signing key (HMAC-SHA256) from this server environment variable").optional(),
    signingKeySecret: secretIdField("Signing key from this stored secret (name or id)").optional(),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]+$/, "must be a header name"), z.string())
      .default({})
      .meta({ description: "Extra request headers", secret: true }),
    timeoutSeconds: z.number().min(1).default(300).describe("Give up after (seconds)"),
    maxReplyBytes: z
      .number()
      .int()
      .min(1024)
      .max(MAX_KEPT_OUTPUT_BYTES)
      .default(2_000_000)
      .describe("Largest reply accepted (bytes)"),
    allowHosts: z
      .array(z.string().min(1))
      .default([])
      .describe("Hosts that may resolve to loopback/private addresses (e.g. 127.0.0.1 for a local agent)"),
    model: z.string().optional().describe("Model id, for pricing when the reply has usage but no cost"),
  })
  .describe("Webhook agent (HTTP POST per iteration)");

export type WebhookAgentConfig = z.output<typeof webhookAgentSchema>;
