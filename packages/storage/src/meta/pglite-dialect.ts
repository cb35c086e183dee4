// A Kysely dialect over embedded PGlite. PGlite is one connection, so the driver hands it out
// under a mutex: a transaction owns it until commit or rollback, and other queries wait.
import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => next);
    return acquired;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(readonly pg: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const r = await this.pg.query<R>(q.sql, [...q.parameters]);
    return {
      rows: r.rows,
      ...(r.affectedRows !== undefined ? { numAffectedRows: BigInt(r.affectedRows) } : {}),
    };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered by this driver
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported on PGlite");
  }
}

class PGliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(private readonly pg: PGlite) {}
  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    const conn = new PGliteConnection(this.pg);
    this.#releases.set(conn, release);
    return conn;
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("begin"));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.#releases.get(conn)?.();
    this.#releases.delete(conn);
  }
  async destroy(): Promise<void> {
    await this.pg.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector accepts any schema
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
