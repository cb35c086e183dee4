// The DuckDB store's side of the ingest log at open: commits what the log holds past the store's
// mark (a crash came between the log and DuckDB), deletes the files now wholly in the store, and,
// when staging is on, starts the next log file and the StagedAppends that commit from it.
import type { DuckDBConnection } from "@duckdb/node-api";
import type { EventRow } from "@lookout/schema";
import type { BatchCommitter } from "./duckdb-batches.js";
import type { DuckDbOptions, StagingHandle } from "./duckdb-options.js";
import { rows } from "./duckdb-read.js";
import { REBUILD_CHUNK_EVENTS } from "./duckdb-rollup.js";
import type { WriteQueue } from "./duckdb-write-queue.js";
import { deleteBefore, IngestLog, parseMark, readIngestLog } from "./ingest-log.js";
import { StagedAppends } from "./staged-appends.js";

export interface Staging {
  staging: StagedAppends | null;
  /** The log the store appends to itself (null when its owner writes the log). */
  log: IngestLog | null;
  ingestLog: StagingHandle["ingestLog"];
}

export async function applyIngestLog(
  dir: string,
  d: { writer: DuckDBConnection; queue: WriteQueue; batches: BatchCommitter; opts: DuckDbOptions },
): Promise<Staging> {
  const { writer, queue, batches, opts } = d;
  const marks = await rows(writer, "SELECT value FROM lookout_meta WHERE key = 'ingest_log'");
  const { records, nextGen } = await readIngestLog(dir, parseMark(marks[0]?.value as string | undefined));
  for (let i = 0; i < records.length; ) {
    const group: EventRow[] = [];
    let mark = (records[i] as (typeof records)[number]).end;
    for (; i < records.length && group.length < (opts.rebuildChunkEvents ?? REBUILD_CHUNK_EVENTS); i++) {
      const r = records[i] as (typeof records)[number];
      for (const row of r.rows) group.push(row);
      mark = r.end;
    }
    await queue.run(() => batches.commit(group, mark));
  }
  // Every earlier file is now in the store whole.
  await deleteBefore(dir, nextGen);
  if (!opts.staging) return { staging: null, log: null, ingestLog: null };
  const ingestLog = { dir, nextGen };
  const log = opts.staging.ownerWritesLog ? null : await IngestLog.create(dir, nextGen);
  const staging = new StagedAppends(
    dir,
    async (events, mark) => {
      await queue.run(() => batches.commit(events, mark));
      opts.onStagedCommit?.(events.length);
    },
    opts.staging,
  );
  return { staging, log, ingestLog };
}
