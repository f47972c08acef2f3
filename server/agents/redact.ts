/**
 * Blanks secret-bearing config fields (those whose schema carries
 * `secret: true` metadata) for shared report pages, and scrubs resolved
 * secret values out of text that leaves an adapter (output, stderr, errors),
 * in the encodings an agent is likely to print them in.
 */
import { z } from "zod";
import { transformedPatterns } from "./secret-variants";

export const REDACTED = "[redacted]";

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })?._zod?.def;

function isSecret(schema: z.ZodType): boolean {
  return (z.globalRegistry.get(schema) as { secret?: unknown } | undefined)?.secret === true;
}

function blank(value: unknown): unknown {
  if (typeof value === "string") return value === "" ? value : REDACTED;
  if (Array.isArray(value)) return value.map(blank);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v)]));
  }
  return value;
}

/** Walks `value` alongside `schema`; unknown shapes are returned unchanged. */
export function redactBySchema(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (isSecret(schema)) return blank(value);
  const def = defOf(schema);
  if (!def) return value;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return redactBySchema(def.innerType as z.ZodType, value);
    case "pipe":
      return redactBySchema(def.in as z.ZodType, value);
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, field] of Object.entries(shape)) {
        if (key in out) out[key] = redactBySchema(field, out[key]);
      }
      return out;
    }
    case "array":
      return Array.isArray(value) ? value.map((item) => redactBySchema(def.element as z.ZodType, item)) : value;
    case "record": {
      if (typeof value !== "object" || Array.isArray(value)) return value;
      const valueType = def.valueType as z.ZodType;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactBySchema(valueType, v)]));
    }
    case "union":
      // Each option only blanks keys it marks secret, so applying all of them
      // is safe even when the value does not validate.
      return (def.options as z.ZodType[]).reduce<unknown>((acc, option) => redactBySchema(option, acc), value);
    default:
      return value;
  }
}

/** Shorter values are left alone: scrubbing "abc" everywhere would mangle ordinary text. */
const MIN_SECRET_CHARS = 6;
/** An encoded fragment shorter than this could occur by chance. */
const MIN_FRAGMENT_CHARS = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Matches `text` even when a tool wrapped it over lines (base64 and xxd wrap at 60-76 columns). */
const wrapped = (text: string) => [...text].map(escapeRegExp).join("(?:\\r?\\n)?");

/**
 * The base64 characters fixed by the secret alone, for each of the three
 * byte alignments it can have inside a longer encoded string (`KEY=<secret>`
 * piped through base64, or the secret followed by echo's newline).
 */
function base64Fragments(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString("base64");
    const firstGroup = offset === 0 ? 0 : 1;
    const fullGroups = Math.floor(padded.length / 3);
    const fragment = encoded.slice(firstGroup * 4, fullGroups * 4);
    if (fragment.length >= MIN_FRAGMENT_CHARS) out.push(fragment);
  }
  return out;
}

/** Marks a removed encoded fragment until its neighbours are dealt with (never in real text). */
const MARK = "\u0000";
const AROUND_MARK = /[A-Za-z0-9+/_-]{0,3}\u0000[A-Za-z0-9+/_-]{0,3}={0,6}/g;

function patternsFor(secret: string): { encoded: RegExp[]; literal: RegExp[]; halves: RegExp[] } {
  const bytes = Buffer.from(secret, "utf8");
  const encoded: RegExp[] = [];
  for (const fragment of base64Fragments(bytes)) {
    encoded.push(new RegExp(wrapped(fragment), "g"));
    const urlSafe = fragment.replaceAll("+", "-").replaceAll("/", "_");
    if (urlSafe !== fragment) encoded.push(new RegExp(wrapped(urlSafe), "g"));
  }
  const literal = [new RegExp(wrapped(bytes.toString("hex")), "gi")];
  const variants = new Set([
    encodeURIComponent(secret),
    encodeURIComponent(secret).replaceAll("%20", "+"),
    JSON.stringify(secret).slice(1, -1),
  ]);
  variants.delete(secret);
  for (const variant of variants) literal.push(new RegExp(escapeRegExp(variant), "gi"));
  // Reversed, case-changed, halved, spaced, fully percent-encoded and base32 copies (secret-variants.ts).
  const transformed = transformedPatterns(secret);
  return {
    encoded: [...encoded, ...transformed.encoded],
    literal: [...literal, ...transformed.literal],
    halves: transformed.halves,
  };
}

const patternCache = new Map<string, ReturnType<typeof patternsFor>>();
function cachedPatterns(secret: string) {
  let patterns = patternCache.get(secret);
  if (!patterns) {
    if (patternCache.size >= 256) patternCache.delete(patternCache.keys().next().value!);
    patterns = patternsFor(secret);
    patternCache.set(secret, patterns);
  }
  return patterns;
}

/**
 * Replaces every occurrence of a resolved secret value, of its base64,
 * base64url, base32, hex, URL and JSON encodings, and of its reversed,
 * case-changed, halved and spaced-out copies, with [redacted].
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  let marked = false;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    const { encoded, literal, halves } = cachedPatterns(secret);
    for (const pattern of literal) {
      pattern.lastIndex = 0;
      if (pattern.test(out)) out = out.replace(pattern, REDACTED);
    }
    if (
      halves.length > 0 &&
      halves.every((pattern) => {
        pattern.lastIndex = 0;
        return pattern.test(out);
      })
    )
      for (const pattern of halves) out = out.replace(pattern, REDACTED);
    // Encoded fragments first become marks, so that removing one fragment's
    // neighbours cannot eat into the next copy's fragment.
    for (const pattern of encoded) {
      pattern.lastIndex = 0;
      if (pattern.test(out)) {
        out = out.replace(pattern, MARK);
        marked = true;
      }
    }
  }
  // The characters next to a fragment carry a few bits of the secret's edges:
  // they go too (over-scrubbing a neighbour is the safe mistake).
  return marked ? out.replace(AROUND_MARK, REDACTED) : out;
}

/** scrubSecrets over every string inside plain data (meta, progress reports, structured output). */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return scrubSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, secrets)])) as T;
  }
  return value;
}

/**
 * The secret values one loop's adapters resolved, shared by all of them: a
 * verifier or check that prints what the agent wrote into the workspace is
 * scrubbed of the agent's secrets too.
 */
export class SecretRedactor {
  private readonly known = new Set<string>();
  add(values: readonly string[]): void {
    for (const v of values) if (v.length >= MIN_SECRET_CHARS) this.known.add(v);
  }
  values(extra: readonly string[] = []): string[] {
    return [...new Set([...this.known, ...extra])];
  }
  scrub(text: string, extra: readonly string[] = []): string {
    return scrubSecrets(text, this.values(extra));
  }
  scrubDeep<T>(value: T, extra: readonly string[] = []): T {
    return scrubDeep(value, this.values(extra));
  }
}
