import { describe, expect, it } from "vitest";
import { resolveDatabaseTarget } from "./database-target";

describe("resolveDatabaseTarget", () => {
  it.each([
    ["file:./data/ralph.db", "/srv/app", { kind: "sqlite", file: "/srv/app/data/ralph.db" }],
    ["file:/var/lib/ralph.db", "/srv/app", { kind: "sqlite", file: "/var/lib/ralph.db" }],
    ["file:rel.db?mode=x", "/srv", { kind: "sqlite", file: "/srv/rel.db" }],
    ["postgresql://u@h/db", "/srv", { kind: "postgresql", url: "postgresql://u@h/db" }],
    ["postgres://u@h/db", "/srv", { kind: "postgresql", url: "postgres://u@h/db" }],
  ])("%s", (url, cwd, expected) => {
    expect(resolveDatabaseTarget(url, cwd)).toMatchObject(expected);
  });

  it("rejects other schemes and empty paths", () => {
    expect(() => resolveDatabaseTarget("mysql://x", "/")).toThrow(/DATABASE_URL/);
    expect(() => resolveDatabaseTarget("file:", "/")).toThrow(/needs a path/);
  });
});
