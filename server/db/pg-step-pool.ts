// PostgreSQL's lean connections: one pg pool per opened database, beside
// Prisma's, shared by the step commit (step-commit-drivers.ts) and the
// PostgreSQL loop store's single statements (postgres-loop-store.ts). Statements are prepared once per
// connection by name; the pool is ended with the database.
import pg from "pg";

/** How many step-commit batches run at once, each on its own connection. */
export const PG_STEP_POOL = 4;
/**
 * Connections of the lean pool (beside Prisma's): the batches' plus as many
 * for single statements, so a read never queues behind four busy batches.
 */
export const PG_LEAN_CONNECTIONS = 2 * PG_STEP_POOL;

/** `?` placeholders, as the step SQL writes them. */
export interface PgStatement {
  sql: string;
  params: unknown[];
}

/** Numbers `?` placeholders for PostgreSQL (the lean SQL has no literals that contain one). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** Logs a dropped pooled connection instead of letting it become an unhandled 'error' event. */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", (error: Error) =>
      console.warn(`postgresql step client error (retried on next use): ${error.message}`),
    );
  }
}

export class PgStepPool {
  readonly pool: pg.Pool;
  private readonly names = new Map<string, { name: string; text: string }>();

  constructor(url: string, max: number) {
    this.pool = new pg.Pool({
      connectionString: url,
      max,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      Client: GuardedClient,
      // Queries given together go out together (PgStepDriver sends BEGIN or a
      // savepoint on the same write as the statement behind it); a client used
      // one query at a time behaves as without it.
      ...({ pipeline: true } as object),
    });
    this.pool.on("error", (error) =>
      console.warn(`postgresql step pool error (retried on next use): ${error.message}`),
    );
  }

  /** The statement's query config: its name on every connection, its numbered text. */
  named({ sql, params }: PgStatement): pg.QueryConfig {
    let named = this.names.get(sql);
    if (!named) this.names.set(sql, (named = { name: `ralph_step_${this.names.size}`, text: numbered(sql) }));
    return { name: named.name, text: named.text, values: params };
  }

  /** One statement on its own (autocommit) on a pooled client. */
  async run<R extends Record<string, unknown>>(statement: PgStatement): Promise<{ changes: number; rows: R[] }> {
    const result = await this.pool.query<R>(this.named(statement));
    return { changes: result.rowCount ?? 0, rows: result.rows };
  }

  end() {
    return this.pool.end();
  }
}
