// Reading from DuckDB for the embedded EventStore: a pool of reader connections (queries run
// alongside the writer and each other, each on a consistent snapshot), result rows as plain JS
// (duckdb-rows.ts), and the raw-events query.
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import { EVENT_COLUMN_NAMES } from "@lookout/schema";
import { timestampValue } from "./duckdb-append.js";
import { plainRows } from "./duckdb-rows.js";
import { type EventsQuery, QueryTimeoutError } from "./event-store.js";

/** SQL and parameters of EventStore.events(): a property's raw events, oldest or newest first. */
export function eventsSql(property: string, q: EventsQuery): { sql: string; params: Record<string, DuckDBValue> } {
  const where = ["property = $property"];
  const params: Record<string, DuckDBValue> = { property };
  if (q.clientId !== undefined) {
    where.push("client_id = $client");
    params.client = q.clientId;
  }
  if (q.from) {
    where.push("ts >= $from");
    params.from = timestampValue(q.from);
  }
  if (q.to) {
    where.push("ts < $to");
    params.to = timestampValue(q.to);
  }
  const limit = Math.min(Math.max(1, Math.floor(q.limit ?? 1000)), 10_000);
  const order = `ts ${q.newestFirst ? "DESC" : "ASC"}, batch`;
  return {
    sql: `SELECT ${EVENT_COLUMN_NAMES.join(", ")} FROM events WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${limit}`,
    params,
  };
}

/**
 * After interrupting a query, how long its caller waits for DuckDB to stop before being answered
 * anyway. DuckDB checks for an interrupt between chunks of 2 048 rows, and a chunk can take
 * long (a costly regex, QUERY_LIMITS); the connection rejoins the pool once it has stopped.
 */
export const INTERRUPT_GRACE_MS = 1000;
const INTERRUPT_REPEAT_MS = 25;

/**
 * Reader connections handed out one query at a time; waiters queue for the next free one. A query
 * with a time limit is interrupted past it and rejects with QueryTimeoutError; its connection is
 * handed on only once the engine has stopped, usable as ever (an interrupt ends one statement).
 */
export class ReaderPool {
  #idle: DuckDBConnection[];
  #waiting: ((c: DuckDBConnection) => void)[] = [];
  #busy = 0;
  #drained: (() => void)[] = [];
  #closed = false;
  constructor(conns: DuckDBConnection[]) {
    this.#idle = [...conns];
  }
  async use<T>(fn: (c: DuckDBConnection) => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
    if (this.#closed) throw new Error("event store is closed");
    this.#busy++;
    const c = this.#idle.pop() ?? (await new Promise<DuckDBConnection>((r) => this.#waiting.push(r)));
    const run = (async () => fn(c))();
    const limit = opts.timeoutMs ?? 0;
    let timer: NodeJS.Timeout | undefined;
    let again: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    void done.then(() => {
      clearTimeout(timer);
      clearInterval(again);
      clearTimeout(grace);
      this.#release(c);
    });
    if (!(limit > 0)) return run;
    return new Promise<T>((resolve, reject) => {
      let late = false;
      const timedOut = () => reject(new QueryTimeoutError(limit));
      timer = setTimeout(() => {
        late = true;
        c.interrupt();
        // An interrupt that comes before DuckDB has begun the statement is lost (a statement
        // starts uninterrupted): it is repeated until the statement ends.
        again = setInterval(() => c.interrupt(), INTERRUPT_REPEAT_MS);
        grace = setTimeout(timedOut, INTERRUPT_GRACE_MS);
      }, limit);
      // Past the limit the answer is a timeout, even if the rows arrive as it is given.
      run.then(
        (v) => (late ? timedOut() : resolve(v)),
        (err) => (late ? timedOut() : reject(err)),
      );
    });
  }
  #release(c: DuckDBConnection): void {
    this.#busy--;
    const next = this.#waiting.shift();
    if (next) next(c);
    else this.#idle.push(c);
    if (this.#busy === 0) for (const d of this.#drained.splice(0)) d();
  }
  /** Refuses new work and resolves once running queries are done. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#busy === 0 ? Promise.resolve() : new Promise((r) => this.#drained.push(r));
  }
}

/** Runs `sql` on `c` and returns its rows as plain objects. */
export async function rows(c: DuckDBConnection, sql: string, params?: Record<string, DuckDBValue>) {
  return plainRows(await c.run(sql, params));
}
