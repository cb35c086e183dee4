// The SQL printer of the web-analytics kinds: a QueryPlan (plan.ts) -> one statement with bound
// parameters, for either dialect. It decides nothing the plan has not: it lays out the grain's
// relation, the joins, the aggregates, one SELECT per period (glued by UNION ALL), ORDER BY and
// LIMIT. Every table read goes through relation.ts, which adds the property predicate.
//
// Parameters are numbered by first use (params.ts), so the order in which this module registers
// them is part of its output (the snapshots pin it): keep the evaluation order when editing.
import { isPropDimension, propKey } from "@lookout/schema";
import { type Ingredients, METRIC_SQL } from "./catalog.js";
import type { CompiledQuery } from "./compiled.js";
import { type DayInterval, dayRollupSelect, ingredientColumn, SUMMED_INGREDIENTS } from "./day-rollup.js";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { rowCondition } from "./filters.js";
import { int, Params } from "./params.js";
import { customEventCore, type Period, Scope, semiJoins } from "./parts.js";
import type { PlannedPeriod, QueryPlan } from "./plan.js";
import { type Column, col, columnName, relation } from "./relation.js";

export function printQuery(plan: QueryPlan, dialect: SqlDialect): CompiledQuery {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const tz = plan.timezone;
  const s = new Scope(d, p, plan.property, plan.periods, tz, plan.settledVisits);
  const f = plan.filters;
  const { grain, key, joins } = plan;
  // Bound here, before any period's statement: the visit-level grains reuse these conditions for
  // the matching-events join.
  const customCore = grain === "sessions" || grain === "pages" ? customEventCore(s, f) : [];

  /**
   * One SELECT over `s`'s period. With `only`, one half of a split period (periodStatement):
   * grouped, the ingredients left unfinished for the outer SELECT to sum.
   */
  function statement(s: Scope, period: number | null, only?: (keyof Ingredients)[]): string {
    // --- the grain's own relation -------------------------------------------------------------
    const prevCol = plan.prevColumn;
    let base: string;
    let baseCols: Column[] = [col("skey"), col("vkey")];
    let dimExpr = "";
    if (grain === "sessions") {
      const dimCol = plan.dimensionColumn;
      baseCols.push(col("start_ts"));
      if (dimCol) baseCols.push(col(dimCol));
      dimExpr = dimCol ?? "";
      baseCols.push(...plan.visitColumns);
      if (prevCol) baseCols.push(col(prevCol));
      baseCols = baseCols.filter((c, i) => baseCols.findIndex((x) => columnName(x) === columnName(c)) === i);
      const where = [
        ...s.derivedWhere(),
        ...f.session.map((x) => rowCondition(x.filter, x.column, p, d)),
        ...semiJoins(s, f, { key: "skey" }),
      ];
      base = relation(s, baseCols, "sessions", where);
    } else if (grain === "pages") {
      baseCols.push(col("start_ts"), col("path"), col("pageviews", "p_pageviews"), col("engaged_ms", "p_engaged"));
      if (prevCol) baseCols.push(col(prevCol));
      dimExpr = "path";
      const where = [
        ...s.derivedWhere(),
        ...plan.positivePages.map((x) => rowCondition(x, "path", p, d)),
        ...semiJoins(s, f, { key: "skey", skipPositivePage: true, sessionFilters: f.session }),
      ];
      base = relation(s, baseCols, "session_pages", where);
    } else if (grain === "events") {
      baseCols.push(col("start_ts"), col("name"), col("events", "x_events"));
      if (prevCol) baseCols.push(col(prevCol));
      dimExpr = "name";
      const where = [
        ...s.derivedWhere(),
        ...customEventCore(s, f),
        ...semiJoins(s, f, { key: "skey", skipPositiveCustom: true, sessionFilters: f.session }),
      ];
      base = relation(s, baseCols, "session_events", where);
    } else {
      // Raw events, grouped to one row per visit and value; the visit's start comes from the
      // visit join below, which also confines rows to visits that started in the range.
      const prop = grain === "props" && key.by === "dimension" && isPropDimension(key.dimension) ? key.dimension : null;
      const valueExpr = prop ? d.propValue(p.add(propKey(prop))) : "name";
      const where = [
        ...s.customEventsWhere(),
        ...(prop ? [d.hasProp(p.add(propKey(prop)))] : []),
        ...customEventCore(s, f),
        ...semiJoins(s, f, { key: d.eventSkey, skipPositiveCustom: true, sessionFilters: f.session }),
      ];
      dimExpr = "dim_value";
      const cols = [col(d.eventSkey, "skey"), col(d.anyValue(d.eventVkey), "vkey"), col(valueExpr, "dim_value")];
      cols.push(col("count(*)", "x_events"));
      base = relation(s, cols, "events", where, `${d.eventSkey}, dim_value`);
      baseCols = cols;
    }

    // --- joins the metrics need ---------------------------------------------------------------
    let from = base;
    // The columns the joined relation carries so far (ClickHouse's nested joins list them).
    const names = baseCols.map(columnName);
    const joinCols = (extra: readonly string[]) => {
      for (const c of extra) if (!names.includes(c)) names.push(c);
      return names;
    };
    if (joins.visit) {
      const sc = [...plan.visitColumns];
      if (grain === "raw_events" || grain === "props") sc.push(col("start_ts"));
      const right = relation(s, [col("skey"), ...sc], "sessions", s.derivedWhere());
      from = d.join(from, right, "inner", joinCols(sc.map(columnName)));
    }
    if (joins.matchingPages) {
      const where = [...s.derivedWhere(), ...plan.positivePages.map((x) => rowCondition(x, "path", p, d))];
      const pc = [col("skey"), col("sum(pageviews)", "pf_pageviews"), col("sum(engaged_ms)", "pf_engaged")];
      from = d.join(from, relation(s, pc, "session_pages", where, "skey"), "inner", joinCols(["pf_pageviews", "pf_engaged"]));
    }
    if (joins.matchingEvents === "events") {
      const cols = [col(d.eventSkey, "skey"), col("count(*)", "ef_events")];
      const right = relation(s, cols, "events", [...s.customEventsWhere(), ...customCore], d.eventSkey);
      from = d.join(from, right, "inner", joinCols(["ef_events"]));
    } else if (joins.matchingEvents === "session_events") {
      const cols = [col("skey"), col("sum(events)", "ef_events")];
      const right = relation(s, cols, "session_events", [...s.derivedWhere(), ...customCore], "skey");
      from = d.join(from, right, "inner", joinCols(["ef_events"]));
    }
    if (joins.conversions !== null) {
      const where = [...s.derivedWhere(), `name = ${p.add(joins.conversions)}`];
      const right = relation(s, [col("skey"), col("1", "cv_converted")], "session_events", where, "skey");
      from = d.join(from, right, "left", joinCols(["cv_converted"]));
    }

    // --- aggregates ---------------------------------------------------------------------------
    const sum = (c: string) => `sum(${c})`;
    const pf = joins.matchingPages;
    const ing: Ingredients = {
      visitors: prevCol ? d.countIf(fastVisitorCondition(s, prevCol)) : d.uniq("vkey"),
      visits: "count(*)",
      pageviews: sum(grain === "pages" ? "p_pageviews" : pf ? "pf_pageviews" : "s_pageviews"),
      engagedMs: sum(grain === "pages" ? "p_engaged" : pf ? "pf_engaged" : "s_engaged"),
      events: sum(grain === "sessions" || grain === "pages" ? (joins.matchingEvents ? "ef_events" : "s_events") : "x_events"),
      bounces: d.countIf("bounce"),
      durationSum: sum("duration"),
      conversions: d.uniqIf("vkey", "coalesce(cv_converted, 0) = 1"),
    };
    const select: string[] = [];
    const groupBy: string[] = [];
    if (only) {
      if (key.by === "bucket") {
        select.push(`${s.bucket(key.interval, "start_ts")} AS k`);
        groupBy.push("k");
      } else if (key.by === "dimension") {
        select.push(`${dimExpr} AS dim`);
        groupBy.push("dim");
      }
      for (const i of only) select.push(`${ing[i]} AS ${ingredientColumn(i)}`);
      return `SELECT ${select.join(", ")} FROM ${from}${groupBy.length > 0 ? ` GROUP BY ${groupBy.join(", ")}` : ""}`;
    }
    if (period !== null) select.push(`${period} AS period`);
    if (key.by === "bucket") {
      // Grouped by the bucket key, labelled once per group.
      const k = s.bucket(key.interval, "start_ts");
      select.push(`${d.label(key.interval, k)} AS bucket`);
      groupBy.push(k);
    } else if (key.by === "dimension") {
      select.push(`${dimExpr} AS dim`);
      groupBy.push("dim");
    }
    for (const m of plan.metrics) select.push(`${METRIC_SQL[m](ing, d)} AS ${m}`);
    return `SELECT ${select.join(", ")} FROM ${from}${groupBy.length > 0 ? ` GROUP BY ${groupBy.join(", ")}` : ""}`;
  }

  /** Counted iff the visitor's previous matching visit is before the period (or chart bucket). */
  function fastVisitorCondition(s: Scope, column: string): string {
    const before = `${column} < ${s.periodStart()}`;
    if (key.by !== "bucket") return before;
    // Most visits have no earlier one in the range: DuckDB computes the bucket of prev_* for the rest only.
    return d.orElse(before, `${s.bucket(key.interval, column)} < ${s.bucket(key.interval, "start_ts")}`);
  }

  /**
   * One period's SELECT. With day rows (plan.periods[i].dayRows), its whole days are read from
   * there and only the rest from the visit rollups, each half summing the metrics' ingredients,
   * which the outer SELECT finishes.
   */
  function periodStatement(x: PlannedPeriod, index: number | null): string {
    const own: Period = { from: x.from, to: x.to };
    if (!x.dayRows || !plan.dayRollup) return statement(new Scope(d, p, plan.property, [own], tz, plan.settledVisits), index);
    const { dim, ingredients } = plan.dayRollup;
    const dayKey =
      key.by === "dimension"
        ? ({ by: "value" } as const)
        : key.by === "bucket"
          ? ({ by: "bucket", interval: key.interval as DayInterval } as const)
          : null;
    const head = dayRollupSelect(s, {
      tz: p.add(tz),
      dim: p.add(dim),
      fromDay: x.dayRows.fromDay,
      toDay: x.dayRows.toDay,
      key: dayKey,
      ingredients,
      span: { from: x.from, end: x.dayRows.restFrom, settled: plan.settledVisits },
    });
    const restFrom = x.dayRows.restFrom;
    const rest =
      restFrom < x.to
        ? statement(
            new Scope(d, p, plan.property, [{ from: restFrom, to: x.to, countFrom: x.from }], tz, plan.settledVisits),
            null,
            ingredients,
          )
        : null;
    const select: string[] = [];
    if (index !== null) select.push(`${index} AS period`);
    if (dayKey?.by === "bucket") select.push(`${d.label(dayKey.interval, "k")} AS bucket`);
    if (dayKey?.by === "value") select.push("dim");
    for (const m of plan.metrics) select.push(`${METRIC_SQL[m](SUMMED_INGREDIENTS, d)} AS ${m}`);
    const inner = rest ? `${head} UNION ALL ${rest}` : head;
    return `SELECT ${select.join(", ")} FROM (${inner})${dayKey ? ` GROUP BY ${dayKey.by === "value" ? "dim" : "k"}` : ""}`;
  }

  const periods = plan.periods;
  let sql =
    periods.length > 1
      ? `SELECT * FROM (${periods.map((x, i) => periodStatement(x, i)).join(" UNION ALL ")})`
      : periodStatement(periods[0] as PlannedPeriod, null);
  const order = [
    ...(periods.length > 1 ? ["period"] : []),
    ...plan.order.map((o) => (o.direction ? `${o.column} ${o.direction}` : o.column)),
  ];
  if (order.length > 0) sql += ` ORDER BY ${order.join(", ")}`;
  sql += ` ${d.limit(int(Math.max(1, plan.limit)), int(plan.offset))}`;

  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}
