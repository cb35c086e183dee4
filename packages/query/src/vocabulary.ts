// A property's vocabulary (issue #23): the event names and the custom-prop keys its stored events
// carry, which an insight spec is checked against before it runs (apps/server insights/
// vocabulary.ts). Two statements, one per question, printed for both dialects by the one table
// read (relation.ts: the property predicate, a LIMIT cap). The caller asks for the keys only when
// a spec names a prop, as unnesting every event's props costs more than reading the names.
import type { CompiledQuery } from "./compiled.js";
import { DIALECTS, type SqlDialect } from "./dialects.js";
import { int, Params } from "./params.js";
import { tableRead } from "./relation.js";

/**
 * Names (or keys) read at most: a property with more than this many is not checked (a full page
 * cannot tell an unknown name from an unread one).
 */
export const VOCABULARY_LIMIT = 10_000;

/** One event row's prop keys, one output row per key (in a SELECT list). */
const PROP_KEYS: Record<SqlDialect, string> = {
  duckdb: "unnest(map_keys(props))",
  clickhouse: "arrayJoin(props.key)",
};

function statement(dialect: SqlDialect, property: string, select: (item: string) => string): CompiledQuery {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const read = tableRead({ d, property: p.add(property, d.propertyParam), bounds: noBounds }, "events", []);
  const sql = `${select(read)} ${d.limit(int(VOCABULARY_LIMIT + 1), 0)}`;
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}

function noBounds(): never {
  throw new Error("the vocabulary reads stored events only");
}

/** Rows `{v}`: the distinct event names of the property's events (all time). */
export function compileEventNames(dialect: SqlDialect, property: string): CompiledQuery {
  return statement(dialect, property, (read) => `SELECT DISTINCT name AS v FROM ${read}`);
}

/** Rows `{v}`: the distinct custom-prop keys of the property's events (all time). */
export function compilePropKeys(dialect: SqlDialect, property: string): CompiledQuery {
  return statement(
    dialect,
    property,
    (read) => `SELECT DISTINCT k AS v FROM (SELECT ${PROP_KEYS[dialect]} AS k FROM ${read}) AS t`,
  );
}

/** A vocabulary statement's rows as a set, or null when the cap was reached (too many to check). */
export function readVocabulary(rows: readonly Record<string, unknown>[]): Set<string> | null {
  if (rows.length > VOCABULARY_LIMIT) return null;
  return new Set(rows.map((r) => String(r.v)));
}
