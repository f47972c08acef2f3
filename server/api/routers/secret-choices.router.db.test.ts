// The New-loop form's stored-secret picker, through the router as the form
// calls it: per secret the template's agent needs, the stored secrets this
// user may pick (by name, within each secret's scope), which one is chosen,
// and which the preflight would link by name; viewers get none of it.
import { randomBytes, randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { expect, it } from "vitest";
import { callerAs } from "../../../test/auth-fixtures";
import { describeEachProvider } from "../../../test/db-providers";
import type { Actor } from "../../auth/actor";
import { loopTemplates } from "../../loops/loop-templates";
import { secretKeyFrom } from "../../secrets/secret-box";
import type { SecretScope } from "../../secrets/secret-scope";
import { setSecret } from "../../secrets/secrets.service";

const operator: Actor = { id: "op", email: "op@secrets.test", name: "op", role: "operator" };
const admin: Actor = { ...operator, id: "ad", email: "ad@secrets.test", role: "admin" };
const viewer: Actor = { ...operator, id: "vi", email: "vi@secrets.test", role: "viewer" };
const claude = loopTemplates().find((t) => t.id === "claude-code-tests")!.definition as {
  agent: Record<string, unknown>;
};

describeEachProvider("loops.secretChoices", ({ db }) => {
  const key = secretKeyFrom(randomBytes(32));
  const store = (name: string, scope: SecretScope) =>
    setSecret(db(), key, { name, kind: "provider_key", value: `sk-${name}-123456`, actorId: null, scope }, randomUUID);

  it("offers the stored secrets the user may use, by name, and says which one is linked by name", async () => {
    await store("ANTHROPIC_API_KEY", { roles: ["operator"], kinds: [], hosts: [] });
    await store("TEAM_CLAUDE_KEY", { roles: ["operator"], kinds: ["command"], hosts: [] });
    // Not offered to operators: admins only, or for another kind of adapter.
    await store("ADMIN_ONLY_KEY", { roles: [], kinds: [], hosts: [] });
    await store("LLM_ONLY_KEY", { roles: ["operator"], kinds: ["llm"], hosts: [] });

    const slots = await callerAs(db(), operator).loops.secretChoices({ agent: claude.agent } as never);
    expect(slots).toEqual([
      {
        path: ["agent", "secrets", 0, "secret"],
        variable: "ANTHROPIC_API_KEY",
        chosen: null,
        byName: "ANTHROPIC_API_KEY",
        options: ["ANTHROPIC_API_KEY", "TEAM_CLAUDE_KEY"],
      },
    ]);
    // An admin may pick any secret for a command agent; the one chosen is reported as chosen.
    const chosen = { ...claude.agent, secrets: [{ name: "ANTHROPIC_API_KEY", secret: "ADMIN_ONLY_KEY" }] };
    const [slot] = await callerAs(db(), admin).loops.secretChoices({ agent: chosen } as never);
    expect(slot).toMatchObject({
      chosen: "ADMIN_ONLY_KEY",
      options: ["ADMIN_ONLY_KEY", "ANTHROPIC_API_KEY", "TEAM_CLAUDE_KEY"],
    });
    // An LLM agent's key: one slot, the llm-scoped secret offered too.
    const [llm] = await callerAs(db(), operator).loops.secretChoices({
      agent: { kind: "llm", provider: "anthropic", model: "claude-sonnet-4-5" },
    } as never);
    expect(llm).toMatchObject({
      path: ["agent", "apiKeySecret"],
      variable: "ANTHROPIC_API_KEY",
      byName: "ANTHROPIC_API_KEY",
      options: ["ANTHROPIC_API_KEY", "LLM_ONLY_KEY"],
    });
    // No secret needed, no slot.
    expect(await callerAs(db(), operator).loops.secretChoices({ agent: { kind: "demo" } } as never)).toEqual([]);
  });

  it("is for those who can create loops: a viewer is refused", async () => {
    const refused = await callerAs(db(), viewer)
      .loops.secretChoices({ agent: claude.agent } as never)
      .then(
        () => "OK",
        (e: unknown) => (e instanceof TRPCError ? e.code : String(e)),
      );
    expect(refused).toBe("FORBIDDEN");
  });
});
