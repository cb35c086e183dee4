// The trends insight (DESIGN.md §4 Trends, §5 the trends answer): per series and local-time bucket
// of the interval, a math over the series' matching events; optionally broken down by a dimension
// or prop (the series' top N values by event count, the rest as "$other"), and a formula over the
// series, computed in TypeScript after the SQL (shapeTrends).
//
// A comparison (previous period or year over year, date-range.ts comparisonRange) adds the same
// statements over the earlier period, tagged `period` 1, from the same printer: the breakdown's top
// N values stay the current period's (so a value means the same in both), the buckets are the
// earlier period's own, and a total of a range still running stops at the same elapsed stretch of
// the earlier period (today until 14:05 vs yesterday until 14:05), as the web-analytics aggregate's
// does. Without a comparison the statement is printed exactly as before (no `period` column).
//
// Unlike the web-analytics kinds, trends read raw `events` (the unit is the event and its visitor,
// not the visit; on DuckDB an unfiltered count of events or visitors reads the activity rollups
// for the days before their mark: trends-rollup.ts, or broken down by a visit attribute the
// breakdown rollups: trends-breakdown-rollup.ts; on ClickHouse a count of events or visitors by
// nothing or one kept column reads the event slots: trends-slots.ts), so a filter keeps the events whose own row matches: a session dimension is the
// column the event carries, a prop the event's prop. entry_page and exit_page are not on events
// and are refused. Every table read goes through relation.ts (the property predicate), every value
// is bound, the statement has a LIMIT.
import {
  type Comparison,
  type Dimension,
  evalFormula,
  type Filter,
  type FormulaNode,
  INSIGHT_LIMITS,
  type Interval,
  insightDateRange,
  isPropDimension,
  OTHER_BREAKDOWN_VALUE,
  parseFilters,
  PROPERTY_MATHS,
  parseFormula,
  propKey,
  seriesLetter,
  type TrendsAnswer,
  type TrendsComparison,
  type TrendsMath,
  type TrendsResult,
  type TrendsSeries,
  type TrendsSpec,
} from "@lookout/schema";
import { bucketLabels, bucketsUpToNow, MAX_BUCKETS } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { type ComparisonRange, comparisonRange, defaultInterval, type ResolvedRange, resolveDateRange } from "../date-range.js";
import { DIALECTS, type Dialect, type SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
import { isNegative, matchCondition } from "../filters.js";
import { NamedRows } from "../named.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { SESSION_DIMENSION_COLUMNS } from "../tables.js";
import { breakdownRollupDim, breakdownRollupSeries, trendsBreakdownRollupTo } from "./trends-breakdown-rollup.js";
import { rollupSeries, trendsRollupTo } from "./trends-rollup.js";
import { slotSeries } from "./trends-slots.js";
import { rollupParts } from "./trends-rollup-parts.js";
import {
  type Agg,
  CLICKHOUSE_STATES,
  type MathAggs,
  type StateRowsInput,
  stateRows,
  type TrendsStates,
} from "./trends-states.js";

/** What the trends SQL needs per dialect beyond the shared Dialect table. */
interface TrendsFunctions {
  /** A prop's value as a number, NULL when it is not one. */
  toNumber(value: string): string;
  /** Every value column as one type, so that the series' statements can be glued by UNION ALL. */
  asValue(expr: string): string;
  /** The median of a numeric expression (the mean of the two middle values for an even count), NULL when none. */
  median(x: string): string;
  /**
   * Aggregate states (ClickHouse's -State / -Merge), or null where the engine has none: with them a
   * series reads its events once, keeping a state per breakdown value and bucket; each bucket's
   * value finalizes its state and the total merges them. Without them (DuckDB) the buckets and the
   * total are two reads, as a visitor counts once in the total however many buckets they are in.
   */
  states: TrendsStates | null;
}

const TRENDS_FUNCTIONS: Record<SqlDialect, TrendsFunctions> = {
  duckdb: {
    toNumber: (v) => `TRY_CAST(${v} AS DOUBLE)`,
    asValue: (e) => `CAST(${e} AS DOUBLE)`,
    median: (x) => `median(${x})`,
    states: null,
  },
  clickhouse: {
    toNumber: (v) => `toFloat64OrNull(${v})`,
    asValue: (e) => `toNullable(toFloat64(${e}))`,
    // quantileExact picks one element; the mean of the two middle ones matches DuckDB's median.
    median: (x) => {
      const sorted = `arraySort(groupArray(${x}))`;
      const n = `count(${x})`;
      return `if(${n} = 0, NULL, (arrayElement(${sorted}, toUInt64(intDiv(${n} + 1, 2))) + arrayElement(${sorted}, toUInt64(intDiv(${n} + 2, 2)))) / 2)`;
    },
    states: CLICKHOUSE_STATES,
  },
};

/** The column of an event row a dimension reads (not a prop); entry/exit page live on visits only. */
export function eventColumn(dim: Exclude<Dimension, `prop:${string}`>, param: "filters" | "dimension"): string {
  if (dim === "page") return "path";
  if (dim === "event_name") return "name";
  if (dim === "entry_page" || dim === "exit_page") {
    throw new QueryError(
      "invalid_parameter",
      `${dim} is a visit's attribute; trends filter and break down by event attributes`,
      param,
    );
  }
  return SESSION_DIMENSION_COLUMNS[dim];
}

/** A filter as a condition on one event row: negative ops negate the whole OR. */
export function eventCondition(f: Filter, p: Params, d: Dialect): string {
  let core: string;
  if (isPropDimension(f.dimension)) {
    const key = p.add(propKey(f.dimension));
    core = `${d.hasProp(key)} AND ${matchCondition(f, d.propValue(key), p, d)}`;
  } else {
    core = matchCondition(f, eventColumn(f.dimension, "filters"), p, d);
  }
  return isNegative(f) ? `NOT (${core})` : `(${core})`;
}

/**
 * A series' math as aggregates and the value over them, or null for the median. mathSql prints it
 * over rows; the states' form (stateRows) over buckets' states, for the counting maths.
 */
function mathAggs(s: TrendsSeries, p: Params, d: Dialect, fns: TrendsFunctions): MathAggs | null {
  const math: TrendsMath = s.math;
  const one = (agg: Agg, value = (x: string) => x) => ({ aggs: [agg], value: (a: string[]) => value(a[0] ?? "") });
  if (math === "total") return one({ fn: "count", arg: "" });
  if (math === "unique_visitors") return one({ fn: "uniq", arg: d.eventVkey });
  if (math === "avg_per_visitor")
    return {
      aggs: [
        { fn: "count", arg: "" },
        { fn: "uniq", arg: d.eventVkey },
      ],
      value: ([n, u]) => d.div(n ?? "", u ?? ""),
    };
  if (math === "revenue") return one({ fn: "sum", arg: "revenue" }, (x) => `coalesce(${x}, 0)`);
  if (math === "median") return null;
  return one({ fn: math, arg: fns.toNumber(d.propValue(p.add(s.math_property ?? ""))) });
}

function mathSql(s: TrendsSeries, p: Params, d: Dialect, fns: TrendsFunctions): string {
  const m = mathAggs(s, p, d, fns);
  if (m === null) return fns.median(fns.toNumber(d.propValue(p.add(s.math_property ?? ""))));
  return m.value(m.aggs.map((a) => (a.fn === "count" ? "count(*)" : a.fn === "uniq" ? d.uniq(a.arg) : `${a.fn}(${a.arg})`)));
}

export interface CompiledTrends extends CompiledQuery {
  dialect: SqlDialect;
  range: ResolvedRange;
  interval: Interval;
  /** The buckets drawn (none after the one holding now). */
  buckets: string[];
  /** Per series: its letter and event ("A: pageview"). */
  seriesLabels: string[];
  /** Per series: its math (a counting math answers 0 where nothing happened, a measure null). */
  seriesMaths: TrendsMath[];
  breakdown: Dimension | null;
  formula: FormulaNode | null;
  /** The comparison asked for, its period and that period's buckets (every one, not only those up to now). */
  comparison: { type: Comparison; range: ComparisonRange; buckets: string[] } | null;
}

/** A row of the trends SQL: one per series, breakdown value and bucket, plus one total per series and value. */
export interface TrendsRow {
  series: number | bigint;
  /** 0 the spec's period, 1 the comparison's; absent without a comparison. */
  period?: number | bigint;
  bv: string;
  is_total: number | bigint | boolean;
  bucket: string;
  value: number | bigint | null;
}

export function compileTrends(spec: TrendsSpec, property: string, dialect: SqlDialect, ctx: CompileContext): CompiledTrends {
  const d = DIALECTS[dialect];
  const fns = TRENDS_FUNCTIONS[dialect];
  const p = new Params(d);
  const dateRange = insightDateRange(spec);
  const range = resolveDateRange(dateRange, ctx);
  const interval = spec.interval ?? defaultInterval(dateRange, range);
  const allBuckets = bucketLabels(range, interval, ctx.timezone);
  const cmp = spec.comparison ? comparisonRange(dateRange, range, spec.comparison, ctx) : null;
  const cmpBuckets = cmp ? bucketLabels(cmp, interval, ctx.timezone) : [];
  // Both periods in the scope: the local-time buckets' offsets then cover a DST change in either.
  const periods = [{ from: range.from.getTime(), to: range.to.getTime() }];
  if (cmp) periods.push({ from: cmp.from.getTime(), to: cmp.to.getTime() });
  const s = new Scope(d, p, property, periods, ctx.timezone);
  const globalFilters = parseFilters(spec.filters ?? "");
  const breakdown = spec.breakdown ?? null;
  const topN = spec.breakdown_limit ?? INSIGHT_LIMITS.defaultBreakdownValues;
  /** With a comparison every statement says which period its rows belong to. */
  const periodColumn = (period: number) => (cmp ? `${int(period)} AS period, ` : "");

  const statements: string[] = [];
  const named = new NamedRows(dialect);
  for (const [i, series] of spec.series.entries()) {
    const rollupArgs = {
      rollups: d.dayRollups,
      interval,
      range: periods[0] as { from: number; to: number },
      through: ctx.dayRollupThrough,
      timezone: ctx.timezone,
    };
    const rollupDim = breakdownRollupDim(spec.breakdown);
    const at = (r: { from: number; to: number }) => ({ ...rollupArgs, range: r });
    const breakdownParts =
      rollupDim === null ? null : rollupParts((r) => trendsBreakdownRollupTo(spec, series, at(r)), rollupArgs.range, cmp);
    if (breakdownParts !== null && rollupDim !== null) {
      const o = { s, p, named, i, event: series.event, math: series.math, interval: interval as "day", dim: rollupDim, topN };
      // The earlier period keeps the current period's top values (the first part's).
      let top: string | undefined;
      for (const { range: r, rollupTo, ...part } of breakdownParts) {
        const out = breakdownRollupSeries({ ...o, ...part, top }, r, rollupTo, ctx.timezone);
        top ??= out.top;
        statements.push(...out.statements);
      }
      continue;
    }
    const plainParts = rollupParts((r) => trendsRollupTo(spec, series, at(r)), rollupArgs.range, cmp);
    if (plainParts !== null) {
      const o = { s, p, named, i, event: series.event, math: series.math, interval: interval as "day" };
      for (const { range: r, rollupTo, ...part } of plainParts)
        statements.push(...rollupSeries({ ...o, ...part }, r, rollupTo, ctx.timezone));
      continue;
    }
    const slots =
      fns.states === null
        ? null
        : slotSeries({
            s,
            p,
            d,
            i,
            series,
            filters: [...globalFilters, ...parseFilters(series.filters ?? "")],
            breakdown,
            interval,
            timezone: ctx.timezone,
            topN,
            current: { from: range.from.getTime(), to: range.to.getTime() },
            earlier: cmp && { from: cmp.from.getTime(), to: cmp.to.getTime(), until: cmp.elapsedTo.getTime() },
            aggs: () => mathAggs(series, p, d, fns),
            asValue: fns.asValue,
          });
    if (slots !== null) {
      statements.push(slots);
      continue;
    }
    // Bound in this order (the snapshots pin parameter numbers): the range, then the conditions.
    const from0 = p.ts(range.from.getTime());
    const to0 = p.ts(range.to.getTime());
    const conditions = [
      `name = ${p.add(series.event)}`,
      ...globalFilters.map((f) => eventCondition(f, p, d)),
      ...parseFilters(series.filters ?? "").map((f) => eventCondition(f, p, d)),
    ];
    const where = [`ts >= ${from0}`, `ts < ${to0}`, ...conditions];
    let bv = "''";
    if (breakdown !== null) {
      const raw = isPropDimension(breakdown) ? d.propValue(p.add(propKey(breakdown))) : eventColumn(breakdown, "dimension");
      // The series' top N values by event count (ties by value), the rest as "$other".
      // Named: the bucket rows and the total read it (DuckDB computes it once, named.ts).
      const top = named.define(
        `top${int(i)}`,
        `SELECT ${raw} AS v FROM ${tableRead(s, "events", where)} GROUP BY v ORDER BY count(*) DESC, v ${d.limit(int(topN), 0)}`,
      );
      bv = `CASE WHEN ${raw} IN (SELECT v FROM ${top} AS tv) THEN ${raw} ELSE ${p.add(OTHER_BREAKDOWN_VALUE)} END`;
    }
    // Not a measure of a prop's numbers: on 18.16 a state over a Nullable argument finalizes and
    // merges to 0 where no event has a number, not to NULL (the trends model found it: min of no
    // numbers read 0). Those keep a read for the buckets and one for the total.
    const aggs = fns.states === null || PROPERTY_MATHS.includes(series.math) ? null : mathAggs(series, p, d, fns);
    const value = fns.asValue(mathSql(series, p, d, fns));
    const from = tableRead(s, "events", where);
    const k = s.bucket(interval, "ts");
    const bucketRows = (period: number, read: string, alias: string) =>
      `SELECT ${int(i)} AS series, ${periodColumn(period)}bv, 0 AS is_total, bucket, value FROM (SELECT ${bv} AS bv, ${d.label(interval, k)} AS bucket, ${value} AS value FROM ${read} GROUP BY bv, ${k}) AS ${alias}`;
    const totalRow = (period: number, read: string, alias: string) =>
      `SELECT ${int(i)} AS series, ${periodColumn(period)}bv, 1 AS is_total, '' AS bucket, value FROM (SELECT ${bv} AS bv, ${value} AS value FROM ${read} GROUP BY bv) AS ${alias}`;
    if (aggs !== null && fns.states !== null) {
      // One read of both periods (a comparison's earlier one too): TrendsFunctions.states.
      let read = from;
      let period: StateRowsInput["period"];
      if (cmp) {
        const cFrom = p.ts(cmp.from.getTime());
        const cTo = p.ts(cmp.to.getTime());
        const until = cmp.elapsedTo.getTime() === cmp.to.getTime() ? undefined : p.ts(cmp.elapsedTo.getTime());
        const both = `((ts >= ${from0} AND ts < ${to0}) OR (ts >= ${cFrom} AND ts < ${cTo}))`;
        read = tableRead(s, "events", [both, ...conditions]);
        // The earlier period is always before this one (the previous period, or a year earlier).
        period = { of: `if(ts >= ${from0}, 0, 1)`, until };
      }
      const label = d.label(interval, k);
      statements.push(stateRows({ i, bv, bucketKey: k, label, read, aggs, st: fns.states, asValue: fns.asValue, period }));
      continue;
    }
    statements.push(bucketRows(0, from, `s${int(i)}b`), totalRow(0, from, `s${int(i)}t`));
    if (cmp) {
      // The earlier period's buckets span its whole length; its total stops where this one's clock is.
      const cFrom = p.ts(cmp.from.getTime());
      const cWhere = [`ts >= ${cFrom}`, `ts < ${p.ts(cmp.to.getTime())}`, ...conditions];
      const cTotalWhere =
        cmp.elapsedTo.getTime() === cmp.to.getTime()
          ? cWhere
          : [`ts >= ${cFrom}`, `ts < ${p.ts(cmp.elapsedTo.getTime())}`, ...conditions];
      statements.push(
        bucketRows(1, tableRead(s, "events", cWhere), `s${int(i)}pb`),
        totalRow(1, tableRead(s, "events", cTotalWhere), `s${int(i)}pt`),
      );
    }
  }
  const rowsPerValue = Math.min(allBuckets.length, MAX_BUCKETS) + 1 + (cmp ? Math.min(cmpBuckets.length, MAX_BUCKETS) + 1 : 0);
  const cap = spec.series.length * (topN + 1) * rowsPerValue;
  const order = cmp ? "series, period, is_total, bv, bucket" : "series, is_total, bv, bucket";
  const sql = named.statement(`SELECT * FROM (${statements.join(" UNION ALL ")}) AS t ORDER BY ${order} ${d.limit(int(cap), 0)}`);
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return {
    sql,
    params,
    ...(keyParams.length > 0 ? { keyParams } : {}),
    dialect,
    range,
    interval,
    buckets: bucketsUpToNow(allBuckets, interval, ctx.timezone, ctx.now),
    seriesLabels: spec.series.map((x, i) => `${seriesLetter(i)}: ${x.event}`),
    seriesMaths: spec.series.map((x) => x.math),
    breakdown,
    formula: spec.formula && spec.formula.trim() !== "" ? parseFormula(spec.formula, spec.series.length) : null,
    comparison: cmp && spec.comparison ? { type: spec.comparison, range: cmp, buckets: cmpBuckets } : null,
  };
}

const num = (v: number | bigint | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The rows -> the answer: every drawn bucket in place (empty buckets count 0; a math with no
 * events in a bucket, such as an average, is null there), then the formula, when there is one,
 * in place of the series, per breakdown value.
 */
export function shapeTrends(c: CompiledTrends, rows: readonly TrendsRow[]): TrendsAnswer {
  type Cell = { total: number | null; byBucket: Map<string, number | null> };
  const cells = new Map<string, Cell>();
  const keyOf = (series: number, bv: string, period = 0) => `${series}\u0000${period}\u0000${bv}`;
  const values = new Set<string>();
  for (const r of rows) {
    const k = keyOf(Number(r.series), r.bv, Number(r.period ?? 0));
    values.add(r.bv);
    let cell = cells.get(k);
    if (!cell) {
      cell = { total: null, byBucket: new Map() };
      cells.set(k, cell);
    }
    if (r.is_total === true || Number(r.is_total) === 1) cell.total = num(r.value);
    else cell.byBucket.set(r.bucket, num(r.value));
  }
  const breakdownValues = c.breakdown === null ? [""] : [...values].sort(byBreakdown);
  const results: TrendsResult[] = [];
  const emptyValue = (series: number) => (isCounting(c, series) ? 0 : null);
  const seriesResult = (series: number, bv: string): TrendsResult => {
    const cell = cells.get(keyOf(series, bv));
    const empty = emptyValue(series);
    return {
      series: c.seriesLabels[series] ?? "",
      series_index: series,
      ...(c.breakdown === null ? {} : { breakdown_value: bv }),
      total: cell?.total ?? empty,
      data: c.buckets.map((date) => ({ date, value: cell?.byBucket.has(date) ? (cell.byBucket.get(date) ?? null) : empty })),
      ...(c.comparison === null ? {} : { comparison: comparisonOf(series, bv, cell?.total ?? empty) }),
    };
  };
  // The earlier period's points: one per drawn bucket of this period that the earlier one has.
  const cmpDates = c.comparison === null ? [] : c.comparison.buckets.slice(0, c.buckets.length);
  const comparisonOf = (series: number, bv: string, current: number | null): TrendsComparison => {
    const cell = cells.get(keyOf(series, bv, 1));
    const empty = emptyValue(series);
    const total = cell?.total ?? empty;
    return {
      total,
      change: percentChange(current, total),
      data: cmpDates.map((date) => ({ date, value: cell?.byBucket.has(date) ? (cell.byBucket.get(date) ?? null) : empty })),
    };
  };
  const silent = (r: TrendsResult) =>
    (r.total === null || r.total === 0) &&
    (r.comparison === undefined || r.comparison.total === null || r.comparison.total === 0);
  for (const bv of breakdownValues) {
    const perSeries = c.seriesLabels.map((_, i) => seriesResult(i, bv));
    if (c.breakdown !== null && perSeries.every(silent)) continue;
    if (c.formula === null) {
      results.push(...perSeries);
      continue;
    }
    const f = c.formula;
    const total = evalFormula(
      f,
      perSeries.map((r) => r.total),
    );
    results.push({
      series: "formula",
      series_index: null,
      ...(c.breakdown === null ? {} : { breakdown_value: bv }),
      total,
      data: c.buckets.map((date, j) => ({
        date,
        value: evalFormula(
          f,
          perSeries.map((r) => r.data[j]?.value ?? null),
        ),
      })),
      ...(c.comparison === null ? {} : { comparison: formulaComparison(f, perSeries, cmpDates, total) }),
    });
  }
  if (c.comparison === null) return { kind: "trends", results };
  const { type, range } = c.comparison;
  return { kind: "trends", results, comparison: { type, first_day: range.firstDay, last_day: range.lastDay } };
}

/** The formula over the series' earlier values. */
function formulaComparison(f: FormulaNode, perSeries: TrendsResult[], dates: string[], current: number | null): TrendsComparison {
  const total = evalFormula(
    f,
    perSeries.map((r) => r.comparison?.total ?? null),
  );
  return {
    total,
    change: percentChange(current, total),
    data: dates.map((date, j) => ({
      date,
      value: evalFormula(
        f,
        perSeries.map((r) => r.comparison?.data[j]?.value ?? null),
      ),
    })),
  };
}

/** The change from the earlier value in %, one decimal (as the web-analytics comparison's); null without a base. */
export function percentChange(current: number | null, earlier: number | null): number | null {
  if (current === null || earlier === null || earlier === 0) return null;
  return Math.round(((current - earlier) / Math.abs(earlier)) * 1000) / 10;
}

/** "$other" last, the rest by value. */
function byBreakdown(a: string, b: string): number {
  if (a === OTHER_BREAKDOWN_VALUE) return b === OTHER_BREAKDOWN_VALUE ? 0 : 1;
  if (b === OTHER_BREAKDOWN_VALUE) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a series' math counts (0 where nothing happened) rather than measures (null). */
function isCounting(c: CompiledTrends, series: number): boolean {
  const m = c.seriesMaths[series];
  return m === "total" || m === "unique_visitors" || m === "revenue";
}
