// Row sets a statement reads more than once (a subquery used by several parts of one statement):
// DuckDB names each once (WITH name AS MATERIALIZED) and computes it once; ClickHouse 18.16's WITH
// names expressions only, so there each use is the subquery itself, computed again.
import type { SqlDialect } from "./dialects.js";

/** `ref(name)`: how a part reads an earlier named row set (a FROM item). */
export type NamedRef = (name: string) => string;

/**
 * The statement `body` over the row sets `defs` (in order; each may read the ones before it). The
 * printed SQL never holds a name the structural checks (sql-checks.ts) cannot trace to its subquery.
 */
export function withNamed(
  dialect: SqlDialect,
  defs: readonly (readonly [string, (ref: NamedRef) => string])[],
  body: (ref: NamedRef) => string,
): string {
  if (dialect === "duckdb") {
    const ref: NamedRef = (n) => n;
    return `WITH ${defs.map(([n, sql]) => `${n} AS MATERIALIZED (${sql(ref)})`).join(", ")} ${body(ref)}`;
  }
  const printed = new Map<string, string>();
  const ref: NamedRef = (n) => {
    const sql = printed.get(n);
    if (sql === undefined) throw new Error(`no row set named ${n} before this one`);
    return `(${sql})`;
  };
  for (const [n, sql] of defs) printed.set(n, sql(ref));
  return body(ref);
}
