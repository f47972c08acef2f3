import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REDACTED, scrubDeep, scrubSecrets, SecretRedactor } from "./redact";
import { base32 } from "./secret-variants";

const SECRET = "sk-live-Zq8+/w9kT3xY_secret-value";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const shell = (script: string) =>
  execFileSync("/bin/sh", ["-c", script], {
    env: { PATH: "/usr/bin:/bin", KEY: SECRET } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });

/** Whether a recognisable piece of the value survives, in any of the forms, ignoring line wrapping. */
function leaks(text: string): boolean {
  const flat = text.replace(/\r?\n/g, "");
  const pieces = [SECRET.slice(2, -2), encodeURIComponent(SECRET).slice(3, 20)];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(SECRET)]).toString("base64");
    pieces.push(encoded.slice(8, 20), encoded.slice(8, 20).replaceAll("+", "-").replaceAll("/", "_"));
  }
  const hex = Buffer.from(SECRET).toString("hex").slice(6, 30);
  return pieces.some((p) => flat.includes(p)) || flat.toLowerCase().includes(hex);
}

describe("scrubSecrets", () => {
  it.each([
    ["plain", `token=${SECRET} end`],
    ["base64", `token=${b64(SECRET)} end`],
    ["base64 without padding", `token=${b64(SECRET).replace(/=+$/, "")}`],
    ["base64url", `token=${Buffer.from(SECRET).toString("base64url")}`],
    ["base64 of the value with a prefix", `blob=${b64(`KEY=${SECRET}`)}`],
    ["base64 of the value with a newline (echo | base64)", shell('echo "$KEY" | base64')],
    ["base64 of KEY=value wrapped by base64(1)", shell('printf "export KEY=%s\\n%s\\n" "$KEY" "$KEY$KEY" | base64')],
    ["hex", `hex ${Buffer.from(SECRET).toString("hex")}`],
    ["upper-case hex", Buffer.from(SECRET).toString("hex").toUpperCase()],
    ["xxd -p (wrapped hex)", shell('printf %s "$KEY$KEY" | od -An -tx1 | tr -d " \\n"')],
    ["URL-encoded", `q=${encodeURIComponent(SECRET)}`],
    ["JSON-escaped", JSON.stringify({ k: `a"${SECRET}` })],
  ])("removes the %s form", (_, text) => {
    expect(leaks(text)).toBe(true); // the case really carries the value
    const scrubbed = scrubSecrets(text, [SECRET]);
    expect(scrubbed).toContain(REDACTED);
    expect(leaks(scrubbed)).toBe(false);
  });

  // Issue 32: simple transforms beat the plain match. Each case is printed by a real tool where one exists.
  const half = Math.floor(SECRET.length / 2);
  const transformed: [string, string, (text: string) => boolean][] = [
    ["reversed (rev)", shell('printf %s "$KEY" | rev'), (t) => t.includes([...SECRET].reverse().join("").slice(2, -2))],
    ["upper-cased (tr)", shell('printf %s "$KEY" | tr a-z A-Z'), (t) => t.includes(SECRET.toUpperCase().slice(2, -2))],
    ["lower-cased", `k=${SECRET.toLowerCase()}`, (t) => t.includes(SECRET.toLowerCase().slice(2, -2))],
    [
      "split in halves on two lines",
      `first: ${SECRET.slice(0, half)}\nsecond: ${SECRET.slice(half)}`,
      (t) => t.includes(SECRET.slice(0, half)) || t.includes(SECRET.slice(half)),
    ],
    [
      "spaced out (sed)",
      shell("printf %s \"$KEY\" | sed 's/./& /g'"),
      (t) => t.replace(/ /g, "").includes(SECRET.slice(2, -2)),
    ],
    [
      "dash-separated",
      [...SECRET].join("-"),
      (t) => t.replace(/-/g, "").includes(SECRET.replace(/-/g, "").slice(2, -2)),
    ],
    [
      "base32 (base32(1), wrapped)",
      shell('printf %s "$KEY$KEY" | base32'),
      (t) => t.replace(/\n/g, "").includes(base32(Buffer.from(SECRET)).slice(8, 24)),
    ],
    [
      "base32 with a prefix",
      `x=${base32(Buffer.from(`TOKEN=${SECRET}`))}`,
      (t) => t.includes(base32(Buffer.from(`TOKEN=${SECRET}`)).slice(12, 28)),
    ],
    [
      "lower-case base32",
      base32(Buffer.from(SECRET)).toLowerCase(),
      (t) => t.toUpperCase().includes(base32(Buffer.from(SECRET)).slice(8, 24)),
    ],
    [
      "every byte percent-encoded",
      [...Buffer.from(SECRET)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
      (t) => t.toLowerCase().includes(Buffer.from(SECRET).toString("hex").slice(4, 12).replace(/(..)/g, "%$1")),
    ],
    [
      "URL-encoded and upper-cased",
      encodeURIComponent(SECRET).toUpperCase(),
      (t) => t.includes(encodeURIComponent(SECRET).toUpperCase().slice(3, 20)),
    ],
  ];
  it.each(transformed)("removes the %s form", (_, text, carries) => {
    expect(carries(text)).toBe(true); // the case really carries the value
    const scrubbed = scrubSecrets(text, [SECRET]);
    expect(scrubbed).toContain(REDACTED);
    expect(carries(scrubbed), scrubbed).toBe(false);
  });

  it("a half of the secret alone is left alone (it may be an ordinary word); both halves go", () => {
    const secret = "verifier-key-7890";
    expect(scrubSecrets("the verifier ran", [secret])).toBe("the verifier ran");
    expect(scrubSecrets("verifier then -key-7890", [secret])).toBe(`${REDACTED} then ${REDACTED}`);
  });

  it("leaves ordinary text alone and ignores values too short to scrub safely", () => {
    const text = "All 12 tests passed; see report.json (sha 3f2a9c).";
    expect(scrubSecrets(text, [SECRET, "abc"])).toBe(text);
    expect(scrubSecrets("abc abc", ["abc"])).toBe("abc abc");
  });

  it("scrubs nested data", () => {
    const value = { meta: { tail: [`x ${b64(SECRET)}`] }, n: 3 };
    expect(JSON.stringify(scrubDeep(value, [SECRET]))).not.toContain(b64(SECRET).slice(0, 12));
  });

  it("a loop's redactor scrubs every adapter's secrets from any adapter's text", () => {
    const redactor = new SecretRedactor();
    redactor.add(["agent-token-123456"]);
    expect(redactor.scrub("verifier saw agent-token-123456", ["verifier-key-7890"])).toBe(`verifier saw ${REDACTED}`);
    expect(redactor.scrub("verifier-key-7890", ["verifier-key-7890"])).toBe(REDACTED);
  });
});
