// Versioned metadata migrations, run on every start. PGlite is Postgres, so one list serves both
// the embedded store and PostgreSQL. Append new migrations; never edit a shipped one. Each one is a
// file of its own in migrations/ (NNNN_name.ts, exporting `migration`) plus one line in
// META_MIGRATIONS below; Kysely runs them in the order of their names.
import { type Migration, type MigrationProvider, Migrator } from "kysely";

import { migration as m0001_initial } from "./migrations/0001_initial.js";
import { migration as m0002_settings } from "./migrations/0002_settings.js";
import { migration as m0003_jobs } from "./migrations/0003_jobs.js";
import { migration as m0004_settings_reports } from "./migrations/0004_settings_reports.js";
import { migration as m0005_report_deliveries } from "./migrations/0005_report_deliveries.js";
import { migration as m0006_team } from "./migrations/0006_team.js";
import { migration as m0007_insights } from "./migrations/0007_insights.js";
import { migration as m0008_billing } from "./migrations/0008_billing.js";
import type { AnyDb } from "./migrations/any-db.js";

export const META_MIGRATIONS: Record<string, Migration> = {
  "0001_initial": m0001_initial,
  "0002_settings": m0002_settings,
  "0003_jobs": m0003_jobs,
  "0004_settings_reports": m0004_settings_reports,
  "0005_report_deliveries": m0005_report_deliveries,
  "0006_team": m0006_team,
  "0007_insights": m0007_insights,
  "0008_billing": m0008_billing,
};

class InCodeProvider implements MigrationProvider {
  async getMigrations() {
    return META_MIGRATIONS;
  }
}

/**
 * Brings the store up to date. `schema` names the PostgreSQL schema the store lives in: Kysely
 * otherwise looks for its bookkeeping tables in every schema of the database, finds another
 * store's and skips creating its own (two stores in one database then failed to migrate).
 */
export async function migrateMeta(db: AnyDb, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`metadata migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
