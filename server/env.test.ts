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
  ])("names the bad variable in %j", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(EnvError);
    expect(() => parseEnv(source)).toThrow(new RegExp(`${variable}:`));
  });

  it("accepts PostgreSQL URLs", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://u@h:5432/d" }).DATABASE_URL).toBe("postgresql://u@h:5432/d");
  });
});
