// Transformed forms of a secret an agent might print to get it past a plain
// string match (issue 32): reversed, case-changed, split in halves, spaced
// out, base32 and fully percent-encoded. Each becomes a regular expression the
// redactor replaces; base64, hex and the usual URL/JSON escapes are in redact.ts.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Between two characters of a spaced-out or wrapped copy: a little whitespace or one separator. */
const GAP = "(?:[ \\t\\r\\n]{1,3}|[-_.,:;|])?";

/** `text` with optional gaps between its characters, matched without regard to case. */
const spacedPattern = (text: string) => new RegExp([...text].map(escapeRegExp).join(GAP), "gi");

/** A half shorter than this is left alone: it could be ordinary text. */
export const MIN_HALF_CHARS = 6;
/** An encoded fragment shorter than this could occur by chance. */
const MIN_FRAGMENT_CHARS = 8;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding. */
export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The base32 characters fixed by the secret alone, for each of the five byte
 * alignments it can have inside a longer encoded string (`KEY=<secret>`).
 * A character covers 5 bits; it is kept when those bits are all the secret's.
 */
export function base32Fragments(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < 5; offset++) {
    const encoded = base32(new Uint8Array([...new Uint8Array(offset), ...bytes]));
    const first = Math.ceil((8 * offset) / 5);
    const end = Math.floor((8 * (offset + bytes.length)) / 5);
    const fragment = encoded.slice(first, end);
    if (fragment.length >= MIN_FRAGMENT_CHARS) out.push(fragment);
  }
  return out;
}

/** Every byte as %XX (what a "URL-encode everything" tool prints). */
const percentAll = (bytes: Uint8Array) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

/**
 * Patterns for the transformed forms. Case-insensitive, so an upper- or
 * lower-cased copy goes too; the spaced patterns also take the plain and the
 * wrapped copy.
 */
export function transformedPatterns(secret: string): { literal: RegExp[]; encoded: RegExp[]; halves: RegExp[] } {
  const bytes = Buffer.from(secret, "utf8");
  const reversed = [...secret].reverse().join("");
  const literal = [spacedPattern(secret), spacedPattern(reversed)];
  const middle = Math.floor(secret.length / 2);
  const halves = [secret.slice(0, middle), secret.slice(middle)];
  // Halves are scrubbed only when both appear in the same text (a half alone
  // may be an ordinary word: "verifier" of "verifier-key-7890").
  const halfPatterns = halves.every((h) => h.length >= MIN_HALF_CHARS)
    ? halves.map((h) => new RegExp(escapeRegExp(h), "gi"))
    : [];
  literal.push(new RegExp(escapeRegExp(percentAll(bytes)), "gi"));
  // Base32 is case-insensitive by definition; a wrapped copy still matches.
  const encoded = base32Fragments(bytes).map((fragment) => new RegExp([...fragment].join("(?:\\r?\\n)?"), "gi"));
  return { literal, encoded, halves: halfPatterns };
}
