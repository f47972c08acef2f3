// The layering rules are lint rules; this proves each one really fires, and
// that the tree as it stands passes them. Import rules are dependency-cruiser's
// (.dependency-cruiser.mjs, .dependency-cruiser.dev.mjs): each probe below is a
// real file written into the tree for the duration of one run. ESLint checks
// what imports cannot show (queries through a handed-in client, the engine
// reading the clock).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = process.cwd();
const run = promisify(execFile);

interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

async function depcruise(config: string, paths: string[]): Promise<Violation[]> {
  const bin = join(ROOT, "node_modules/.bin/depcruise");
  const args = ["--config", config, "--output-type", "json", ...paths];
  // Exit status 1 means "violations found"; the JSON says which.
  const { stdout } = await run(bin, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string; code?: number }) => {
      if (error.code === 1 && error.stdout) return { stdout: error.stdout };
      throw error;
    },
  );
  const { violations } = (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary;
  // Known violations (the baseline) come back with severity "ignore".
  return violations.filter((v) => v.rule.severity !== "ignore");
}

const tag = randomBytes(4).toString("hex");
const probe = (dir: string, name: string, ext = "ts") => `${dir}/__probe-${tag}-${name}.${ext}`;

/** Probe files, each breaking one rule (or, the last ones, breaking none). */
const PROBES = {
  prismaInLoops: probe("server/loops", "prisma"),
  pgInEvents: probe("server/events", "pg"),
  prismaPackageInApi: probe("server/api", "prisma-package"),
  deepEngine: probe("server/loops", "deep-engine"),
  engineFs: probe("server/engine", "fs"),
  engineDb: probe("server/engine", "db"),
  dbAboveItself: probe("server/db", "above"),
  folderCycleA: probe("server/events", "cycle-a"),
  folderCycleB: probe("server/loops", "cycle-b"),
  folderCycleC: probe("server/loops", "cycle-c"),
  folderCycleD: probe("server/events", "cycle-d"),
  fileCycleA: probe("server/loops", "file-cycle-a"),
  fileCycleB: probe("server/loops", "file-cycle-b"),
  componentRelative: probe("components/loops", "relative", "tsx"),
  componentAlias: probe("components/loops", "alias", "tsx"),
  componentRouterValue: probe("components/loops", "router-value", "tsx"),
  libToServer: probe("lib/charts", "server"),
  pageToJobs: probe("app/loops", "jobs", "tsx"),
  shippedToTest: probe("server/loops", "to-test"),
  unresolved: probe("server/loops", "unresolved"),
  // Allowed: the browser may know the router's type.
  componentRouterType: probe("components/loops", "router-type", "tsx"),
  // Allowed: a service uses the engine's index and a repository.
  serviceOk: probe("server/loops", "ok"),
  // Dev code: tests may cross layers, but not deep-import the engine or use Prisma directly.
  testDeepEngine: probe("server/loops", "deep.test"),
  testPrisma: probe("test", "prisma"),
  testCrossesLayers: probe("server/engine", "layers.test"),
} as const;

const rel = (from: string, to: string) => {
  const up = from.split("/").length - 1;
  return `${"../".repeat(up)}${to}`;
};

const SOURCES: Record<keyof typeof PROBES, string> = {
  prismaInLoops: `import { Prisma } from "../db/generated/sqlite/client";\nexport const x = Prisma;\n`,
  pgInEvents: `import pg from "pg";\nexport const x = pg;\n`,
  prismaPackageInApi: `import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";\nexport const x = PrismaBetterSqlite3;\n`,
  deepEngine: `import type { AgentPort } from "../engine/ports";\nexport type X = AgentPort;\n`,
  engineFs: `import { readFileSync } from "node:fs";\nexport const x = readFileSync;\n`,
  engineDb: `import type { Database } from "../db/client";\nexport type X = Database;\n`,
  dbAboveItself: `import type { LoopServices } from "../loops/loop-services";\nexport type X = LoopServices;\n`,
  folderCycleA: `import { b } from "../loops/__probe-${tag}-cycle-b";\nexport const a = b;\n`,
  folderCycleB: `export const b = 1;\n`,
  folderCycleC: `import { d } from "../events/__probe-${tag}-cycle-d";\nexport const c = d;\n`,
  folderCycleD: `export const d = 1;\n`,
  fileCycleA: `import { b } from "./__probe-${tag}-file-cycle-b";\nexport const a = () => b;\n`,
  fileCycleB: `import { a } from "./__probe-${tag}-file-cycle-a";\nexport const b = () => a;\n`,
  componentRelative: `import { getDatabase } from "../../server/db/database";\nexport const x = getDatabase;\n`,
  componentAlias: `import { getDatabase } from "@/server/db/database";\nexport const x = getDatabase;\n`,
  componentRouterValue: `import { appRouter } from "@/server/api/root";\nexport const x = appRouter;\n`,
  libToServer: `import type { LoopServices } from "@/server/loops/loop-services";\nexport type X = LoopServices;\n`,
  pageToJobs: `import { getAppRuntime } from "@/server/jobs/app-runtime";\nexport const x = getAppRuntime;\n`,
  shippedToTest: `import { ROOT } from "../../test/db-providers";\nexport const x = ROOT;\n`,
  unresolved: `import { nothing } from "./no-such-module";\nexport const x = nothing;\n`,
  componentRouterType: `import type { AppRouter } from "@/server/api/root";\nexport type X = AppRouter;\n`,
  serviceOk: `import { createLoop } from "../engine";\nimport { loopById } from "../db/loops.repo";\nexport const x = [createLoop, loopById];\n`,
  testDeepEngine: `import { createLoop } from "../engine/loop-state";\nexport const x = createLoop;\n`,
  testPrisma: `import { PrismaClient } from "${rel(PROBES.testPrisma, "server/db/generated/sqlite/client")}";\nexport const x = PrismaClient;\n`,
  testCrossesLayers: `import { getDatabase } from "../db/database";\nexport const x = getDatabase;\n`,
};

describe("import rules (dependency-cruiser)", () => {
  let shipped: Violation[] = [];
  let dev: Violation[] = [];
  let tree: Violation[] = [];
  let devTree: Violation[] = [];

  beforeAll(async () => {
    // The tree first, before any probe exists.
    [tree, devTree] = await Promise.all([
      depcruise(".dependency-cruiser.mjs", ["."]),
      depcruise(".dependency-cruiser.dev.mjs", ["."]),
    ]);
    for (const [key, path] of Object.entries(PROBES)) {
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), SOURCES[key as keyof typeof PROBES]);
    }
    const files = Object.values(PROBES);
    [shipped, dev] = await Promise.all([
      depcruise(".dependency-cruiser.mjs", files),
      depcruise(".dependency-cruiser.dev.mjs", files),
    ]);
  }, 120_000);

  afterAll(() => {
    for (const path of Object.values(PROBES)) rmSync(join(ROOT, path), { force: true });
  });

  const rulesFrom = (violations: Violation[], from: string) =>
    violations.filter((v) => v.from === from).map((v) => v.rule.name);

  it.each([
    ["prismaInLoops", "storage-only-in-server-db"],
    ["pgInEvents", "storage-only-in-server-db"],
    ["prismaPackageInApi", "storage-only-in-server-db"],
    ["deepEngine", "engine-through-its-index"],
    ["engineFs", "engine-is-pure"],
    ["engineDb", "engine-is-pure"],
    ["dbAboveItself", "not-in-allowed"],
    ["folderCycleA", "not-in-allowed"],
    ["fileCycleA", "no-circular"],
    ["componentRelative", "not-in-allowed"],
    ["componentAlias", "not-in-allowed"],
    ["componentRouterValue", "not-in-allowed"],
    ["libToServer", "not-in-allowed"],
    ["pageToJobs", "not-in-allowed"],
    ["unresolved", "not-unresolvable"],
  ] as const)("shipped code: %s breaks %s", (key, rule) => {
    expect(rulesFrom(shipped, PROBES[key])).toContain(rule);
  });

  it("finds a cycle between folders even when no file cycle exists", () => {
    const folderCycles = shipped.filter((v) => v.rule.name === "no-folder-cycles").map((v) => [v.from, v.to]);
    expect(folderCycles).toContainEqual(["server/events", "server/loops"]);
    expect(rulesFrom(shipped, PROBES.folderCycleC)).toEqual([]);
  });

  it("lets the browser know the router's type, and services use the engine's index and repositories", () => {
    expect(rulesFrom(shipped, PROBES.componentRouterType)).toEqual([]);
    expect(rulesFrom(shipped, PROBES.serviceOk)).toEqual([]);
  });

  it("shipped code never imports dev code", () => {
    expect(rulesFrom(dev, PROBES.shippedToTest)).toContain("not-to-dev-code");
  });

  it("dev code may cross layers, but reaches the engine through its index and never Prisma directly", () => {
    expect(rulesFrom(dev, PROBES.testDeepEngine)).toContain("engine-through-its-index");
    expect(rulesFrom(dev, PROBES.testPrisma)).toContain("dev-storage-through-server-db");
    expect(rulesFrom(dev, PROBES.testCrossesLayers)).toEqual([]);
  });

  it("the tree as it stands passes both configurations", () => {
    expect(tree).toEqual([]);
    expect(devTree).toEqual([]);
  });
});

describe("code rules (ESLint)", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const ruleIds = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => m.ruleId);

  it.each([
    ["export const f = (tx: any) => tx.loop.findMany({});\n"],
    ["export const f = (db: any) => db.prisma.loop.count();\n"],
    ["export const f = (db: any) => db.prisma.$transaction(async () => 1);\n"],
    ["export const f = (tx: any) => tx.$queryRaw`SELECT 1`;\n"],
    ['export const f = (tx: any) => tx["controlRequest"].updateMany({});\n'],
  ])("refuses a query outside server/db: %s", async (code) => {
    expect(await ruleIds(code, "server/loops/probe.ts")).toContain("ralph/storage-boundary");
    expect(await ruleIds(code, "server/db/probe.ts")).not.toContain("ralph/storage-boundary");
  });

  it("lets services hand the client to a repository", async () => {
    const code =
      'import { listLoops } from "../db/loops.repo";\nexport const f = (db: any) => listLoops(db.prisma, {} as never);\n';
    expect(await ruleIds(code, "server/loops/probe.ts")).not.toContain("ralph/storage-boundary");
  });

  it.each([
    ["export const x = Date.now();\n", "no-restricted-properties"],
    ["export const x = Math.random();\n", "no-restricted-properties"],
    ["export const x = new Date();\n", "no-restricted-syntax"],
    ["export const x = () => setTimeout(() => undefined, 1);\n", "no-restricted-globals"],
    ["export const x = performance.now();\n", "no-restricted-globals"],
    ["export const x = process.env.HOME;\n", "no-restricted-syntax"],
  ])("server/engine refuses %s", async (code, rule) => {
    expect(await ruleIds(code, "server/engine/probe.ts")).toContain(rule);
  });

  it("reads configuration through server/env.ts only", async () => {
    expect(await ruleIds("export const x = process.env.HOME;\n", "server/loops/probe.ts")).toContain(
      "no-restricted-syntax",
    );
  });
});
