// The layering rules are lint rules; this proves they really fire.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });
const ruleIds = async (code: string, filePath: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => m.ruleId);

describe("boundary lint", () => {
  it.each([
    ['import { headers } from "next/headers";\nexport const x = headers;\n', "no-restricted-imports"],
    ['import { TRPCError } from "@trpc/server";\nexport const x = TRPCError;\n', "no-restricted-imports"],
    ['import { PrismaClient } from "@prisma/client";\nexport const x = PrismaClient;\n', "no-restricted-imports"],
    ['import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n', "no-restricted-imports"],
    ['import { getEnv } from "../env";\nexport const x = getEnv;\n', "no-restricted-imports"],
    ["export const x = process.env.HOME;\n", "no-restricted-syntax"],
  ])("server/engine refuses %s", async (code, rule) => {
    expect(await ruleIds(code, "server/engine/probe.ts")).toContain(rule);
  });

  it("keeps Prisma inside server/db and pages away from server internals", async () => {
    expect(await ruleIds('import { Prisma } from "@prisma/client";\nexport const x = Prisma;\n', "server/loops/probe.ts")).toContain(
      "no-restricted-imports",
    );
    expect(await ruleIds('import { getDatabase } from "@/server/db/database";\nexport const x = getDatabase;\n', "components/probe.tsx")).toContain(
      "no-restricted-imports",
    );
    expect(await ruleIds('import { Prisma } from "./generated/sqlite/client";\nexport const x = Prisma;\n', "server/db/probe.ts")).toEqual([]);
  });
});
