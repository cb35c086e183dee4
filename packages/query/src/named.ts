// Row sets a statement reads more than once (a subquery used by several parts of one statement):
// DuckDB names each once (WITH name AS MATERIALIZED) and computes it once; ClickHouse 18.16's WITH
// names expressions only, so there each use is the subquery itself, computed again. The printed
// SQL never holds a name the structural checks (sql-checks.ts) cannot trace to its subquery.
import type { SqlDialect } from "./dialects.js";

export class NamedRows {
  readonly #defs: [string, string][] = [];
  constructor(private readonly dialect: SqlDialect) {}

  /** Names the rows of `sql` (which may read rows named before it); returns what a FROM reads them by. */
  define(name: string, sql: string): string {
    if (this.#defs.some(([n]) => n === name)) throw new Error(`rows named ${name} twice`);
    this.#defs.push([name, sql]);
    return this.dialect === "duckdb" ? name : `(${sql})`;
  }

  /** The whole statement: `body` with the named rows it reads. */
  statement(body: string): string {
    if (this.dialect !== "duckdb" || this.#defs.length === 0) return body;
    return `WITH ${this.#defs.map(([n, sql]) => `${n} AS MATERIALIZED (${sql})`).join(", ")} ${body}`;
  }
}
