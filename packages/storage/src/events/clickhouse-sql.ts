// ClickHouse 18.16 SQL text the adapter needs besides the compiled queries: string literals,
// binding a CompiledQuery's parameters, the tables' DDL, and rows in and out (JSONEachRow).
//
// Why parameters are bound here and not by the server: query parameters ({name:String} sent as
// param_name) arrived in ClickHouse 19.x; 18.16 answers "Unknown setting param_p1". The adapter
// therefore replaces each placeholder with a string literal, escaped by ClickHouse's own rules
// (backslash escapes; every value is a string or a formatted timestamp, never SQL). One pass over
// the text: an inserted literal is never scanned again.
//
// Timestamps keep milliseconds as DateTime('UTC') `ts` (whole seconds) plus `ts_ms` UInt16 (0-999).
// DateTime64 does not exist in 18.16; keeping `ts` a DateTime leaves the sort key, the monthly
// partitions and every toStartOf*/addMinutes of the dialect as they are, and the visit states
// order and time events by ts * 1000 + ts_ms (@lookout/query clickhouse-visits.ts).

import { type ColumnType, EVENT_COLUMN_NAMES, EVENT_COLUMNS, type EventRow, type VisitorProfile } from "@lookout/schema";
import { eventsDdl } from "./ddl.js";
import type { CompiledQuery } from "./event-store.js";

const numeric = (t: ColumnType) => t === "float64" || t === "uint16";

/** A ClickHouse string literal of `v`. */
export function literal(v: string): string {
  return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\0/g, "\\0")}'`;
}

/** A ClickHouse identifier (database names): letters, digits, underscore, not starting with a digit. */
export function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a ClickHouse identifier: ${JSON.stringify(name)}`);
  return name;
}

/**
 * `q.sql` with every `{name:String}` placeholder replaced by its value as a literal, and every
 * `{name:UInt64s}` (the settled batches, clickhouse-settle.ts) by its list of unsigned integers.
 */
export function bindParams(q: CompiledQuery): string {
  return q.sql.replace(/\{([A-Za-z_][A-Za-z0-9_]*):(String|UInt64s)\}/g, (_, name: string, type: string) => {
    if (!Object.hasOwn(q.params, name)) throw new Error(`query parameter ${name} is not bound`);
    const v = q.params[name];
    if (type === "String") return literal(String(v));
    const list = Array.isArray(v) ? v.map(String) : [];
    if (list.length === 0 || !list.every((x) => /^\d{1,20}$/.test(x)))
      throw new Error(`query parameter ${name}: not a list of UInt64`);
    return list.join(", ");
  });
}

/** `events` as @lookout/query's ClickHouse dialect reads it, with `ts_ms` after the shared columns. */
export function chEventsDdl(): string {
  return eventsDdl("clickhouse");
}

/**
 * Visitor profiles: one row per upsert, folded on read (clickhouse-store.ts) by the EventStore's
 * merge rules: no read-modify-write, so two servers upserting one visitor at once lose nothing.
 * `version` orders the upserts (time of the write in µs, plus the position within its batch).
 * Times as epoch milliseconds: this table is read only by the adapter, never by compiled SQL.
 */
export const CH_VISITORS_DDL =
  "CREATE TABLE IF NOT EXISTS visitors (property String, client_id String, email String, name String, " +
  "traits Nested(key String, value String), first_seen_ms UInt64, last_seen_ms UInt64, version UInt64) " +
  "ENGINE = MergeTree() ORDER BY (property, client_id)";

/** Whole seconds and the millisecond remainder of a valid Date (throws on an invalid one). */
function splitMs(d: Date): { s: number; ms: number } {
  const t = d.getTime();
  if (!Number.isFinite(t)) throw new RangeError("invalid timestamp in an event");
  if (t < 0 || t >= 4_294_967_296_000) throw new RangeError(`timestamp out of ClickHouse's DateTime range: ${d.toISOString()}`);
  return { s: Math.floor(t / 1000), ms: t % 1000 };
}

/** One event as a JSONEachRow object of `events`. */
export function eventJson(r: EventRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of EVENT_COLUMN_NAMES) {
    const type = EVENT_COLUMNS[c];
    const v = r[c];
    if (type === "timestamp") {
      const { s, ms } = splitMs(v as Date);
      out[c] = s;
      out[`${c}_ms`] = ms;
    } else if (type === "map") {
      const entries = Object.entries((v ?? {}) as Record<string, string>);
      out[`${c}.key`] = entries.map(([k]) => k);
      out[`${c}.value`] = entries.map(([, x]) => String(x));
    } else if (numeric(type)) {
      const n = Number(v ?? 0);
      if (!Number.isFinite(n)) throw new RangeError(`${c} is not a finite number`);
      out[c] = n;
    } else out[c] = String(v ?? "");
  }
  return out;
}

/**
 * The SELECT list that reads an EventRow back (timestamps as epoch ms, maps as key/value arrays).
 * Aliases never reuse a column's name: a ClickHouse alias is visible in WHERE and ORDER BY, where
 * it would shadow the column.
 */
export const EVENT_SELECT = EVENT_COLUMN_NAMES.map((c) => {
  const type = EVENT_COLUMNS[c];
  if (type === "timestamp") return `toUInt64(${c}) * 1000 + ${c}_ms AS ${c}__epoch_ms`;
  if (type === "map") return `${c}.key AS ${c}__k, ${c}.value AS ${c}__v`;
  return c;
}).join(", ");

/** A row read with EVENT_SELECT -> EventRow. */
export function eventFromJson(j: Record<string, unknown>): EventRow {
  const out: Record<string, unknown> = {};
  for (const c of EVENT_COLUMN_NAMES) {
    const type = EVENT_COLUMNS[c];
    if (type === "timestamp") out[c] = new Date(Number(j[`${c}__epoch_ms`]));
    else if (type === "map") {
      const k = (j[`${c}__k`] ?? []) as string[];
      const v = (j[`${c}__v`] ?? []) as string[];
      out[c] = Object.fromEntries(k.map((key, i) => [key, v[i] ?? ""]));
    } else if (numeric(type)) out[c] = Number(j[c]);
    else out[c] = String(j[c] ?? "");
  }
  return out as EventRow;
}

/** One profile upsert as a JSONEachRow object of `visitors`. */
export function profileJson(p: VisitorProfile, version: number): Record<string, unknown> {
  const ms = (d: Date) => {
    const t = d.getTime();
    if (!Number.isFinite(t) || t < 0) throw new RangeError("invalid timestamp in a visitor profile");
    return t;
  };
  const traits = Object.entries(p.traits ?? {});
  return {
    property: p.property,
    client_id: p.client_id,
    email: p.email,
    name: p.name,
    "traits.key": traits.map(([k]) => k),
    "traits.value": traits.map(([, v]) => String(v)),
    first_seen_ms: ms(p.first_seen),
    last_seen_ms: ms(p.last_seen),
    version,
  };
}
