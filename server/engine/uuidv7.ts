/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Built from
 * injected now()/random() so ids are reproducible in tests and still sort by
 * creation time in storage.
 */
export function uuidv7(now: () => number, random: () => number): string {
  const ms = Math.max(0, Math.floor(now()));
  const bytes = new Uint8Array(16);
  // 2^48 exceeds 32-bit bit operations, so the timestamp is split arithmetically.
  let rest = ms;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  for (let i = 6; i < 16; i++) bytes[i] = Math.min(255, Math.floor(random() * 256));
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuidv7(id: string): boolean {
  return UUIDV7.test(id);
}

/** The creation time encoded in a UUIDv7. */
export function uuidv7Timestamp(id: string): number {
  return parseInt(id.replace(/-/g, "").slice(0, 12), 16);
}
