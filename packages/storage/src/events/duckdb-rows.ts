// DuckDB result rows as plain JS objects, the shape every reader of the embedded store expects:
// BIGINT and HUGEINT counts as numbers, MAPs as records, and the same inside LISTs and STRUCTs.
//
// Columns of scalars and lists of scalars (nearly every column a statement answers) are read
// straight from the result's vectors; any other type goes through the client library's JS
// converter and then plain(). Through the library alone, each value was first built as a
// DuckDBValue object and then walked again: a heavy visitor's 506 visit rows of 34 columns took
// 16 ms to convert at 10M events, as long as DuckDB took to read them (measured, 12 ms this way).
import {
  DuckDBListVector,
  type DuckDBMaterializedResult,
  DuckDBTypeId,
  type DuckDBVector,
  JSDuckDBValueConverter,
} from "@duckdb/node-api";

/** Types whose vectors answer a JS primitive (or a bigint, made a number) per item. */
const SCALAR = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.VARCHAR,
]);

const scalar = (v: unknown) => (typeof v === "bigint" ? Number(v) : v);

/**
 * Engine values (as the library's JS converter gives them) as plain JS. An empty list reads as an
 * empty record, as it always has: a list column's readers take [] and {} alike, and a MAP column
 * cannot be told from a list of {key, value} structs once converted.
 */
export function plain(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) {
    if (v.every((e) => e && typeof e === "object" && "key" in e && "value" in e)) {
      return Object.fromEntries((v as { key: string; value: string }[]).map((e) => [e.key, e.value]));
    }
    return v.map(plain);
  }
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const k in v) out[k] = plain((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/**
 * Whether a list entry is NULL (it reads as 0 items, like an empty list). The vector's validity is
 * private in the library's types: asked directly where it is there, else through getItemVector(),
 * which slices the child vector (45 ms of slicing in a profile of 56 visitor pages at 10M events,
 * most of a heavy visitor's event lists being empty).
 */
function isNull(vec: DuckDBListVector, i: number): boolean {
  const validity = (vec as unknown as { validity?: { itemValid?: (i: number) => boolean } }).validity;
  return typeof validity?.itemValid === "function" ? !validity.itemValid(i) : vec.getItemVector(i) === null;
}

/** Fills `column` of rows[base..base+n) from one vector. */
function readColumn(vec: DuckDBVector, n: number, out: Record<string, unknown>[], base: number, column: string): void {
  if (SCALAR.has(vec.type.typeId)) {
    for (let i = 0; i < n; i++) (out[base + i] as Record<string, unknown>)[column] = scalar(vec.getItem(i));
    return;
  }
  if (vec instanceof DuckDBListVector && SCALAR.has(vec.childVector.type.typeId)) {
    const child = vec.childVector;
    for (let i = 0; i < n; i++) {
      const row = out[base + i] as Record<string, unknown>;
      const len = vec.getEntryLength(i);
      const off = vec.getEntryOffset(i);
      if (len === 0) {
        row[column] = isNull(vec, i) ? null : {};
        continue;
      }
      const items = new Array<unknown>(len);
      for (let k = 0; k < len; k++) items[k] = scalar(child.getItem(off + k));
      row[column] = items;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const v = vec.getItem(i);
    (out[base + i] as Record<string, unknown>)[column] =
      v === null ? null : plain(JSDuckDBValueConverter(v, vec.type, JSDuckDBValueConverter));
  }
}

/** Every row of a materialized result as a plain object keyed by the (deduplicated) column names. */
export function plainRows(result: DuckDBMaterializedResult): Record<string, unknown>[] {
  const names = result.deduplicatedColumnNames();
  const out: Record<string, unknown>[] = [];
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c);
    const n = chunk.rowCount;
    const base = out.length;
    for (let i = 0; i < n; i++) out.push({});
    for (let col = 0; col < names.length; col++) readColumn(chunk.getColumnVector(col), n, out, base, names[col] as string);
  }
  return out;
}
