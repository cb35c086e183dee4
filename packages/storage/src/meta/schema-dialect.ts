// PostgreSQL for a metadata store kept in a schema of its own: Kysely's Migrator looks for its
// bookkeeping tables through the dialect's introspector, whose table list reads every table of the
// database with pg_get_serial_sequence on each. A schema another process drops meanwhile (a test's,
// or another store's) then fails the migration with `schema "x" does not exist` (seen in CI, and
// reproduced with schemas dropped in a loop beside a migration). This dialect's table list reads
// only the store's own schema, which is all the Migrator asks about.
import {
  type DatabaseIntrospector,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  sql,
  type TableMetadata,
} from "kysely";

export class SchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;

  constructor(config: PostgresDialectConfig, schema: string) {
    super(config);
    this.#schema = schema;
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    const base = super.createIntrospector(db);
    const schema = this.#schema;
    return {
      getSchemas: () => base.getSchemas(),
      getMetadata: (options) => base.getMetadata(options),
      // The tables and views of the store's schema (no columns: the Migrator reads names only).
      getTables: async (): Promise<TableMetadata[]> => {
        const { rows } = await sql<{ name: string; kind: string }>`
          select c.relname as name, c.relkind as kind from pg_catalog.pg_class c
          join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
          where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p')`.execute(db);
        return rows.map((r) => ({ name: r.name, schema, isView: r.kind === "v", columns: [] }));
      },
    };
  }
}
