// ClickHouse's settle step (@lookout/query clickhouse-visits.ts says what settled visit rows are
// and how reads combine them with the visit states), run by a store's Settler: which UTC days it
// settles next, writing their rows under a new batch id and then the days' marks; and the
// deletion of batches later marks superseded. The marks themselves (which days are settleable,
// which an insert unsettles, the latest marks): clickhouse-marks.ts.
//
// Every server of a scale-out install runs the step on its own timer: two steps settling the same
// days at once both write, the later mark wins and the other batch is deleted here later. Marks
// order by `at`, this process's clock in µs: a step's is when it began reading (so an insert that
// finished after that, and marked its day, wins over it), an insert's is after the insert returned
// (plus half a millisecond, so the insert wins a tie). Servers' clocks are assumed within a few ms.
import { randomInt } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import {
  DONE_MARKS_TABLE,
  DONE_TABLES,
  doneColumns,
  PREV_COLUMNS,
  type SettledVisits,
  settledRowsSql,
  VISIT_DAYS_TABLE,
  VISIT_PATH_VISITS_TABLE,
  VISIT_PATHS_TABLE,
  VISIT_TABLE_NAMES,
} from "@lookout/query";
import type { EventRow } from "@lookout/schema";
import { addDayRowsPair, type DayRowsPair, fillDayRows } from "./clickhouse-day-rows.js";
import {
  continuesFrom,
  dayLit,
  dayNumber,
  lastSettleableDay,
  latestMarks,
  markDays,
  markUnsettled,
  openVisitsOf,
  parseDay,
  settledState,
  unsettledBy,
  winningBatches,
} from "./clickhouse-marks.js";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";

/**
 * Visit state rows a step settles at most (one INSERT per table covers its days, at least one day):
 * bounds a step's memory and time, while days without visits cost nothing.
 */
export const SETTLE_STEP_ROWS = 200_000;

/**
 * How long a superseded batch is kept (dropSuperseded): longer than any query runs (the stores'
 * limits are seconds to two minutes) and than a settle step takes.
 */
export const SUPERSEDED_GRACE_MS = 15 * 60_000;

/** How soon after the store opens its first settle step runs (Settler.start). */
const FIRST_STEP_MS = 10_000;

export interface SettleTarget {
  client: ClickHouseClient;
  /** Runs `ALTER TABLE <table> DELETE WHERE <where>` where the table's rows are stored (each shard). */
  deleteWhere(table: string, where: string): Promise<void>;
  /** The settings each step's INSERT runs with (spilling past the store's limit). */
  settings(): Record<string, string>;
  /** Whether the store is closed (a running settle() stops between steps). */
  closed(): boolean;
  /** dropSuperseded's grace (default SUPERSEDED_GRACE_MS). */
  supersededGraceMs?: number;
  /** The clock that says which days an insert unsettles (default Date.now; tests fix it). */
  now?: () => number;
}

/** A store's settling: its steps one at a time, its timer, and the superseded marks already deleted. */
export class Settler {
  #chain: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #dropped = new Set<string>();

  constructor(private readonly t: SettleTarget) {}

  /**
   * After an insert: marks the settled days its events change as not settled. Today's events (and
   * yesterday's until it is settleable) change none, unless their visit started on a settled day.
   */
  async unsettle(inserted: readonly EventRow[]): Promise<void> {
    const now = (this.t.now ?? Date.now)();
    // A minute ahead: a server whose clock lags another's still marks a day the other has just
    // settled (a mark on a day not yet settled changes nothing).
    const ahead = now + 60_000;
    let first = Number.POSITIVE_INFINITY;
    for (const row of inserted) first = Math.min(first, dayNumber(row.ts.getTime()));
    if (!(first - 1 <= lastSettleableDay(ahead))) return;
    const days = unsettledBy(first, ahead, await continuesFrom(this.t.client, first, inserted, now));
    if (days.length === 0) return;
    await markUnsettled(this.t.client, days);
    this.#marksWritten++;
  }

  /** Marks this store wrote: a read of them begun before the latest write is not shared after it. */
  #marksWritten = 0;
  #marksRead: { at: number; state: Promise<SettledVisits> } | undefined;

  /**
   * settledState, one read shared by the queries that arrive while it is under way (the
   * dashboard's 15 at once), unless this store has written marks since it began, so an insert's
   * own "not settled" marks count in every query issued after it returned.
   */
  settledVisits(): Promise<SettledVisits> {
    const open = this.#marksRead;
    if (open && open.at === this.#marksWritten) return open.state;
    const read = { at: this.#marksWritten, state: settledState(this.t.client) };
    this.#marksRead = read;
    const done = () => {
      if (this.#marksRead === read) this.#marksRead = undefined;
    };
    read.state.then(done, done);
    return read.state;
  }

  /**
   * Settles every day due at `now` (ClickHouseEventStore.settle), then fills the day rows the
   * winning batches lack; resolves to the days settled.
   */
  settle(now: Date): Promise<number> {
    return this.#queue(async () => {
      let days = 0;
      // Yesterday waits while one of its visits is still running (clickhouse-marks.ts): asked once
      // per run, not per span (about 0.1 s at 10M events; a first settle has dozens of spans).
      let last = lastSettleableDay(now.getTime());
      if (await openVisitsOf(this.t.client, last, now.getTime())) last -= 1;
      for (let span = await nextSpan(this.t.client, last); span && !this.t.closed(); ) {
        await settleSpan(this.t.client, span, this.t.settings());
        days += span[1] - span[0] + 1;
        span = await nextSpan(this.t.client, last);
      }
      // Superseded batches go even when a fill fails (it is tried again at the next run).
      let failure: unknown;
      if (!this.t.closed())
        await fillDayRows(this.t, (await winningBatches(this.t.client)).winners).catch((err) => (failure = err));
      await dropSuperseded(this.t, this.#dropped, this.t.supersededGraceMs);
      if (failure !== undefined) throw failure;
      return days;
    });
  }

  /**
   * Keeps day rows for a pair from now on, and fills them for every settled day now (clickhouse-day-rows.ts),
   * on the settle chain. Resolves to the batches filled.
   */
  addDayRows(pair: DayRowsPair): Promise<number> {
    return this.#queue(async () => {
      await addDayRowsPair(this.t.client, pair);
      return fillDayRows(this.t, (await winningBatches(this.t.client)).winners, pair);
    });
  }

  /** Fills the day rows every pair lacks (after a deletion dropped some), on the settle chain. */
  refillDayRows(): Promise<number> {
    return this.#queue(async () => fillDayRows(this.t, (await winningBatches(this.t.client)).winners));
  }

  /** Runs `fn` after every step queued before it; the marks a read shares are read again after it. */
  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn);
    const written = () => {
      this.#marksWritten++;
    };
    run.then(written, written);
    this.#chain = run.catch(() => {});
    return run;
  }

  /**
   * Settles every `everyMs` (0: never), logging a failure and trying again next time. The first
   * step runs soon after the start: days a store marked "not settled" at open (a new store over
   * stored events, or settled rows dropped by a migration) are read from states until then, which
   * costs every read of them far more than settled rows.
   */
  start(everyMs: number): void {
    if (!(everyMs > 0) || this.#timer) return;
    let delay = Math.min(everyMs, FIRST_STEP_MS);
    const tick = () => {
      const wait = delay;
      delay = everyMs;
      this.#timer = setTimeout(() => {
        this.settle(new Date()).then(tick, (err) => {
          if (!this.t.closed())
            console.error(`ClickHouse: settling visits failed: ${err instanceof Error ? err.message : String(err)}`);
          tick();
        });
      }, wait);
      this.#timer.unref();
    };
    tick();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * The days a step would settle, as [first, last] (inclusive), or null when none is due, up to `last`
 * (the last settleable day, or the day before it while one of that day's visits runs on).
 * Due: days whose latest mark is "not settled", days with visit states but no mark (stored before
 * any mark, or while no step ran for days), and every day after the last marked one. Settled in
 * order, so the marked days grow without holes.
 */
export async function nextSpan(client: ClickHouseClient, last: number): Promise<[number, number] | null> {
  const marks = await rows<{ d: string; b: number }>(
    client,
    `SELECT toString(day) AS d, argMax(batch, at) AS b FROM ${DONE_MARKS_TABLE} GROUP BY day`,
  );
  const unmarked = await rows<{ d: string }>(
    client,
    `SELECT DISTINCT toString(day) AS d FROM visits WHERE day <= ${dayLit(last)} AND day NOT IN (SELECT day FROM ${DONE_MARKS_TABLE})`,
  );
  const due = new Set<number>(unmarked.map((m) => parseDay(m.d)));
  let top = Number.NEGATIVE_INFINITY;
  for (const m of marks) {
    const d = parseDay(m.d);
    if (d > top) top = d;
    if (Number(m.b) === 0 && d <= last) due.add(d);
  }
  const next = marks.length > 0 ? top + 1 : Number.POSITIVE_INFINITY;
  const first = Math.min(next, ...due);
  if (!(first <= last)) return null;
  // The span runs over due days from the first, up to SETTLE_STEP_ROWS state rows.
  const counts = new Map(
    (
      await rows<{ d: string; n: number }>(
        client,
        `SELECT toString(day) AS d, count() AS n FROM visits WHERE day >= ${dayLit(first)} AND day <= ${dayLit(last)} GROUP BY day`,
      )
    ).map((r) => [parseDay(r.d), Number(r.n)]),
  );
  let end = first;
  let total = counts.get(first) ?? 0;
  for (let d = first + 1; d <= last && (due.has(d) || d >= next); d++) {
    total += counts.get(d) ?? 0;
    if (total > SETTLE_STEP_ROWS) break;
    end = d;
  }
  return [first, end];
}

/**
 * At open: when no day is marked yet (a store from before settling, or a new one), the settleable
 * days that have visit states are marked "not settled", so reads take them from states until a
 * step settles them, whatever an insert into an older day marks meanwhile.
 */
export async function markStoredDays(client: ClickHouseClient, now: number): Promise<void> {
  const n = await rows<{ n: number }>(client, `SELECT count() AS n FROM ${DONE_MARKS_TABLE}`);
  if (Number(n[0]?.n ?? 0) > 0) return;
  const days = await rows<{ d: string }>(
    client,
    `SELECT DISTINCT toString(day) AS d FROM visits WHERE day <= ${dayLit(lastSettleableDay(now))}`,
  );
  await markUnsettled(
    client,
    days.map((m) => parseDay(m.d)),
  );
}

/**
 * Settles the visits that start on the days [first, last]: each table's rows merged from its
 * states (read from the day before to the day after), with their prev_* against the settled days
 * before `first` (every one settled: spans go in order), under a new batch id, then a mark per day.
 */
export async function settleSpan(
  client: ClickHouseClient,
  [first, last]: [number, number],
  settings: Record<string, string> = {},
): Promise<void> {
  const at = Date.now() * 1000;
  const marks = await latestMarks(client);
  const winners = marks.filter((m) => m.day < first && m.batch !== "0").map((m) => m.batch);
  // A batch id per day: a random base (a multiple of 2^16, below 2^52 so JSON keeps it exact) plus
  // the day number.
  const base = randomInt(1, 2 ** 36) * 65536;
  const within = [`day >= ${dayLit(first - 1)}`, `day <= ${dayLit(last + 1)}`];
  const starts = `toDate(start_ts) >= ${dayLit(first)} AND toDate(start_ts) <= ${dayLit(last)}`;
  for (const table of VISIT_TABLE_NAMES) {
    const names = [...doneColumns(table).map(([n]) => n), ...PREV_COLUMNS[table].map(([p]) => p)];
    await client.command({
      query:
        `INSERT INTO ${DONE_TABLES[table]} (property, day, batch, ${names.join(", ")}) ` +
        `SELECT property, toDate(start_ts) AS day, toUInt64(${base}) + toUInt64(toDate(start_ts)) AS batch, ${names.join(", ")} ` +
        `FROM ${settledRowsSql(table, within, starts, dayLit(first), winners)}`,
      clickhouse_settings: settings,
    });
  }
  const days: number[] = [];
  for (let d = first; d <= last; d++) days.push(d);
  await markDays(client, days, (d) => base + d, at);
}

/**
 * Deletes what later marks superseded at least `graceMs` ago: the settled rows of batches no longer
 * read (a batch id names one day's rows), and the marks themselves (the latest mark of every day
 * stays). The grace: a query binds the batches when it starts (clickhouse-visits.ts), and a step
 * reads its history's batches once for its three tables, so a batch superseded just now may still
 * be read. `issued` remembers the mutations already sent, since 18.16 runs them asynchronously.
 */
export async function dropSuperseded(
  t: Pick<SettleTarget, "client" | "deleteWhere">,
  issued: Set<string>,
  graceMs = SUPERSEDED_GRACE_MS,
): Promise<number> {
  const before = Math.max(0, Date.now() - graceMs) * 1000;
  const old = await rows<{ d: string; b: number; at: number; top: number }>(
    t.client,
    `SELECT toString(day) AS d, batch AS b, at, top FROM ${DONE_MARKS_TABLE} ANY INNER JOIN ` +
      `(SELECT day, max(at) AS top FROM ${DONE_MARKS_TABLE} GROUP BY day) USING (day) WHERE at < top AND top < ${before}`,
  );
  const fresh = old.filter((m) => !issued.has(`${m.d}|${m.at}`));
  if (fresh.length === 0) return 0;
  // In slices: a server that took many late inserts has a mark per insert and day, and one
  // statement listing them all passed 18.16's 256 KiB max_query_size.
  const slices = <T>(xs: readonly T[], n: number) =>
    Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
  const batches = [...new Set(fresh.filter((m) => Number(m.b) !== 0).map((m) => String(Number(m.b))))];
  for (const slice of slices(batches, 5000)) {
    for (const table of [
      ...VISIT_TABLE_NAMES.map((v) => DONE_TABLES[v]),
      VISIT_DAYS_TABLE,
      VISIT_PATHS_TABLE,
      VISIT_PATH_VISITS_TABLE,
    ])
      await t.deleteWhere(table, `batch IN (${slice.join(", ")})`);
  }
  // Per day: its marks older than the grace but its latest (a mark written since is newer).
  const tops = new Map(fresh.map((m) => [m.d, Number(m.top)]));
  for (const slice of slices([...tops.entries()], 2000)) {
    const days = slice.map(([d]) => `toDate(${literal(d)})`).join(", ");
    const latest = slice.map(([d, top]) => `(toDate(${literal(d)}), ${top})`).join(", ");
    await t.deleteWhere(DONE_MARKS_TABLE, `day IN (${days}) AND at < ${before} AND (day, at) NOT IN (${latest})`);
  }
  for (const m of fresh) issued.add(`${m.d}|${m.at}`);
  return fresh.length;
}
