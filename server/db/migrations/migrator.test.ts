import { describe, expect, it } from "vitest";
import { compareMigrations, describeMigrationState } from "./migrator";

const file = (name: string, checksum = `sum-${name}`) => ({ name, sql: "", checksum });
const applied = (name: string, extra: Partial<{ checksum: string; finished: boolean; rolledBack: boolean }> = {}) => ({
  name,
  checksum: `sum-${name}`,
  finished: true,
  rolledBack: false,
  ...extra,
});

describe("compareMigrations", () => {
  it.each([
    ["nothing applied", [file("a"), file("b")], [], "pending: a, b"],
    ["all applied", [file("a")], [applied("a")], "up-to-date"],
    ["one behind", [file("a"), file("b")], [applied("a")], "pending: b"],
    ["edited after applying", [file("a", "other")], [applied("a")], "modified after it was applied: a"],
    ["half-applied", [file("a")], [applied("a", { finished: false })], "failed and not rolled back: a"],
    ["rolled back, then pending", [file("a")], [applied("a", { rolledBack: true, finished: false })], "pending: a"],
    ["applied elsewhere", [file("a")], [applied("a"), applied("z")], "applied but not in this checkout: z"],
  ])("%s", (_name, files, rows, expected) => {
    expect(describeMigrationState(compareMigrations(files, rows))).toBe(expected);
  });
});
