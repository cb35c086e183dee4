// The SQL printer of the goals kind: a GoalsPlan (goals-plan.ts) -> one statement with bound
// parameters, for either dialect (the dialect tables of dialects.ts; the same code prints both).
//
//   SELECT dim, g_visitors AS visitors, g_events AS events, ...
//   FROM (<goal 1> UNION ALL <goal 2> ...) ORDER BY ... LIMIT ...
//   <goal i> = SELECT <label> AS dim, uniq(vkey) AS g_visitors, sum(<count>) AS g_events
//              FROM (SELECT vkey, <count> FROM <rollup> WHERE <property> AND <period> AND <match>
//                    AND <the filters as visit semi-joins>)
// An aggregate without GROUP BY answers one row even when nothing matched, so every goal has its
// row. conversion_rate divides by the range's visitors under the same filters, counted once in a
// scalar subquery. Every table read goes through relation.ts (the property predicate), every
// value (labels, event names, patterns) is a bound parameter.
import type { GoalMetric } from "@lookout/schema";
import type { CompiledQuery } from "./compiled.js";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { rowCondition } from "./filters.js";
import type { GoalsPlan, PlannedGoal } from "./goals-plan.js";
import { int, Params } from "./params.js";
import { Scope, semiJoins } from "./parts.js";
import { col, relation, tableRead } from "./relation.js";

export function printGoals(plan: GoalsPlan, dialect: SqlDialect): CompiledQuery {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const s = new Scope(d, p, plan.property, [plan.period], plan.timezone);
  const f = plan.filters;

  function goalStatement(g: PlannedGoal): string {
    const label = p.add(g.label);
    const value = p.add(g.test.value);
    const match = g.test.op === "equals" ? `${g.column} = ${value}` : d.matches(g.column, value);
    const where = [...s.derivedWhere(), match, ...semiJoins(s, f, { key: "skey", sessionFilters: f.session })];
    const rows = relation(s, [col("vkey"), col(g.countColumn, "g_n")], g.table, where);
    return `SELECT ${label} AS dim, ${d.uniq("vkey")} AS g_visitors, coalesce(sum(g_n), 0) AS g_events FROM ${rows}`;
  }

  const goals = plan.goals.map(goalStatement).join(" UNION ALL ");
  let total = "";
  if (plan.totalVisitors) {
    // The aggregate kind's visitors under the same filters (the sessions grain of print.ts).
    const where = [
      ...s.derivedWhere(),
      ...f.session.map((x) => rowCondition(x.filter, x.column, p, d)),
      ...semiJoins(s, f, { key: "skey" }),
    ];
    total = `(SELECT ${d.uniq("vkey")} FROM ${tableRead(s, "sessions", where)})`;
  }
  const METRIC: Record<GoalMetric, () => string> = {
    visitors: () => "g_visitors",
    events: () => "g_events",
    conversions: () => "g_visitors",
    conversion_rate: () => `100 * ${d.div("g_visitors", total)}`,
  };
  const select = ["dim", ...plan.metrics.map((m) => `${METRIC[m]()} AS ${m}`)];
  let sql = `SELECT ${select.join(", ")} FROM (${goals})`;
  if (plan.order.length > 0) sql += ` ORDER BY ${plan.order.map((o) => `${o.column} ${o.direction}`).join(", ")}`;
  sql += ` ${d.limit(int(Math.max(1, plan.limit)), int(plan.offset))}`;

  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}
