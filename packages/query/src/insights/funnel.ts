// The funnel insight's planner and SQL (DESIGN.md §4 Funnels). The definition (every step-1 event
// may start a chain, the furthest step counts, ties in either order, strict order, exclusions) is
// not something both engines can say in SQL (ClickHouse 18.16 has no window functions, and
// windowFunnel knows neither ties in either order nor exclusions), so the statements read compact
// text instead: per event of the range that matters to the funnel, its epoch milliseconds, a bit
// mask of the steps it matches, a bit mask of the exclusions it matches and (with a breakdown) its
// value, a visitor's events in one string. funnel-eval.ts finishes the definition in TypeScript.
// The answer's statement packs those strings into FUNNEL_PARTS rows (FunnelPackRow); the visitors
// of a step are read by a second one, packed the same way with each visitor's client id in front.
// A strict funnel reads every considered event (pageviews and custom events: any of them between
// two steps breaks the chain); the others read only events that match a step or an exclusion.
// Only what can change an outcome leaves the engine (bench/insights.bench.ts: most visitors of a
// range never do step 1): a visitor without a step-1 event is never read, and in an ordered
// funnel a visitor's events before their first step-1 event or past their last one's window are
// not either (a chain starts at a step-1 event and lies within its window, and so do the
// exclusions that count). The visitor's client id is still taken over all their events.
import {
  type Dimension,
  FUNNEL_UNIT_SECONDS,
  type FunnelOrder,
  type FunnelSpec,
  funnelStepLabel,
  INSIGHT_LIMITS,
  type Interval,
  insightDateRange,
  isPropDimension,
  parseFilters,
  propKey,
} from "@lookout/schema";
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { defaultInterval, type ResolvedRange, resolveDateRange } from "../date-range.js";
import { DIALECTS, type Dialect, type SqlDialect } from "../dialects.js";
import { NamedRows } from "../named.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { eventColumn, eventCondition } from "./trends.js";

/** Visitors a funnel reads at most; past it the answer would be partial, so it is refused instead. */
export const FUNNEL_MAX_ROWS = 5_000_000;
/** What is not a visitor's action: never a step's neighbour in a strict funnel. */
export const FUNNEL_IGNORED_EVENTS = ["engagement", "pageleave", "identify"] as const;

/** What the funnel SQL needs per dialect beyond the shared Dialect table. */
interface FunnelFunctions {
  /** An event's instant as epoch milliseconds (ClickHouse keeps the milliseconds apart). */
  epochMs: string;
  /** One event as "t:m:x:hex(bv)" (hex, so that no value can contain a separator). */
  encode(t: string, m: string, x: string, bv: string): string;
  /** `e` over the group's rows joined by `sep`; with `If`, over the rows where `cond` holds. */
  joined(e: string, sep: string): string;
  joinedIf(e: string, sep: string, cond: string): string;
  /** Which of FUNNEL_PARTS parts a visitor key's row is packed in. */
  part(k: string): string;
  /** `left` (the events) joined to `right` (one row per visitor) on the visitor key `k`. */
  joinOnVisitor(left: string, right: string): string;
}

const FUNNEL_FUNCTIONS: Record<SqlDialect, FunnelFunctions> = {
  duckdb: {
    epochMs: "epoch_ms(ts)",
    encode: (t, m, x, bv) =>
      `concat(CAST(${t} AS VARCHAR), ':', CAST(${m} AS VARCHAR), ':', CAST(${x} AS VARCHAR), ':', hex(${bv}))`,
    joined: (e, sep) => `string_agg(${e}, '${sep}')`,
    joinedIf: (e, sep, c) => `string_agg(${e}, '${sep}') FILTER (WHERE ${c})`,
    part: (k) => `hash(${k}) % ${FUNNEL_PARTS}`,
    joinOnVisitor: (l, r) => `${l} JOIN ${r} USING (k)`,
  },
  clickhouse: {
    epochMs: "(toInt64(toUInt32(ts)) * 1000 + ts_ms)",
    encode: (t, m, x, bv) => `concat(toString(${t}), ':', toString(${m}), ':', toString(${x}), ':', hex(${bv}))`,
    joined: (e, sep) => `arrayStringConcat(groupArray(${e}), '${sep}')`,
    joinedIf: (e, sep, c) => `arrayStringConcat(groupArrayIf(${e}, ${c}), '${sep}')`,
    part: (k) => `cityHash64(${k}) % ${FUNNEL_PARTS}`,
    joinOnVisitor: (l, r) => `${l} ANY INNER JOIN ${r} USING (k)`,
  },
};

/** The decisions, apart from SQL: what the evaluator and the shaper need (tested without printing). */
export interface FunnelPlan {
  range: ResolvedRange;
  interval: Interval;
  /** The conversion-over-time buckets drawn (none after the one holding now). */
  buckets: string[];
  timezone: string;
  windowMs: number;
  order: FunnelOrder;
  labels: string[];
  /** 1-based step pairs, one per exclusion (its bit in the row's exclusion mask is its index). */
  exclusions: [number, number][];
  breakdown: Dimension | null;
  breakdownLimit: number;
  /** Strict funnels read every considered event; the others only those matching a step or an exclusion. */
  readsEveryEvent: boolean;
}

export function planFunnel(spec: FunnelSpec, ctx: CompileContext): FunnelPlan {
  const dateRange = insightDateRange(spec);
  const range = resolveDateRange(dateRange, ctx);
  const interval = spec.interval ?? defaultInterval(dateRange, range);
  return {
    range,
    interval,
    buckets: bucketsUpToNow(bucketLabels(range, interval, ctx.timezone), interval, ctx.timezone, ctx.now),
    timezone: ctx.timezone,
    windowMs: spec.window.value * FUNNEL_UNIT_SECONDS[spec.window.unit] * 1000,
    order: spec.order,
    labels: spec.steps.map((s, i) => funnelStepLabel(i, s.event)),
    exclusions: spec.exclusions.map((x) => [x.between[0], x.between[1]]),
    breakdown: spec.breakdown ?? null,
    breakdownLimit: spec.breakdown_limit ?? INSIGHT_LIMITS.defaultBreakdownValues,
    readsEveryEvent: spec.order === "strict",
  };
}

/** The answer's statement packs the visitors' rows into this many (FunnelPackRow). */
export const FUNNEL_PARTS = 32;

/** The answer's statement and the visitors' one (for the visitors of a step), both of FunnelPackRow. */
export interface CompiledFunnel extends CompiledQuery {
  dialect: SqlDialect;
  plan: FunnelPlan;
  actors: CompiledQuery;
}

/**
 * A row of either statement: the events that matter of a part of the visitors, each event as
 * "t:m:x:hex(bv)" joined by ",", each visitor's joined by ";"; in the visitors' statement each
 * visitor's events follow "hex(client id)|". A few long strings leave the engine far faster than
 * a row per visitor (at 10M events, 280 000 rows cost 0.5-0.9 s to convert in the DuckDB client
 * alone; the part's row cap still refuses more than FUNNEL_MAX_ROWS visitors).
 */
export interface FunnelPackRow {
  evs: string;
}

/** Sum of one bit per matching selector: `CASE WHEN … THEN 2^i ELSE 0 END + …`. */
function maskSql(conds: readonly string[]): string {
  if (conds.length === 0) return "0";
  return conds.map((c, i) => `CASE WHEN ${c} THEN ${int(2 ** i)} ELSE 0 END`).join(" + ");
}

function selectorCondition(event: string, filters: string | undefined, p: Params, d: Dialect): string {
  return [`name = ${p.add(event)}`, ...parseFilters(filters ?? "").map((f) => eventCondition(f, p, d))].join(" AND ");
}

/**
 * The events that match a step or an exclusion, said as cheaply as the engine can test it: the
 * names of the selectors without filters in one `name IN`, then the filtered selectors of other
 * names (a filtered one of a listed name adds nothing), and never an ignored name. At 10M events
 * the bench's funnel (a filtered pageview, a pageview, two custom events) scanned in 0.58 s with
 * `name NOT IN (ignored) AND (step 1 OR step 2 OR ...)` against about 0.3 s with `name IN (...)`.
 */
function matchingEvents(spec: FunnelSpec, p: Params, d: Dialect): string {
  const ignored = new Set<string>(FUNNEL_IGNORED_EVENTS);
  const selectors = [...spec.steps, ...spec.exclusions].filter((x) => !ignored.has(x.event));
  const unfiltered = new Set(selectors.filter((x) => parseFilters(x.filters ?? "").length === 0).map((x) => x.event));
  const parts = [
    ...(unfiltered.size > 0 ? [`name IN (${[...unfiltered].map((e) => p.add(e)).join(", ")})`] : []),
    ...selectors.filter((x) => !unfiltered.has(x.event)).map((x) => `(${selectorCondition(x.event, x.filters, p, d)})`),
  ];
  return parts.length > 0 ? parts.join(" OR ") : "1 = 0";
}

/** The events a funnel considers: in the range, kept by the global filters, and those it reads (matchingEvents, or every one but the ignored in a strict funnel). */
function consideredEvents(spec: FunnelSpec, plan: FunnelPlan, p: Params, d: Dialect): string[] {
  return [
    `ts >= ${p.ts(plan.range.from.getTime())}`,
    `ts < ${p.ts(plan.range.to.getTime())}`,
    plan.readsEveryEvent
      ? `name NOT IN (${FUNNEL_IGNORED_EVENTS.map((n) => p.add(n)).join(", ")})`
      : `(${matchingEvents(spec, p, d)})`,
    ...parseFilters(spec.filters ?? "").map((f) => eventCondition(f, p, d)),
  ];
}

/**
 * DuckDB, for the store's visitor timelines (funnel-timeline.ts): the client id of each visitor
 * whose key is in `keys` (decimal, joined by ","), taken as the visitors' statement takes it (the
 * greatest over the visitor's considered events), one row each.
 */
export function compileFunnelClientIds(
  spec: FunnelSpec,
  property: string,
  dialect: SqlDialect,
  ctx: CompileContext,
  keys: readonly bigint[],
): CompiledQuery {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const plan = planFunnel(spec, ctx);
  const s = new Scope(d, p, property, [{ from: plan.range.from.getTime(), to: plan.range.to.getTime() }], ctx.timezone);
  const where = [...consideredEvents(spec, plan, p, d), d.vkeyIn(p.add(keys.join(",")), p.add(","))];
  return done(p, `SELECT max(client_id) AS cid FROM ${tableRead(s, "events", where)} GROUP BY ${d.eventVkey}`);
}

export function compileFunnel(spec: FunnelSpec, property: string, dialect: SqlDialect, ctx: CompileContext): CompiledFunnel {
  const d = DIALECTS[dialect];
  const fns = FUNNEL_FUNCTIONS[dialect];
  const p = new Params(d);
  const plan = planFunnel(spec, ctx);
  const { range } = plan;
  const s = new Scope(d, p, property, [{ from: range.from.getTime(), to: range.to.getTime() }], ctx.timezone);
  const steps = spec.steps.map((x) => `(${selectorCondition(x.event, x.filters, p, d)})`);
  const exclusions = spec.exclusions.map((x) => `(${selectorCondition(x.event, x.filters, p, d)})`);
  const where = consideredEvents(spec, plan, p, d);
  let bv = "''";
  if (plan.breakdown !== null) {
    bv = isPropDimension(plan.breakdown) ? d.propValue(p.add(propKey(plan.breakdown))) : eventColumn(plan.breakdown, "dimension");
  }
  // Per visitor with a step-1 event (bit 1 of the step mask): the first and the last step-1
  // instants, from the step-1 rows alone (grouping every visitor of the range instead took the
  // statement from 1.11 to 1.45 s at 10M events: bench/insights.bench.ts). Their rows are then
  // joined to it, the events kept only within the chains' span; the client id (for the visitors'
  // statement) over all of them.
  const perVisitor = (withClientId: boolean) => {
    // The considered events, named: DuckDB computes them once for both uses (named.ts).
    const named = new NamedRows(dialect);
    const inner = named.define(
      "fe",
      `SELECT ${d.eventVkey} AS k, ${withClientId ? "client_id AS cid, " : ""}${fns.epochMs} AS t, ${maskSql(steps)} AS m, ` +
        `${maskSql(exclusions)} AS x, ${bv} AS bv FROM ${tableRead(s, "events", where)}`,
    );
    const visitors = `(SELECT k, min(t) AS f1, max(t) AS l1 FROM ${inner} AS g WHERE m % 2 = 1 GROUP BY k) AS b`;
    // Without exclusions or a breakdown their fields are constants (folded once, not per event).
    const event = fns.encode("t", "m", exclusions.length > 0 ? "x" : "0", plan.breakdown !== null ? "bv" : "''");
    const span = plan.order === "any" ? null : `t >= f1 AND t <= l1 + ${int(plan.windowMs)}`;
    const joined = fns.joinOnVisitor(`${inner} AS f`, visitors);
    // The answer drops the rows outside the span before encoding them; the visitors' statement
    // reads them all for the client id, and encodes only those within it.
    const body = (columns: string) =>
      withClientId
        ? `SELECT ${columns}${span === null ? fns.joined(event, ",") : fns.joinedIf(event, ",", span)} AS evs FROM ${joined} GROUP BY k`
        : `SELECT ${columns}${fns.joined(event, ",")} AS evs FROM ${joined}${span === null ? "" : ` WHERE ${span}`} GROUP BY k`;
    return { named, body };
  };
  const answer = perVisitor(false);
  const sql = answer.named.statement(
    `SELECT ${fns.joined("evs", ";")} AS evs FROM (${answer.body(`${fns.part("k")} AS part, `)} ` +
      `${d.limit(int(FUNNEL_MAX_ROWS), 0)}) AS pv GROUP BY part ${d.limit(int(FUNNEL_PARTS), 0)}`,
  );
  const people = perVisitor(true);
  const actors = done(
    p,
    people.named.statement(
      `SELECT ${fns.joined("concat(hex(mcid), '|', evs)", ";")} AS evs FROM (${people.body(`${fns.part("k")} AS part, max(cid) AS mcid, `)} ` +
        `${d.limit(int(FUNNEL_MAX_ROWS), 0)}) AS pv GROUP BY part ${d.limit(int(FUNNEL_PARTS), 0)}`,
    ),
  );
  return { ...done(p, sql), dialect, plan, actors };
}

function done(p: Params, sql: string): CompiledQuery {
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}
