// Writing EventRows into DuckDB fast: rows become column vectors in 2048-row data chunks handed to
// the Appender (measured ~120k rows/s on the 2-core box, against ~57k with a call per value and
// ~6k with list-parameter INSERTs). The column order is EVENT_COLUMNS then the internal columns
// (vkey, skey, batch, pkey), exactly as ddl.ts creates the table.
import {
  BIGINT,
  DOUBLE,
  type DuckDBAppender,
  DuckDBDataChunk,
  DuckDBTimestampValue,
  type DuckDBType,
  type DuckDBValue,
  MAP,
  mapValue,
  TIMESTAMP,
  USMALLINT,
  VARCHAR,
} from "@duckdb/node-api";
import { type ColumnType, EVENT_COLUMN_NAMES, EVENT_COLUMNS, type EventRow } from "@lookout/schema";
import { idKey } from "./hash.js";

const CHUNK = 2048;
const MAP_TYPE = MAP(VARCHAR, VARCHAR);
const EMPTY_MAP = mapValue([]);

const TYPES: Record<ColumnType, DuckDBType> = {
  string: VARCHAR,
  timestamp: TIMESTAMP,
  uint16: USMALLINT,
  float64: DOUBLE,
  map: MAP_TYPE,
};

const CHUNK_TYPES: DuckDBType[] = [...EVENT_COLUMN_NAMES.map((c) => TYPES[EVENT_COLUMNS[c]]), BIGINT, BIGINT, BIGINT, BIGINT];

export function timestampValue(d: Date): DuckDBTimestampValue {
  const ms = d instanceof Date ? d.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError("event ts must be a valid Date");
  return new DuckDBTimestampValue(BigInt(ms) * 1000n);
}

/** Throws for a batch appendEvents() would refuse (the only thing it refuses: a row without a valid ts). */
export function assertAppendable(rows: readonly EventRow[]): void {
  for (const row of rows) timestampValue(row.ts);
}

export function stringMap(m: Record<string, string> | undefined): DuckDBValue {
  if (!m) return EMPTY_MAP;
  const entries = Object.entries(m);
  return entries.length === 0 ? EMPTY_MAP : mapValue(entries.map(([key, value]) => ({ key, value: String(value) })));
}

function convert(type: ColumnType, v: unknown): DuckDBValue {
  switch (type) {
    case "string":
      return typeof v === "string" ? v : v == null ? "" : String(v);
    case "timestamp":
      return timestampValue(v as Date);
    case "uint16":
    case "float64":
      return typeof v === "number" && Number.isFinite(v) ? v : 0;
    case "map":
      return stringMap(v as Record<string, string> | undefined);
  }
}

/**
 * Appends `rows` (tagged with `batch`, and with their property's key from `pkeyOf`) through
 * `appender`; the caller owns the transaction.
 */
export function appendEvents(
  appender: DuckDBAppender,
  rows: readonly EventRow[],
  batch: bigint,
  pkeyOf: (property: string) => bigint,
): void {
  const columnTypes = EVENT_COLUMN_NAMES.map((c) => EVENT_COLUMNS[c]);
  for (let off = 0; off < rows.length; off += CHUNK) {
    const n = Math.min(CHUNK, rows.length - off);
    const cols: DuckDBValue[][] = CHUNK_TYPES.map(() => new Array<DuckDBValue>(n));
    for (let i = 0; i < n; i++) {
      const row = rows[off + i] as EventRow;
      for (let c = 0; c < columnTypes.length; c++) {
        (cols[c] as DuckDBValue[])[i] = convert(columnTypes[c] as ColumnType, row[EVENT_COLUMN_NAMES[c] as keyof EventRow]);
      }
      const property = String(row.property ?? "");
      (cols[columnTypes.length] as DuckDBValue[])[i] = idKey(property, String(row.visitor_id ?? ""));
      (cols[columnTypes.length + 1] as DuckDBValue[])[i] = idKey(property, String(row.session_id ?? ""));
      (cols[columnTypes.length + 2] as DuckDBValue[])[i] = batch;
      (cols[columnTypes.length + 3] as DuckDBValue[])[i] = pkeyOf(property);
    }
    const chunk = DuckDBDataChunk.create(CHUNK_TYPES, n);
    chunk.setColumns(cols);
    appender.appendDataChunk(chunk);
  }
}
