// The DuckDB store's migration, run at open (and by migrate()): creates the tables, brings files
// from before property keys up to date, loads the store's in-memory state (property keys, day
// rollup marks, the last batch), and rebuilds or catches up the rollups: recreated from `events`
// when ROLLUP_VERSION changed, else rolled up past the batches a crash left behind.
import type { DuckDBConnection } from "@duckdb/node-api";
import { allDdl, dayRollupDdl, derivedDdl } from "./ddl.js";
import type { BatchCommitter } from "./duckdb-batches.js";
import { DAY_ROLLUP_VERSION, ROLLUP_TABLES } from "./duckdb-day-rollup.js";
import type { DuckDbOptions } from "./duckdb-options.js";
import { addPropertyKeys, type PropertyKeys } from "./duckdb-property-keys.js";
import { rows } from "./duckdb-read.js";
import { pendingBatchGroups, REBUILD_CHUNK_EVENTS, rebuildRollups, transaction } from "./duckdb-rollup.js";
import type { RollupScheduler } from "./duckdb-rollup-scheduler.js";
import { migrateDuckVisitorTables } from "./visitor-tables.js";

/** Bump when the rollup tables change shape or meaning: migrate() recreates them from events. */
export const ROLLUP_VERSION = "3"; // 2: pkey, 3: rolled

export interface MigrateDeps {
  writer: DuckDBConnection;
  keys: PropertyKeys;
  rollups: RollupScheduler;
  batches: BatchCommitter;
  opts: DuckDbOptions;
}

/** Migrates the store's file; the caller runs it in the write queue. */
export async function migrateStore({ writer, keys, rollups, batches, opts }: MigrateDeps): Promise<void> {
  const days = rollups.days;
  // A rollup on the roller would race the one below over the same batches and tables.
  rollups.cancel();
  await rollups.settled();
  batches.closeAppender();
  for (const ddl of allDdl("duckdb")) await writer.run(ddl);
  await writer.run("CREATE TABLE IF NOT EXISTS lookout_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)");
  await addPropertyKeys(writer);
  await keys.load(writer);
  await days.load(writer);
  const max = await rows(writer, "SELECT coalesce(max(batch), 0)::VARCHAR AS b FROM events");
  const batch = BigInt(String(max[0]?.b ?? "0"));
  batches.batch = batch;
  rollups.committed = batch;
  const meta = Object.fromEntries(
    (await rows(writer, "SELECT key, value FROM lookout_meta")).map((r) => [String(r.key), String(r.value)]),
  );
  if (meta.day_rollup_version !== DAY_ROLLUP_VERSION) {
    await transaction(writer, async () => {
      await days.reset(writer);
      // A new version may change the tables' columns: they are made again (they are empty now).
      for (const t of ROLLUP_TABLES) await writer.run(`DROP TABLE IF EXISTS ${t}`);
      for (const ddl of dayRollupDdl()) await writer.run(ddl);
      await writer.run("INSERT OR REPLACE INTO lookout_meta VALUES ('day_rollup_version', $v)", { v: DAY_ROLLUP_VERSION });
    });
  }
  if (meta.rollup_version !== ROLLUP_VERSION) {
    await transaction(writer, async () => {
      for (const t of ["sessions", "session_pages", "session_events"] as const) {
        await writer.run(`DROP TABLE IF EXISTS ${t}`);
        await writer.run(derivedDdl(t));
      }
    });
    // Until the rebuild commits, rollup_version stays old: an interrupted one starts again.
    await rebuildRollups(writer, {
      chunkEvents: opts.rebuildChunkEvents,
      finish: async () => {
        await days.reset(writer);
        await writer.run("INSERT OR REPLACE INTO lookout_meta VALUES ('rollup_version', $v)", { v: ROLLUP_VERSION });
        await writer.run("INSERT OR REPLACE INTO lookout_meta VALUES ('rolled_batch', $v)", { v: batch.toString() });
      },
    });
    rollups.rolled = batch;
  } else {
    rollups.rolled = BigInt(meta.rolled_batch ?? "0");
    // Appends committed before a crash or an interrupted bulk import but not yet rolled up,
    // a group of batches at a time: one step over millions of events needs more memory
    // than the limit, and a rebuild would redo the whole history.
    for (const upto of await pendingBatchGroups(writer, rollups.rolled, opts.rebuildChunkEvents ?? REBUILD_CHUNK_EVENTS)) {
      await transaction(writer, () => rollups.rollupTo(upto));
      rollups.rolled = upto;
    }
  }
  // The per-visitor tables: created, or rebuilt from events when missing or of another version.
  await migrateDuckVisitorTables(writer, opts.rebuildChunkEvents ?? REBUILD_CHUNK_EVENTS);
}
