// Test support for the job queue: a fresh metadata database per engine (a PGlite directory, or a
// PostgreSQL database), removed after the file's tests, and a fake clock. PostgreSQL is required:
// requirePostgres throws when it is missing, so these tests fail loudly instead of skipping.
//
// A database, not a schema: Kysely's Migrator (without `migrationTableSchema`) looks for its
// kysely_migration tables in every schema, so while another schema of the same database holds
// them (another suite running at the same time), migrating a new schema fails with
// `relation "kysely_migration_lock" does not exist`.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { type MetaStore, openMetaStore } from "../meta/meta-store.js";
import { pgliteTemplate, requirePostgres } from "../test-services.js";

export interface TestDatabase {
  /** Opens a MetaStore on this database; on PostgreSQL several may be open at once (N servers). */
  open(): Promise<MetaStore>;
  /** PostgreSQL: a second open() is a second server with its own connections. */
  readonly multiServer: boolean;
}

export interface TestEngine {
  name: "PGlite" | "PostgreSQL";
  fresh(): Promise<TestDatabase>;
}

/** The two metadata engines; call at the top of a test file (registers cleanup). */
export function testEngines(): TestEngine[] {
  const dirs: string[] = [];
  const databases: string[] = [];
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: await requirePostgres() });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (!databases.length) return;
    await admin(async (c) => {
      for (const d of databases) await c.query(`drop database if exists ${d} with (force)`);
    });
  });
  return [
    {
      name: "PGlite",
      async fresh() {
        const dir = mkdtempSync(join(tmpdir(), "lookout-jobs-"));
        dirs.push(dir);
        return { open: () => openMetaStore({ kind: "pglite", dir, ...pgliteTemplate() }), multiServer: false };
      },
    },
    {
      name: "PostgreSQL",
      async fresh() {
        const url = new URL(await requirePostgres());
        const name = `lookout_jobs_${randomBytes(6).toString("hex")}`;
        await admin((c) => c.query(`create database ${name}`));
        databases.push(name);
        url.pathname = `/${name}`;
        return { open: () => openMetaStore({ kind: "postgres", url: url.href }), multiServer: true };
      },
    },
  ];
}

export function fakeClock(start = new Date("2026-03-01T09:00:00.000Z")) {
  let t = start.getTime();
  return {
    now: (): Date => new Date(t),
    advance(ms: number): void {
      t += ms;
    },
  };
}
