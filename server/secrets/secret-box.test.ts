import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lastFour, openSecret, sealSecret, secretKeyFrom } from "./secret-box";
import { KEY_FILE, resolveSecretKey } from "./secret-key";

const key = secretKeyFrom(randomBytes(32));

describe("secret box (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time and no plaintext in the envelope", () => {
    const a = sealSecret(key, "row-1", "sk-live-1234567890abcdef");
    const b = sealSecret(key, "row-1", "sk-live-1234567890abcdef");
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^v1:${key.id}:`));
    expect(a).not.toContain("sk-live");
    expect(openSecret(key, "row-1", a)).toBe("sk-live-1234567890abcdef");
  });

  it("refuses a ciphertext moved to another row, altered, or sealed with another key", () => {
    const sealed = sealSecret(key, "row-1", "value-value-value");
    expect(() => openSecret(key, "row-2", sealed)).toThrow(/failed authentication/);
    const raw = Buffer.from(sealed.split(":")[2]!, "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => openSecret(key, "row-1", `v1:${key.id}:${raw.toString("base64")}`)).toThrow(/failed authentication/);
    expect(() => openSecret(secretKeyFrom(randomBytes(32)), "row-1", sealed)).toThrow(/another key/);
  });

  it("shows the last 4 characters only of values long enough to keep most hidden", () => {
    expect(lastFour("sk-abcdefghijkl")).toBe("ijkl");
    expect(lastFour("short-value")).toBe("");
  });

  it("keeps a generated key file with mode 0600 and reuses it; RALPH_SECRET_KEY wins", () => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-key-"));
    const first = resolveSecretKey(undefined, dir);
    expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(dir, KEY_FILE), "utf8").trim(), "base64")).toHaveLength(32);
    expect(resolveSecretKey(undefined, dir).id).toBe(first.id);
    const configured = randomBytes(32);
    expect(resolveSecretKey(configured.toString("base64"), dir).key.equals(configured)).toBe(true);
  });
});
