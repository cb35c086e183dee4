// Billable events (DESIGN.md §4): pageviews and custom events, not engagement pings, leave beacons
// or identify calls (dropped events are never stored). One statement counts a property's billable
// events in consecutive billing periods, one output column per period (c0, c1, …), in one scan of
// the range: the events table is ordered by (property, ts), so the property predicate and the
// range let both engines skip every block outside it. Printed like every other read: the
// property predicate from relation.ts, every value a bound parameter, a LIMIT.
//
// Why not the day rollups: billing periods start at the account's anchor (00:00 UTC), while the
// rollups' days are the property's local days; they answer exactly only for UTC properties, and
// the raw count over a (property, ts)-ordered range is cheap already (bench/billing.bench.ts).
import type { CompiledQuery } from "./compiled.js";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { Params } from "./params.js";
import { Scope } from "./parts.js";
import { tableRead } from "./relation.js";
import { NON_CUSTOM_EVENT_NAMES } from "./tables.js";

/** Event names that are never billable: every non-custom name except pageview. */
export const NON_BILLABLE_EVENT_NAMES = NON_CUSTOM_EVENT_NAMES.filter((n) => n !== "pageview");

/** Whether an event of this name is billable (the plain-TypeScript model of the SQL below). */
export const isBillableEvent = (name: string): boolean => !(NON_BILLABLE_EVENT_NAMES as readonly string[]).includes(name);

/** At most this many periods per statement (12 past periods and the current one fit). */
export const MAX_BILLING_PERIODS = 36;

/**
 * The billable events of `property` in each period [boundaries[i], boundaries[i+1]) (epoch ms,
 * strictly ascending, whole seconds): rows `{c0, c1, …}`, one column per period (NULL or 0 when
 * a period has none; readBillableCounts() reads them).
 */
export function compileBillableCounts(dialect: SqlDialect, property: string, boundaries: readonly number[]): CompiledQuery {
  if (boundaries.length < 2 || boundaries.length > MAX_BILLING_PERIODS + 1) {
    throw new Error(`between 1 and ${MAX_BILLING_PERIODS} periods, got ${boundaries.length - 1}`);
  }
  for (let i = 1; i < boundaries.length; i++) {
    const [a, b] = [boundaries[i - 1] as number, boundaries[i] as number];
    if (!(b > a) || a % 1000 !== 0 || b % 1000 !== 0) throw new Error("period boundaries must ascend in whole seconds");
  }
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const first = boundaries[0] as number;
  const last = boundaries[boundaries.length - 1] as number;
  const s = new Scope(d, p, property, [{ from: first, to: last }], "UTC");
  const names = NON_BILLABLE_EVENT_NAMES.map((n) => p.add(n)).join(", ");
  const columns = boundaries
    .slice(1)
    .map((to, i) => `sum(CASE WHEN ts >= ${p.ts(boundaries[i] as number)} AND ts < ${p.ts(to)} THEN 1 ELSE 0 END) AS c${i}`);
  const where = [`ts >= ${p.ts(first)}`, `ts < ${p.ts(last)}`, `name NOT IN (${names})`];
  const sql = `SELECT ${columns.join(", ")} FROM ${tableRead(s, "events", where)} LIMIT 1`;
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}

/** The counts of a compileBillableCounts() answer, one per period (engines differ on empty sums). */
export function readBillableCounts(rows: readonly Record<string, unknown>[], periods: number): number[] {
  const row = rows[0] ?? {};
  return Array.from({ length: periods }, (_, i) => Number(row[`c${i}`] ?? 0) || 0);
}
