// The preflight before a loop starts: a stored secret named like the variable
// a template needs is linked by name (no id to type), a missing CLI or secret
// is named on the form, and a loop that would start without them is refused
// with the same words instead of failing its first iterations.
import { randomBytes, randomUUID } from "node:crypto";
import { afterEach, expect, it, vi } from "vitest";
import { describeEachProvider } from "../../test/db-providers";
import { createHarness, improvingAgent, type Harness } from "../../test/runtime-harness";
import { secretKeyFrom } from "../secrets/secret-box";
import { setSecret } from "../secrets/secrets.service";
import { createLoopFromDefinition } from "./loop-create.service";
import { loopDefinitionSchema } from "./loop-definition";
import { preflightDefinition } from "./loop-preflight.service";
import { LOCAL_OPERATOR } from "../auth/actor";

// Agents may read this server variable only because an admin listed it.
const ENV_KEY = "PREFLIGHT_ENV_KEY";
vi.stubEnv("RALPH_AGENT_ENV_ALLOW", ENV_KEY);

const operator = { actor: { ...LOCAL_OPERATOR, role: "operator" as const }, reason: null };
const definition = (agent: Record<string, unknown>) =>
  loopDefinitionSchema.parse({
    goal: "make the tests pass",
    agent: { kind: "command", ...agent },
    loop: { completion: { allowNoEvidence: true } },
  });

describeEachProvider("loop preflight", ({ db }) => {
  let h: Harness | undefined;
  afterEach(async () => {
    vi.stubEnv(ENV_KEY, "");
    await h?.stop();
  });

  it("names a missing CLI and a missing key, and refuses to start the loop", async () => {
    h = createHarness(db(), { command: improvingAgent() });
    const def = definition({
      argv: ["no-such-agent-cli-xyz", "-p"],
      secrets: [{ name: ENV_KEY }],
    });
    const { ok, checks } = await preflightDefinition(db(), def, operator);
    expect(ok).toBe(false);
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ["agent.command", "problem"],
      ["agent.secrets[0]", "problem"],
    ]);
    expect(checks[0]!.message).toMatch(/"no-such-agent-cli-xyz" is not installed on the server/);
    expect(checks[1]!.message).toMatch(/PREFLIGHT_ENV_KEY is not set: store a secret named PREFLIGHT_ENV_KEY/);
    await expect(createLoopFromDefinition(h.services, def, true, operator)).rejects.toThrow(
      /The loop cannot start: Command no-such-agent-cli-xyz: .*not installed.*Secret PREFLIGHT_ENV_KEY: /,
    );
    // A draft may wait for the CLI and the key.
    await expect(createLoopFromDefinition(h.services, def, false, operator)).resolves.toMatchObject({
      id: expect.any(String),
    });
  });

  it("finds the CLI on PATH and takes a stored secret of the variable's name, or the allowed variable", async () => {
    h = createHarness(db(), { command: improvingAgent() });
    const name = ENV_KEY;
    const def = definition({ argv: ["sh", "-c", "true"], secrets: [{ name }] });
    expect((await preflightDefinition(db(), def, operator)).ok).toBe(false);

    vi.stubEnv(name, "from-the-environment");
    const fromEnv = await preflightDefinition(db(), def, operator);
    expect(fromEnv.checks.map((c) => c.message)).toEqual([
      expect.stringMatching(/^found at \/.*\/sh$/),
      `from the server's environment variable ${name}`,
    ]);
    vi.stubEnv(name, "");

    await setSecret(
      db(),
      secretKeyFrom(randomBytes(32)),
      {
        name,
        kind: "provider_key",
        value: "sk-stored-value-123456",
        actorId: null,
        scope: { roles: ["operator"], kinds: [], hosts: [] },
      },
      randomUUID,
    );
    const stored = await preflightDefinition(db(), def, operator);
    expect(stored).toMatchObject({ ok: true });
    expect(stored.checks[1]!.message).toBe(`from the stored secret "${name}"`);
    // Created and started: the stored definition names the secret, so the run resolves it.
    const { id } = await createLoopFromDefinition(h.services, def, true, operator);
    const row = await db().prisma.loop.findUniqueOrThrow({ where: { id } });
    expect((row.config as { agent: { secrets: unknown[] } }).agent.secrets).toEqual([{ name, secret: name }]);
  });

  it("says how to sign in when a Claude Code or Codex agent has nothing to sign in with", async () => {
    const signIn = async (agent: Record<string, unknown>) =>
      (await preflightDefinition(db(), definition({ argv: ["sh"], ...agent }), operator)).checks.find(
        (c) => c.id === "agent.signIn",
      );
    const none = await signIn({ preset: "claude-code" });
    expect(none).toMatchObject({ status: "problem" });
    expect(none!.message).toMatch(/^Not logged in: .*own HOME.*claude setup-token.*CLAUDE_CODE_OAUTH_TOKEN/);
    expect(await signIn({ preset: "claude-code", secrets: [{ name: "CLAUDE_CODE_OAUTH_TOKEN" }] })).toMatchObject({
      status: "ok",
      message: "the agent signs in with CLAUDE_CODE_OAUTH_TOKEN",
    });
    // Another way in (Bedrock here) is not refused, only pointed out.
    expect(await signIn({ preset: "claude-code", env: { CLAUDE_CODE_USE_BEDROCK: "1" } })).toMatchObject({
      status: "warning",
    });
    const codex = await signIn({ preset: "codex" });
    expect(codex!.message).toMatch(/CODEX_AUTH_JSON/);
    expect(await signIn({ preset: "codex", secrets: [{ name: "CODEX_API_KEY", env: ENV_KEY }] })).toMatchObject({
      status: "ok",
    });
  });
});
