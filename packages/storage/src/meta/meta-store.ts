// The MetaStore: one set of repositories over one Kysely database, which is either embedded
// PGlite (the default) or PostgreSQL (DATABASE_URL). Same schema, same migrations, same code.
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import { migrateMeta } from "./migrations.js";
import { PGliteDialect } from "./pglite-dialect.js";
import { SchemaPostgresDialect } from "./schema-dialect.js";
import { accountsRepo } from "./repos/accounts.js";
import { apiKeysRepo } from "./repos/api-keys.js";
import { auditRepo } from "./repos/audit.js";
import { billingRepo } from "./repos/billing.js";
import { goalsRepo } from "./repos/goals.js";
import { insightsRepo } from "./repos/insights.js";
import { invitationsRepo } from "./repos/invitations.js";
import { membersRepo } from "./repos/members.js";
import { outboxRepo } from "./repos/outbox.js";
import { passwordResetsRepo } from "./repos/password-resets.js";
import { propertiesRepo } from "./repos/properties.js";
import { saltsRepo } from "./repos/salts.js";
import { sharedLinksRepo } from "./repos/shared-links.js";
import { tokensRepo } from "./repos/tokens.js";
import { usersRepo } from "./repos/users.js";
import type { MetaDatabase } from "./tables.js";

/**
 * PGlite: `dir` null is in memory; `template` is a directory holding an empty, migrated PGlite
 * database that a new `dir` starts as a copy of (createMetaTemplate).
 */
export type MetaConfig =
  | { kind: "pglite"; dir: string | null; template?: string }
  | { kind: "postgres"; url: string; schema?: string };

function repos(db: Kysely<MetaDatabase>) {
  return {
    users: usersRepo(db),
    accounts: accountsRepo(db),
    properties: propertiesRepo(db),
    tokens: tokensRepo(db),
    apiKeys: apiKeysRepo(db),
    resets: passwordResetsRepo(db),
    outbox: outboxRepo(db),
    audit: auditRepo(db),
    goals: goalsRepo(db),
    insights: insightsRepo(db),
    salts: saltsRepo(db),
    sharedLinks: sharedLinksRepo(db),
    members: membersRepo(db),
    invitations: invitationsRepo(db),
    billing: billingRepo(db),
  };
}

export type MetaStore = ReturnType<typeof repos> & {
  readonly kind: MetaConfig["kind"];
  readonly db: Kysely<MetaDatabase>;
  close(): Promise<void>;
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Metadata is small (users, properties, tokens): PostgreSQL's default 128 MB of shared buffers
 * would only inflate the process (DESIGN.md §8 wants under 300 MB idle). Measured on PGlite
 * 0.5: 360 MB -> 235 MB resident after open.
 */
const PGLITE_CONF = "shared_buffers = 16MB\nwal_buffers = 1MB\nwork_mem = 2MB\nmaintenance_work_mem = 16MB\n";

async function openDb(config: MetaConfig): Promise<Kysely<MetaDatabase>> {
  if (config.kind === "pglite") {
    let created = config.dir !== null && !existsSync(join(config.dir, "PG_VERSION"));
    if (config.dir) mkdirSync(config.dir, { recursive: true });
    if (created && config.dir && config.template) {
      // Copying ~40 MB of files instead of running PostgreSQL's initdb in WebAssembly: 0.8
      // against 7.9 s of CPU, measured on the 2-core test machine under load.
      if (!existsSync(join(config.template, "PG_VERSION"))) throw new Error(`${config.template} holds no PGlite database`);
      cpSync(config.template, config.dir, { recursive: true });
      created = false;
    }
    const open = () => new PGlite(config.dir ?? undefined, { postgresqlconf: PGLITE_CONF });
    let pglite = open();
    if (created) {
      // Creating the database grows PGlite's WebAssembly memory, which never shrinks; a second
      // instance on the new files starts small, and the first one's memory goes with a full GC.
      // A server's first start: 314-423 MB idle before, 326-348 MB after (a restart: ~275 MB).
      await pglite.waitReady;
      await pglite.close();
      pglite = open();
    }
    return new Kysely<MetaDatabase>({ dialect: new PGliteDialect(pglite) });
  }
  const schema = config.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  // pg loads only for a PostgreSQL store: the embedded default never needs it.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<MetaDatabase>({
    dialect: schema ? new SchemaPostgresDialect({ pool }, schema) : new PostgresDialect({ pool }),
  });
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  return db;
}

/** Opens the metadata store and brings its schema up to date. */
export async function openMetaStore(config: MetaConfig): Promise<MetaStore> {
  const db = await openDb(config);
  try {
    await migrateMeta(db, config.kind === "postgres" ? config.schema : undefined);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { kind: config.kind, db, ...repos(db), close: () => db.destroy() };
}

/**
 * Creates at `dir` an empty PGlite metadata database with every migration applied, for
 * `template`: a process that makes many fresh databases (the test suite: every test server, CLI
 * run and test app starts with one) copies it instead of initializing PostgreSQL each time.
 */
export async function createMetaTemplate(dir: string): Promise<void> {
  const meta = await openMetaStore({ kind: "pglite", dir });
  await meta.close();
}
