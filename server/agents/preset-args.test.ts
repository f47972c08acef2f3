// The arguments the presets derive for today's CLIs (checked by hand against
// claude 2.1.332 and codex 0.171.0, and end to end in test/real-cli/).
import { describe, expect, it } from "vitest";
import { commandAgentSchema } from "./command.schema";
import { presetArgv } from "./command.executor";

const config = (c: Record<string, unknown>) => commandAgentSchema.parse({ kind: "command", ...c });

describe("Codex preset", () => {
  it("inside our sandbox: bypasses Codex's own (it cannot nest), skips the git check, runs the loop's model", () => {
    expect(presetArgv(config({ preset: "codex", model: "gpt-5.5" }), true)).toEqual({
      argv: [
        "codex",
        "exec",
        "--json",
        "--dangerously-bypass-approvals-and-sandbox",
        "--skip-git-repo-check",
        "-m",
        "gpt-5.5",
      ],
      warnings: [],
    });
  });

  it("drops --full-auto (Codex 0.171 refuses it) with a warning; keeps Codex's sandbox when ours is off", () => {
    const { argv, warnings } = presetArgv(
      config({ preset: "codex", extraArgs: ["--full-auto", "--skip-git-repo-check"] }),
      false,
    );
    expect(argv).toEqual(["codex", "exec", "--json", "--sandbox", "workspace-write", "--skip-git-repo-check"]);
    expect(warnings).toEqual([expect.stringContaining("--full-auto was dropped")]);
  });

  it("turns OPENAI_BASE_URL (ignored by Codex) into a provider reading the key the loop passes", () => {
    const { argv } = presetArgv(
      config({
        preset: "codex",
        env: { OPENAI_BASE_URL: "http://gateway:4000/v1" },
        secrets: [{ name: "CODEX_API_KEY", env: "OPENAI_API_KEY" }],
      }),
      true,
    );
    expect(argv.join(" ")).toContain(
      '-c model_providers.ralph.name="Ralph provider" -c model_providers.ralph.base_url="http://gateway:4000/v1" ' +
        '-c model_providers.ralph.wire_api="responses" -c model_providers.ralph.env_key="CODEX_API_KEY" -c model_provider="ralph"',
    );
  });

  it("leaves the operator's own -m and sandbox flags alone", () => {
    const { argv } = presetArgv(
      config({ preset: "codex", model: "gpt-5.5", extraArgs: ["-m", "o3", "-s", "read-only"] }),
      true,
    );
    expect(argv).toEqual(["codex", "exec", "--json", "--skip-git-repo-check", "-m", "o3", "-s", "read-only"]);
  });
});

describe("Claude Code preset", () => {
  it("streams partial messages and runs the loop's model", () => {
    expect(presetArgv(config({ preset: "claude-code", model: "claude-sonnet-4-5" }), true).argv).toEqual([
      "claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
      "--model",
      "claude-sonnet-4-5",
    ]);
  });

  it("an explicit argv is taken as is", () => {
    expect(presetArgv(config({ preset: "claude-code", argv: ["./fake-claude.sh"], model: "x" }), true).argv).toEqual([
      "./fake-claude.sh",
    ]);
  });
});
