// The base printer: QuerySpec + property timezone + now -> one SQL statement with bound
// parameters, for either dialect. Three shapes: aggregate (one row per period), timeseries (one row
// per period and local-time bucket) and breakdown (one row per dimension value).
//
// Plan: pick the grain from the dimension — visits (`sessions`), visit x page (`session_pages`),
// visit x custom event name (`session_events`, or raw `events` when prop filters or a prop
// dimension need event props) — then filter it (filters.ts), join what the metrics need, and
// aggregate. Every visit and everything it did counts in the period where the visit started, so
// the totals of a chart add up to the range's totals and a visit is never split or counted twice.
import {
  type Dimension,
  type Interval,
  isPropDimension,
  type Metric,
  propKey,
  type QueryKind,
  type QuerySpec,
} from "@lookout/schema";
import { bucketLabels } from "./buckets.js";
import { DIMENSION_LEVELS, type Ingredients, METRIC_SQL, PAGEVIEW_METRICS, VISIT_ROW_METRICS } from "./catalog.js";
import {
  type ComparisonRange,
  comparisonRange,
  defaultInterval,
  type RangeContext,
  type ResolvedRange,
  resolveDateRange,
} from "./date-range.js";
import {
  ANY_DIM,
  additiveIngredients,
  type DayInterval,
  type DayRollupDim,
  dayRollupSelect,
  ingredientColumn,
  localDayNumber,
  SUMMED_INGREDIENTS,
  wholeDaysEnd,
} from "./day-rollup.js";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { isSingleIs, rowCondition, sortFilters } from "./filters.js";
import { int, Params } from "./params.js";
import { customEventCore, type Period, relation, Scope, semiJoins } from "./parts.js";
import { prevColumn, type SessionDimensionColumn } from "./tables.js";

export interface CompiledQuery {
  sql: string;
  params: Record<string, unknown>;
  /**
   * Parameters whose value is a property id that the adapter must bind as its own integer key of
   * that property (DuckDB: tables.ts), or as a key no row has when it has none.
   */
  keyParams?: string[];
}

export interface CompileContext extends RangeContext {
  /**
   * Where the store's day rollups for this property and timezone end (a local midnight, epoch ms;
   * every day before it is there), or undefined when it keeps none: see day-rollup.ts.
   */
  dayRollupThrough?: number | undefined;
}

export interface CompiledStats extends CompiledQuery {
  kind: QueryKind;
  dialect: SqlDialect;
  metrics: Metric[];
  dimension: Dimension | null;
  range: ResolvedRange;
  comparison: ComparisonRange | null;
  interval: Interval | null;
  /** Timeseries: every bucket label of the range (and of the comparison), in order. */
  buckets: string[];
  comparisonBuckets: string[];
}

/** The timeseries row cap; bucketLabels refuses more buckets than this per period. */
const MAX_TIMESERIES_ROWS = 2 * 1500;

type Grain = "sessions" | "pages" | "events" | "raw_events" | "props";

export function compileQuery(spec: QuerySpec, dialect: SqlDialect, ctx: CompileContext): CompiledStats {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const range = resolveDateRange(spec.date_range, ctx);
  const cmp = spec.comparison ? comparisonRange(spec.date_range, range, spec.comparison, ctx) : null;
  const interval = spec.kind === "timeseries" ? (spec.interval ?? defaultInterval(spec.date_range, range)) : null;
  const periods: Period[] = [{ from: range.from.getTime(), to: range.to.getTime() }];
  if (cmp) periods.push({ from: cmp.from.getTime(), to: (interval ? cmp.to : cmp.elapsedTo).getTime() });
  const buckets = interval ? bucketLabels(range, interval, ctx.timezone) : [];
  const comparisonBuckets = interval && cmp ? bucketLabels(cmp, interval, ctx.timezone) : [];

  const s = new Scope(d, p, spec.property, periods, ctx.timezone);
  const f = sortFilters(spec.filters);
  const ev = { page: f.page, event: f.event, prop: f.prop };
  const dim = spec.kind === "breakdown" ? (spec.dimensions[0] ?? null) : null;
  const level = dim === null || isPropDimension(dim) ? null : DIMENSION_LEVELS[dim];
  const grain: Grain =
    dim !== null && isPropDimension(dim)
      ? "props"
      : level?.level === "page"
        ? "pages"
        : level?.level === "event"
          ? f.prop.length > 0
            ? "raw_events"
            : "events"
          : "sessions";
  const metrics = new Set(spec.metrics);
  const has = (set: ReadonlySet<Metric>) => spec.metrics.some((m) => set.has(m));
  const positivePages = f.page.filter((x) => x.op === "is" || x.op === "contains" || x.op === "matches");
  const customCore = grain === "sessions" || grain === "pages" ? customEventCore(s, ev) : [];
  const usePf = grain !== "pages" && positivePages.length > 0 && has(PAGEVIEW_METRICS);
  const useEf = (grain === "sessions" || grain === "pages") && customCore.length > 0 && metrics.has("events");
  const useCv = metrics.has("conversions") || metrics.has("conversion_rate");
  const dayDim = dayRollupDim();
  const dayIngredients = dayDim === null ? null : additiveIngredients(spec.metrics);

  /**
   * One SELECT over `s`'s periods. A comparison runs one per period, glued by UNION ALL: each
   * branch then has a constant period and period start, so the engine neither evaluates a CASE per
   * row nor hashes rows by period, and an aggregate branch is a plain, ungrouped aggregate.
   */
  function statement(s: Scope, period: number | null, only?: (keyof Ingredients)[]): string {
    // --- the grain's own relation -------------------------------------------------------------
    const prevCol = fastPrevColumn();
    let base: string;
    const baseCols: string[] = ["skey", "vkey"];
    let dimExpr = "";
    if (grain === "sessions") {
      baseCols.push("start_ts");
      const dimCol = level?.level === "session" ? level.column : null;
      if (dimCol) baseCols.push(dimCol);
      dimExpr = dimCol ?? "";
      for (const c of sessionColumnsFor("sessions")) baseCols.push(c);
      if (prevCol) baseCols.push(prevCol);
      const where = [
        ...s.derivedWhere(),
        ...f.session.map((x) => rowCondition(x.filter, x.column, p, d)),
        ...semiJoins(s, ev, { key: "skey" }),
      ];
      base = relation(s, unique(baseCols), s.derived("sessions"), where);
    } else if (grain === "pages") {
      baseCols.push("start_ts", "path", "pageviews AS p_pageviews", "engaged_ms AS p_engaged");
      if (prevCol) baseCols.push(prevCol);
      dimExpr = "path";
      const where = [
        ...s.derivedWhere(),
        ...positivePages.map((x) => rowCondition(x, "path", p, d)),
        ...semiJoins(s, ev, { key: "skey", skipPositivePage: true, sessionFilters: f.session }),
      ];
      base = relation(s, baseCols, s.derived("session_pages"), where);
    } else if (grain === "events") {
      baseCols.push("start_ts", "name", "events AS x_events");
      if (prevCol) baseCols.push(prevCol);
      dimExpr = "name";
      const where = [
        ...s.derivedWhere(),
        ...customEventCore(s, ev),
        ...semiJoins(s, ev, { key: "skey", skipPositiveCustom: true, sessionFilters: f.session }),
      ];
      base = relation(s, baseCols, s.derived("session_events"), where);
    } else {
      // Raw events, grouped to one row per visit and value; the visit's start comes from the
      // sessions join below, which also confines rows to visits that started in the range.
      const valueExpr = grain === "props" && dim !== null && isPropDimension(dim) ? d.propValue(p.add(propKey(dim))) : "name";
      const where = [
        ...s.customEventsWhere(),
        ...(grain === "props" && dim !== null && isPropDimension(dim) ? [d.hasProp(p.add(propKey(dim)))] : []),
        ...customEventCore(s, ev),
        ...semiJoins(s, ev, { key: d.eventSkey, skipPositiveCustom: true, sessionFilters: f.session }),
      ];
      dimExpr = "dim_value";
      const cols = [
        `${d.eventSkey} AS skey`,
        `${d.anyValue(d.eventVkey)} AS vkey`,
        `${valueExpr} AS dim_value`,
        "count(*) AS x_events",
      ];
      base = relation(s, cols, "events", where, `${d.eventSkey}, dim_value`);
      baseCols.push("dim_value", "x_events");
    }

    // --- joins the metrics need ---------------------------------------------------------------
    let from = base;
    const cols = baseCols.map((c) => c.split(" AS ").pop() as string);
    const joinCols = (extra: string[]) => {
      for (const c of extra) if (!cols.includes(c)) cols.push(c);
      return cols;
    };
    const needSessionRow =
      grain !== "sessions" &&
      (has(VISIT_ROW_METRICS) ||
        grain === "raw_events" ||
        grain === "props" ||
        (grain !== "pages" && has(PAGEVIEW_METRICS) && !usePf) ||
        (grain === "pages" && metrics.has("events") && !useEf));
    if (needSessionRow) {
      const sc = ["skey", ...sessionColumnsFor(grain)];
      if (grain === "raw_events" || grain === "props") sc.push("start_ts");
      const right = relation(s, sc, s.derived("sessions"), s.derivedWhere());
      from = d.join(from, right, "inner", joinCols(sc.slice(1).map((c) => c.split(" AS ").pop() as string)));
    }
    if (usePf) {
      const where = [...s.derivedWhere(), ...positivePages.map((x) => rowCondition(x, "path", p, d))];
      const pc = ["skey", "sum(pageviews) AS pf_pageviews", "sum(engaged_ms) AS pf_engaged"];
      from = d.join(
        from,
        relation(s, pc, s.derived("session_pages"), where, "skey"),
        "inner",
        joinCols(["pf_pageviews", "pf_engaged"]),
      );
    }
    if (useEf) {
      const right =
        f.prop.length > 0
          ? relation(
              s,
              [`${d.eventSkey} AS skey`, "count(*) AS ef_events"],
              "events",
              [...s.customEventsWhere(), ...customCore],
              d.eventSkey,
            )
          : relation(
              s,
              ["skey", "sum(events) AS ef_events"],
              s.derived("session_events"),
              [...s.derivedWhere(), ...customCore],
              "skey",
            );
      from = d.join(from, right, "inner", joinCols(["ef_events"]));
    }
    if (useCv && spec.goal !== undefined) {
      const where = [...s.derivedWhere(), `name = ${p.add(spec.goal)}`];
      const right = relation(s, ["skey", "1 AS cv_converted"], s.derived("session_events"), where, "skey");
      from = d.join(from, right, "left", joinCols(["cv_converted"]));
    }

    // --- aggregates ---------------------------------------------------------------------------
    const sum = (c: string) => `sum(${c})`;
    const ing: Ingredients = {
      visitors: prevCol ? d.countIf(fastVisitorCondition(s, prevCol)) : d.uniq("vkey"),
      visits: "count(*)",
      pageviews: sum(grain === "pages" ? "p_pageviews" : usePf ? "pf_pageviews" : "s_pageviews"),
      engagedMs: sum(grain === "pages" ? "p_engaged" : usePf ? "pf_engaged" : "s_engaged"),
      events: sum(
        grain === "events" || grain === "raw_events" || grain === "props" ? "x_events" : useEf ? "ef_events" : "s_events",
      ),
      bounces: d.countIf("bounce"),
      durationSum: sum("duration"),
      conversions: d.uniqIf("vkey", "coalesce(cv_converted, 0) = 1"),
    };
    const select: string[] = [];
    const groupBy: string[] = [];
    if (only) {
      // One half of a split period (periodStatement): grouped, the ingredients left unfinished.
      if (spec.kind === "timeseries" && interval) {
        select.push(`${s.bucket(interval, "start_ts")} AS k`);
        groupBy.push("k");
      } else if (spec.kind === "breakdown") {
        select.push(`${dimExpr} AS dim`);
        groupBy.push("dim");
      }
      for (const i of only) select.push(`${ing[i]} AS ${ingredientColumn(i)}`);
      return `SELECT ${select.join(", ")} FROM ${from}${groupBy.length > 0 ? ` GROUP BY ${groupBy.join(", ")}` : ""}`;
    }
    if (period !== null) select.push(`${period} AS period`);
    if (spec.kind === "timeseries" && interval) {
      // Grouped by the bucket key, labelled once per group.
      const key = s.bucket(interval, "start_ts");
      select.push(`${d.label(interval, key)} AS bucket`);
      groupBy.push(key);
    } else if (spec.kind === "breakdown") {
      select.push(`${dimExpr} AS dim`);
      groupBy.push("dim");
    }
    for (const m of spec.metrics) select.push(`${METRIC_SQL[m](ing, d)} AS ${m}`);
    return `SELECT ${select.join(", ")} FROM ${from}${groupBy.length > 0 ? ` GROUP BY ${groupBy.join(", ")}` : ""}`;
  }

  const order: string[] = [];
  let limit: number;
  if (periods.length > 1) order.push("period");
  if (spec.kind === "timeseries" && interval) {
    order.push("bucket");
    limit = Math.min(buckets.length + comparisonBuckets.length, MAX_TIMESERIES_ROWS);
  } else if (spec.kind === "breakdown") {
    const by = spec.order?.by ?? (metrics.has("visitors") ? "visitors" : spec.metrics[0]);
    const dir = (spec.order?.direction ?? "desc").toUpperCase();
    if (by === "dimension") order.push(`dim ${dir}`);
    else order.push(`${by} ${dir}`, "dim ASC");
    limit = spec.limit;
  } else {
    limit = periods.length;
  }
  let sql =
    periods.length > 1
      ? `SELECT * FROM (${periods.map((x, i) => periodStatement(x, i)).join(" UNION ALL ")})`
      : periodStatement(periods[0] as Period, null);
  if (order.length > 0) sql += ` ORDER BY ${order.join(", ")}`;
  sql += ` ${d.limit(int(Math.max(1, limit)), int(spec.kind === "breakdown" ? spec.offset : 0))}`;

  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return {
    sql,
    params,
    ...(keyParams.length > 0 ? { keyParams } : {}),
    kind: spec.kind,
    dialect,
    metrics: spec.metrics,
    dimension: dim,
    range,
    comparison: cmp,
    interval,
    buckets,
    comparisonBuckets,
  };

  /**
   * One period's SELECT. Where day rollups can answer it (dayRollupDim), its whole days up to
   * where the store has them are read from there and only the rest from the visit rollups, each
   * half summing the metrics' ingredients, which the outer SELECT finishes.
   */
  function periodStatement(x: Period, index: number | null): string {
    const tz = ctx.timezone;
    const to = dayDim && dayIngredients ? wholeDaysEnd(tz, x, ctx.dayRollupThrough) : null;
    if (!dayDim || !dayIngredients || to === null) return statement(new Scope(d, p, spec.property, [x], tz), index);
    const key =
      spec.kind === "breakdown"
        ? ({ by: "value" } as const)
        : spec.kind === "timeseries" && interval
          ? ({ by: "bucket", interval: interval as DayInterval } as const)
          : null;
    const head = dayRollupSelect({
      property: s.property,
      tz: p.add(tz),
      dim: p.add(dayDim),
      fromDay: localDayNumber(tz, x.from),
      toDay: localDayNumber(tz, to),
      key,
      ingredients: dayIngredients,
    });
    const rest =
      to < x.to
        ? statement(new Scope(d, p, spec.property, [{ from: to, to: x.to, countFrom: x.from }], tz), null, dayIngredients)
        : null;
    const select: string[] = [];
    if (index !== null) select.push(`${index} AS period`);
    if (key?.by === "bucket") select.push(`${d.label(key.interval, "k")} AS bucket`);
    if (key?.by === "value") select.push("dim");
    for (const m of spec.metrics) select.push(`${METRIC_SQL[m](SUMMED_INGREDIENTS, d)} AS ${m}`);
    const inner = rest ? `${head} UNION ALL ${rest}` : head;
    return `SELECT ${select.join(", ")} FROM (${inner})${key ? ` GROUP BY ${key.by === "value" ? "dim" : "k"}` : ""}`;
  }

  /** The day rollups' `dim` that answers this query, or null when they cannot (day-rollup.ts). */
  function dayRollupDim(): DayRollupDim | null {
    if (!d.dayRollups || ctx.dayRollupThrough === undefined || spec.filters.length > 0) return null;
    if (interval === "hour" || interval === "minute") return null;
    if (grain === "sessions") return level?.level === "session" ? level.column : ANY_DIM;
    if (grain === "pages") return "path";
    if (grain === "events") return "name";
    return null;
  }

  /** The visit columns a grain reads, renamed where they would clash with the grain's own. */
  function sessionColumnsFor(g: Grain): string[] {
    const out: string[] = [];
    if (has(VISIT_ROW_METRICS)) out.push("bounce", "duration");
    if (!usePf && g !== "pages" && has(PAGEVIEW_METRICS)) {
      out.push("pageviews AS s_pageviews", "engaged_ms AS s_engaged");
    }
    if ((g === "sessions" || g === "pages") && !useEf && metrics.has("events")) out.push("events AS s_events");
    return out;
  }

  /**
   * The prev_* column that makes "visitors" a filtered COUNT (tables.ts), or null when the filters
   * could let a visitor's earlier matching visit be a different row than the prev_* one points at.
   */
  function fastPrevColumn(): string | null {
    if (!d.prevColumns) return null;
    if (grain === "sessions") {
      if (f.page.length + f.event.length + f.prop.length > 0) return null;
      const dimCol: SessionDimensionColumn | null = level?.level === "session" ? level.column : null;
      if (dimCol) return f.session.every((x) => x.column === dimCol && isSingleIs(x.filter)) ? prevColumn(dimCol) : null;
      if (f.session.length === 0) return prevColumn("any");
      const only = f.session[0];
      return f.session.length === 1 && only && isSingleIs(only.filter) ? prevColumn(only.column) : null;
    }
    const others = f.session.length + f.prop.length;
    if (grain === "pages")
      return others + f.event.length === 0 && f.page.every(isSingleIs) && f.page.length <= 1 ? "prev_path" : null;
    if (grain === "events")
      return others + f.page.length === 0 && f.event.every(isSingleIs) && f.event.length <= 1 ? "prev_name" : null;
    return null;
  }

  /** Counted iff the visitor's previous matching visit is before the period (or chart bucket). */
  function fastVisitorCondition(s: Scope, col: string): string {
    const before = `${col} < ${s.periodStart()}`;
    if (!interval) return before;
    // Most visits have no earlier one in the range: the bucket of prev_* is computed for the rest only.
    return d.orElse(before, `${s.bucket(interval, col)} < ${s.bucket(interval, "start_ts")}`);
  }
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
