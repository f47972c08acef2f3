// Developer tooling around Prisma's wasm schema engine, which works offline
// through a driver adapter (the native engine would have to be downloaded).
// Used to write new migrations and to prove migrations and schema agree.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { DatabaseTarget } from "../database-target";

type WasmBindings = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
type Engine = WasmBindings["SchemaEngine"]["prototype"];

let bindings: Promise<WasmBindings> | undefined;

async function loadBindings(): Promise<WasmBindings> {
  // The package's entry imports the .wasm as an ES module, which Node 20 cannot
  // do; instantiate it by hand with the generated glue as its import object.
  const glueUrl = import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = (await import(glueUrl)) as WasmBindings & Record<string, unknown>;
  const wasmPath = fileURLToPath(glueUrl.replace(/schema_engine_bg\.js$/, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
    "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
  });
  (glue.__wbg_set_wasm as (exports: unknown) => void)(instance.exports);
  (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  return glue;
}

// adapter-pg cannot map PostgreSQL's internal "char" type (OID 18), which the
// engine's introspection queries return; report it as text (OID 25).
function patchCharOid(result: unknown) {
  const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
  for (const f of fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
  return result;
}

function patchedPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const wrap = (target: { query: (...a: unknown[]) => unknown }) => {
    const original = target.query.bind(target);
    target.query = (...args: unknown[]) => {
      const out = original(...args);
      return out instanceof Promise ? out.then(patchCharOid) : out;
    };
  };
  wrap(pool as unknown as { query: (...a: unknown[]) => unknown });
  pool.on("connect", (client) => wrap(client as unknown as { query: (...a: unknown[]) => unknown }));
  return pool;
}

export interface SchemaEngineSession {
  engine: Engine;
  close(): Promise<void>;
}

export async function openSchemaEngine(target: DatabaseTarget, datamodel: string): Promise<SchemaEngineSession> {
  bindings ??= loadBindings();
  const { SchemaEngine } = await bindings;
  let pool: pg.Pool | undefined;
  const factory =
    target.kind === "sqlite"
      ? new PrismaBetterSqlite3({ url: target.url })
      : new PrismaPg((pool = patchedPool(target.url)));
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await SchemaEngine.new({ datamodels: [["schema.prisma", datamodel]] }, () => {}, adapter);
  return {
    engine,
    async close() {
      engine.free();
      // free() leaves the SQLite handle open (in exclusive locking mode); the
      // process exit closes it, and tooling runs in short-lived processes.
      await pool?.end();
    },
  };
}

/**
 * The SQL that takes the database at `target` to `datamodel`; "" when they agree.
 * An empty answer from a database built only from committed migrations proves
 * there is no drift.
 */
export async function diffDatabaseToSchema(target: DatabaseTarget, datamodel: string): Promise<string> {
  const session = await openSchemaEngine(target, datamodel);
  try {
    const result = await session.engine.diff({
      // "schemaDatasource" means the database behind the driver adapter.
      from: { tag: "schemaDatasource", files: [{ path: "schema.prisma", content: datamodel }], configDir: "." },
      to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: datamodel }] },
      script: true,
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    const script = (result.stdout ?? "").trim();
    return result.exitCode === 0 || /^-- This is an empty migration\.?$/.test(script) ? "" : script;
  } finally {
    await session.close();
  }
}
