// The visitor statements' shared parts (issue #21): what the two engines spell differently
// (VisitorFns, chProfiles), the columns and predicates the statements share, who a statement is
// about (Who, Span), and Stmt, which binds a statement's parameters and reads the `events` table
// through relation.ts (the property predicate). The statements: visitors.ts, visitors-history.ts,
// visitors-digest.ts.
import type { CompiledQuery } from "./compiled.js";
import { DIALECTS, type Dialect, type SqlDialect } from "./dialects.js";
import { int, Params } from "./params.js";
import { Scope } from "./parts.js";
import { tableRead } from "./relation.js";
import { NON_CUSTOM_EVENT_NAMES } from "./tables.js";

/** What the two engines spell differently in these statements (dialects.ts has the shared table). */
export interface VisitorFns {
  argMax(e: string, by: string): string;
  argMin(e: string, by: string): string;
  argMinIf(e: string, by: string, cond: string): string;
  sumIf(e: string, cond: string): string;
  epochMs(e: string): string;
  /**
   * The profiles of a property as a FROM item: `pre` on the stored rows (client_id conditions only),
   * `where` on the merged profile (client_id, email, name, ...). See chProfiles().
   */
  profiles(property: string, pre: readonly string[], where: readonly string[]): string;
  /** The SELECT list of a profile read (rows: client_id, email, name, traits, first_seen_ms, last_seen_ms). */
  profileColumns: string;
  /** Columns holding a string map column, read back by mapOf(). */
  mapColumns(column: string, as: string): string;
  /** At most `n` rows per `key` (in the statement's order), `total` in all: printed after ORDER BY. */
  limitPer(key: string, orderInKey: string, n: number, total: number): { qualify: string; limit: string };
}

/**
 * ClickHouse keeps one `visitors` row per upsert (the storage adapter's clickhouse-sql.ts: no
 * read-modify-write), so a read folds them by the EventStore's merge rules: the latest non-empty
 * e-mail and name, the earliest first and latest last seen (epoch ms columns), and the traits of
 * every upsert in upsert order, as arrays of key and value arrays that mapOf() folds key by key
 * (later wins). The fold's outputs are named p_* (an alias may not reuse a column it reads) and
 * renamed around it, so that `where` reads the merged profile by the DuckDB names.
 */
function chProfiles(property: string, pre: readonly string[], where: readonly string[]): string {
  const byVersion = (c: string) =>
    `arrayMap(t -> tupleElement(t, 2), arraySort(t -> tupleElement(t, 1), groupArray((version, ${c}))))`;
  const fold =
    `SELECT client_id, argMaxIf(email, version, email <> '') AS p_email, argMaxIf(name, version, name <> '') AS p_name, ` +
    `${byVersion("traits.key")} AS p_tk, ${byVersion("traits.value")} AS p_tv, min(first_seen_ms) AS p_first, max(last_seen_ms) AS p_last ` +
    `FROM visitors WHERE ${[`property = ${property}`, ...pre].join(" AND ")} GROUP BY client_id`;
  return (
    `(SELECT client_id, p_email AS email, p_name AS name, p_tk AS traits_keys, p_tv AS traits_values, ` +
    `p_first AS first_seen_ms, p_last AS last_seen_ms FROM (${fold})${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""})`
  );
}

const FNS: Record<SqlDialect, VisitorFns> = {
  duckdb: {
    argMax: (e, by) => `arg_max(${e}, ${by})`,
    argMin: (e, by) => `arg_min(${e}, ${by})`,
    argMinIf: (e, by, c) => `arg_min(${e}, ${by}) FILTER (WHERE ${c})`,
    sumIf: (e, c) => `coalesce(sum(${e}) FILTER (WHERE ${c}), 0)`,
    epochMs: (e) => `epoch_ms(${e})`,
    profiles: (property, pre, where) => `visitors WHERE ${[`property = ${property}`, ...pre, ...where].join(" AND ")}`,
    profileColumns:
      "client_id, email, name, traits AS traits, epoch_ms(first_seen) AS first_seen_ms, epoch_ms(last_seen) AS last_seen_ms",
    mapColumns: (c, as) => `${c} AS ${as}`,
    limitPer: (key, order, n, total) => ({
      qualify: ` QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY ${order}) <= ${int(n)}`,
      limit: `LIMIT ${int(total)}`,
    }),
  },
  clickhouse: {
    argMax: (e, by) => `argMax(${e}, ${by})`,
    argMin: (e, by) => `argMin(${e}, ${by})`,
    argMinIf: (e, by, c) => `argMinIf(${e}, ${by}, ${c})`,
    sumIf: (e, c) => `sumIf(${e}, ${c})`,
    epochMs: (e) => `(toUInt64(toUnixTimestamp(${e})) * 1000)`,
    profiles: chProfiles,
    profileColumns: "client_id, email, name, traits_keys, traits_values, first_seen_ms, last_seen_ms",
    mapColumns: (c, as) => `${c}.key AS ${as}_keys, ${c}.value AS ${as}_values`,
    limitPer: (key, _order, n, total) => ({ qualify: "", limit: `LIMIT ${int(n)} BY ${key} LIMIT 0, ${int(total)}` }),
  },
};

/** A map column read through VisitorFns.mapColumns, as a plain record (DuckDB: already one). */
export function mapOf(row: Record<string, unknown>, as: string): Record<string, string> {
  const v = row[as];
  if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, string>;
  const keys = row[`${as}_keys`];
  const values = row[`${as}_values`];
  const out: Record<string, string> = {};
  if (!Array.isArray(keys) || !Array.isArray(values)) return out;
  // ClickHouse profiles: one key and one value array per upsert, oldest first (chProfiles).
  const k = keys.flat();
  const vs = values.flat();
  for (let i = 0; i < k.length; i++) out[String(k[i])] = String(vs[i] ?? "");
  return out;
}

/** A row's revenue currency, NULL without one: min = max over rows then means "all in one currency". */
export const CURRENCY = "CASE WHEN revenue_currency <> '' THEN revenue_currency END";
export const CUSTOM = `name NOT IN (${NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ")})`;

/** Where a person's events lie in time: their first and last event (epoch ms, both inclusive). */
export interface Span {
  from: number;
  to: number;
}

/**
 * The client ids whose events a statement reads, and optionally their span: the events table is
 * in time order, so a span lets the engine skip every block outside it (min/max zone maps), where
 * a client id alone has to be compared on every row of the property.
 */
export type Who = readonly string[] | { ids: readonly string[]; span: Span };
export const idsOf = (w: Who): readonly string[] => ("span" in w ? w.ids : w);

/** Whether unit `i` of `s` starts a surrogate pair (two units, one scalar value). */
const pairAt = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  const lo = s.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
};

/** The scalar value UTF-8 encodes from unit `i` (a scalar's first unit): a pair's code point, U+FFFD for a lone surrogate. */
function scalarAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (pairAt(s, i)) return ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

/**
 * Strings in UTF-8 byte order (how DuckDB and ClickHouse compare them), which is the order of
 * their scalar values (a lone surrogate read as U+FFFD, as the UTF-8 encoder writes it). Units
 * below U+D800 are scalar values of their own, so only where a surrogate or a unit above is met
 * are scalar values decoded. (It encoded both strings to UTF-8 on every call: a heavy visitor's
 * page compares currencies, names and paths thousands of times.)
 */
export function byBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x < 0xd800 && y < 0xd800) {
      if (x !== y) return x - y;
      i++;
      continue;
    }
    const d = scalarAt(a, i) - scalarAt(b, i);
    if (d !== 0) return d;
    // Equal scalar values take as many units in both (a pair, or one unit).
    i += pairAt(a, i) ? 2 : 1;
  }
  return a.length - b.length;
}

/** One statement's parameters and reads (visitors-digest.ts prints with it too). */
export class Stmt {
  readonly d: Dialect;
  readonly f: VisitorFns;
  readonly p: Params;
  readonly s: Scope;
  readonly propertyId: string;

  constructor(dialect: SqlDialect, property: string, timezone = "UTC", from = 0, to = 0) {
    this.d = DIALECTS[dialect];
    this.f = FNS[dialect];
    this.p = new Params(this.d);
    this.s = new Scope(this.d, this.p, property, [{ from, to }], timezone);
    this.propertyId = this.p.add(property);
  }

  /** `events WHERE <property>[ AND <span>] AND client_id IN (...)[ AND where]`. */
  events(who: Who, where: readonly string[] = []): string {
    // Timestamps bind as whole seconds: the span widens to the seconds around it.
    const span = "span" in who ? [`ts >= ${this.p.ts(who.span.from)}`, `ts < ${this.p.ts(who.span.to + 1000)}`] : [];
    return tableRead(this.s, "events", [...span, this.clientIn(idsOf(who)), ...where]);
  }

  /**
   * `column` is one of `ids`. DuckDB pushes an equality or a range into its scan (only the rows that
   * pass are read further) but an IN list only as a zone-map hint, after every row of every column
   * read has been produced (measured: a 240 000-row visitor_visits scan emitted whole). So one id is
   * an equality, and several are bounded by their least and greatest first (byte order, as both
   * engines compare strings).
   */
  clientIn(ids: readonly string[], column = "client_id"): string {
    if (ids.length === 0) throw new Error("no client ids");
    if (ids.length === 1) return `${column} = ${this.p.add(ids[0] as string)}`;
    const sorted = [...ids].sort(byBytes);
    const range = `${column} >= ${this.p.add(sorted[0] as string)} AND ${column} <= ${this.p.add(sorted[sorted.length - 1] as string)}`;
    return `(${range} AND ${column} IN (${ids.map((id) => this.p.add(id)).join(", ")}))`;
  }

  /** The property's merged profiles (FROM item): `pre` on client_id only, `where` on the profile. */
  profiles(where: readonly string[], pre: readonly string[] = []): string {
    return this.f.profiles(this.propertyId, pre, where);
  }

  done(sql: string): CompiledQuery {
    const params = this.p.usedIn(sql);
    const keyParams = Object.keys(params).filter((n) => this.p.keyNames.has(n));
    return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
  }
}
