/**
 * What consecutive checkpoints of a loop repeat: the same config, the same
 * completed runs of its lists. Each step's checkpoint would otherwise write
 * their canonical text and hash them again. Texts are kept by object identity
 * for values that are deep-frozen as they are remembered (a snapshot is never
 * changed in place; freezing makes sure of it, so a remembered text cannot
 * go stale), and digests by text.
 */
import type { CanonicalCache } from "./canonical-json";
import { canonicalJson } from "./canonical-json";

/** checkpoint.ts's Sha256 (which imports this file). */
type Sha256 = (text: string) => string;

const texts = new WeakMap<object, string>();

/** Canonical texts of remembered values, for canonicalJson. */
export const rememberedTexts: CanonicalCache = texts;

/** Plain JSON data all the way down: what canonicalJson writes without going through JSON itself. */
function isPlain(value: unknown): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "function" && typeof value !== "symbol";
  if (texts.has(value)) return true;
  if (!Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function")
      return false;
  }
  for (const child of Object.values(value)) if (!isPlain(child)) return false;
  return true;
}

function deepFreeze(value: unknown) {
  if (value === null || typeof value !== "object" || texts.has(value)) return;
  for (const child of Object.values(value)) deepFreeze(child);
  Object.freeze(value);
}

/** The canonical text of `value`, remembered for next time when it is a plain object or array. */
export function canonicalText(value: unknown): string {
  if (value === null || typeof value !== "object") return canonicalJson(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  const text = canonicalJson(value, texts);
  if (isPlain(value)) {
    deepFreeze(value);
    texts.set(value, text);
  }
  return text;
}

/** Bounded: a long-lived process sees many loops' parts; clearing at the bound is enough for a memo. */
const DIGESTS_KEPT = 1024;
const digests = new WeakMap<Sha256, Map<string, string>>();

/** `sha256(text)`, remembered for texts that recur (a part's text is the same string while it is remembered). */
export function digestOf(sha256: Sha256, text: string): string {
  let known = digests.get(sha256);
  if (!known) digests.set(sha256, (known = new Map()));
  let digest = known.get(text);
  if (digest === undefined) {
    digest = sha256(text);
    if (known.size >= DIGESTS_KEPT) known.clear();
    known.set(text, digest);
  }
  return digest;
}
