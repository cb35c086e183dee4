// Test support (no runtime use): the compiler's safety rules (DESIGN.md §6) as checks on printed
// SQL, and a printer that lays SQL out by nesting so that snapshots read like queries.
//   - every table read gets the property predicate;
//   - every value is a bound parameter: the only string literals are the compiler's own constants;
//   - every result has a LIMIT cap.

import { SETTLED_PARAMS } from "./clickhouse-visits.js";
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import type { TableName } from "./relation.js";

/** The tables relation.ts may print (the type checker keeps the two lists alike). */
export const READ_TABLES = [
  "events",
  "sessions",
  "session_pages",
  "session_events",
  "day_rollup",
  "activity_rollup",
  "visitor_activity",
  "breakdown_rollup",
  "breakdown_multi",
  "paths_rollup",
  "paths_pages",
  "visitor_visits",
  "visitor_summary",
  "visits",
  "visit_pages",
  "visit_events",
  "visits_done",
  "visit_pages_done",
  "visit_events_done",
  "visit_days",
  "visit_paths",
  "visit_path_visits",
  "event_slots",
] as const satisfies readonly TableName[];
const _everyTableChecked: Record<Exclude<TableName, (typeof READ_TABLES)[number]>, never> = {};

/** The string literals the compiler may print itself (event names, formats, units, the UTC zone). */
export const ALLOWED_LITERALS = new Set([
  "",
  "pageview",
  "engagement",
  "pageleave",
  "identify",
  "UTC",
  "minute",
  "hour",
  "day",
  "week",
  "month",
  "%Y-%m-%d",
  "%Y-%m-%d %H:%M:%S",
  // Day zero of ClickHouse's day rows' local day numbers (clickhouse-day-rows.ts).
  "1970-01-01",
  // Separators of the funnel's per-visitor event lists, of its packed visitors and of a visitor's
  // client id from their events (insights/funnel.ts).
  ":",
  ",",
  ";",
  "|",
]);

function placeholderRe(dialect: SqlDialect): RegExp {
  return dialect === "duckdb" ? /\$(p\d+)\b/g : /\{([A-Za-z_][A-Za-z0-9_]*):(?:String|UInt64s)\}/g;
}

/** The property predicate as the dialect prints it (DuckDB: the property's integer key; tables.ts). */
export function propertyPredicate(dialect: SqlDialect, name: string): string {
  return dialect === "duckdb" ? `pkey = CAST($${name} AS BIGINT)` : `property = {${name}:String}`;
}

/** Every violation of the safety rules in `q`; empty when it is sound. */
export function sqlProblems(q: CompiledQuery, dialect: SqlDialect, property: string, maxRows: number): string[] {
  const out: string[] = [];
  const { sql, params } = q;

  // Parameters: every placeholder bound, every binding used.
  const used = new Set([...sql.matchAll(placeholderRe(dialect))].map((m) => m[1] as string));
  // ClickHouse's settled visits are bound by the store when the statement runs, unless compiled in.
  const byStore = new Set<string>(Object.values(SETTLED_PARAMS));
  for (const name of used) if (!(name in params) && !byStore.has(name)) out.push(`placeholder ${name} has no value`);
  for (const name of Object.keys(params)) if (!used.has(name)) out.push(`parameter ${name} is not used`);

  // Literals: only the compiler's constants.
  for (const m of sql.matchAll(/'((?:[^']|'')*)'/g)) {
    if (!ALLOWED_LITERALS.has(m[1] as string)) out.push(`string literal '${m[1]}' in SQL text`);
  }

  // Property predicate on every table read.
  const propName = Object.entries(params).find(
    ([name, v]) => v === property && (dialect !== "duckdb" || (q.keyParams ?? []).includes(name)),
  )?.[0];
  if (!propName) out.push("the property is not a parameter (DuckDB: a key parameter)");
  const predicate = propName ? propertyPredicate(dialect, propName) : "<none>";
  // (ClickHouse's ARRAY JOIN unnests a column of the rows read: no relation. A name the statement
  // gives its own subquery (WITH name AS MATERIALIZED (...), named.ts) is read as that subquery, itself checked here.)
  const named = new Set([...sql.matchAll(/\b([A-Za-z_][A-Za-z0-9_]*) AS MATERIALIZED \(/g)].map((m) => m[1] as string));
  for (const m of sql.matchAll(/(?<!ARRAY )\b(FROM|JOIN)\s+(?!\()([A-Za-z_][A-Za-z0-9_.]*)/g)) {
    const table = m[2] as string;
    if (named.has(table)) continue;
    if (!(READ_TABLES as readonly string[]).includes(table)) {
      out.push(`${m[1]} reads unknown relation ${table}`);
      continue;
    }
    const rest = sql.slice((m.index ?? 0) + m[0].length);
    if (!rest.startsWith(` WHERE ${predicate}`)) out.push(`read of ${table} without the property predicate`);
  }

  // A LIMIT on the outermost statement, no larger than the cap.
  const lm = sql.match(dialect === "duckdb" ? /\bLIMIT (\d+)(?: OFFSET \d+)?$/ : /\bLIMIT \d+, (\d+)$/);
  if (!lm) out.push("no LIMIT at the end of the statement");
  else if (Number(lm[1]) > maxRows) out.push(`LIMIT ${lm[1]} exceeds ${maxRows}`);
  else if (depthAt(sql, lm.index ?? 0) !== 0) out.push("the final LIMIT is not on the outer statement");
  return out;
}

function depthAt(sql: string, index: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < index; i++) {
    const ch = sql[i];
    if (ch === "'") quoted = !quoted;
    else if (!quoted && ch === "(") depth++;
    else if (!quoted && ch === ")") depth--;
  }
  return depth;
}

const BREAKS = /^(FROM|WHERE|GROUP BY|HAVING|ORDER BY|LIMIT|LEFT JOIN|JOIN|ANY INNER JOIN|ANY LEFT JOIN|UNION ALL|AND|OR)\b/;

/** Lays SQL out one clause a line, indented by subquery depth (for readable snapshots). */
export function prettySql(sql: string): string {
  let out = "";
  const stack: boolean[] = []; // per open paren: is it a subquery?
  let quoted = false;
  let cases = 0;
  const level = () => stack.filter(Boolean).length;
  const atClauseLevel = () => stack.length === 0 || stack[stack.length - 1] === true;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (ch === "'") quoted = !quoted;
    if (quoted || ch === "'") {
      out += ch;
      continue;
    }
    const rest = sql.slice(i);
    if (/^\bCASE\b/.test(rest) && !/[A-Za-z_]$/.test(out)) cases++;
    if (/^END\b/.test(rest) && cases > 0 && !/[A-Za-z_]$/.test(out)) cases--;
    if (ch === "(") {
      const sub = rest.startsWith("(SELECT ");
      stack.push(sub);
      out += sub ? `(\n${"  ".repeat(level())}` : ch;
      continue;
    }
    if (ch === ")") {
      const sub = stack.pop();
      out += sub ? `\n${"  ".repeat(level())})` : ch;
      continue;
    }
    if (ch === " " && cases === 0 && atClauseLevel() && BREAKS.test(sql.slice(i + 1)) && !/\b(ANY|INNER|LEFT)$/.test(out)) {
      out += `\n${"  ".repeat(level())}`;
      continue;
    }
    out += ch;
  }
  return out;
}
