// A Codex ChatGPT login stored as a secret (CODEX_AUTH_JSON) lands in the loop's
// own HOME as ~/.codex/auth.json, leaves the environment, and is not written
// over the tokens Codex refreshed in that file unless the stored secret changed.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { placeCodexLogin } from "./isolated-process";

const home = mkdtempSync(join(tmpdir(), "ralph-codex-login-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const auth = join(home, ".codex", "auth.json");

it("writes the login once per stored value, private to the agent's user, and takes it out of the environment", () => {
  const env: Record<string, string> = { CODEX_AUTH_JSON: '{"tokens":{"refresh_token":"r1"}}', PATH: "/usr/bin" };
  placeCodexLogin(home, env);
  expect(env).toEqual({ PATH: "/usr/bin" });
  expect(readFileSync(auth, "utf8")).toBe('{"tokens":{"refresh_token":"r1"}}');
  expect(statSync(auth).mode & 0o777).toBe(0o600);

  // Codex refreshed its tokens: the same stored secret does not undo that.
  writeFileSync(auth, '{"tokens":{"refresh_token":"r2"}}');
  placeCodexLogin(home, { CODEX_AUTH_JSON: '{"tokens":{"refresh_token":"r1"}}' });
  expect(readFileSync(auth, "utf8")).toBe('{"tokens":{"refresh_token":"r2"}}');

  // A new login stored by the operator replaces it.
  placeCodexLogin(home, { CODEX_AUTH_JSON: '{"tokens":{"refresh_token":"r3"}}' });
  expect(readFileSync(auth, "utf8")).toBe('{"tokens":{"refresh_token":"r3"}}');

  // No login passed: nothing touched.
  placeCodexLogin(home, {});
  expect(readFileSync(auth, "utf8")).toBe('{"tokens":{"refresh_token":"r3"}}');
});
