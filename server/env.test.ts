import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("defaults to the embedded SQLite database on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBe("file:./data/ralph.db");
    expect(env.PORT).toBe(3000);
  });

  it("treats an empty DATABASE_URL as unset", () => {
    expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBe("file:./data/ralph.db");
  });

  it.each([
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ PORT: "seventy" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ RALPH_APP_CONCURRENCY: "0" }, "RALPH_APP_CONCURRENCY"],
    [{ RALPH_APP_CONCURRENCY: "many" }, "RALPH_APP_CONCURRENCY"],
    [{ RALPH_APP_DISPATCH: "sometimes" }, "RALPH_APP_DISPATCH"],
  ])("names the bad variable in %j", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(EnvError);
    expect(() => parseEnv(source)).toThrow(new RegExp(`${variable}:`));
  });

  it("bounds app slices like worker slices, and dispatches in-process by default", () => {
    const env = parseEnv({});
    expect(env.RALPH_APP_CONCURRENCY).toBe(50);
    expect(env.RALPH_APP_DISPATCH).toBe("auto");
    expect(parseEnv({ RALPH_APP_CONCURRENCY: "4" }).RALPH_APP_CONCURRENCY).toBe(4);
  });

  it("accepts PostgreSQL URLs", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h:5432/d" }).DATABASE_URL).toBe("postgresql://u@h:5432/d");
  });

  it("reads the agent isolation settings, and refuses to give agents the server's own configuration", () => {
    const env = parseEnv({
      RALPH_AGENT_ENV_ALLOW: "OPENAI_API_KEY, ANTHROPIC_API_KEY",
      RALPH_AGENT_ALLOW_HOSTS: "127.0.0.1:11434,Ollama.Internal",
      RALPH_WORKSPACE_ROOTS: "/srv/repos",
    });
    expect(env.RALPH_AGENT_SANDBOX).toBe("on");
    expect(env.RALPH_AGENT_ENV_ALLOW).toEqual(["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]);
    expect(env.RALPH_AGENT_ALLOW_HOSTS).toEqual(["127.0.0.1:11434", "ollama.internal"]);
    expect(env.RALPH_WORKSPACE_ROOTS).toEqual(["/srv/repos"]);
    for (const name of ["DATABASE_URL", "RALPH_SECRET_KEY", "PGPASSWORD", "PORT"]) {
      expect(() => parseEnv({ RALPH_AGENT_ENV_ALLOW: name })).toThrow(/RALPH_AGENT_ENV_ALLOW:/);
    }
    expect(() => parseEnv({ RALPH_WORKSPACE_ROOTS: "relative/dir" })).toThrow(/RALPH_WORKSPACE_ROOTS:/);
  });
});
