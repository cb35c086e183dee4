// The DuckDB store's day rollups (@lookout/query day-rollup.ts, and the activity and breakdown
// rollups of activity-rollup.ts and breakdown-rollup.ts, filled in the same steps under the same mark): which (property key, timezone)
// pairs have them and up to which local midnight, filling them a few days per step, and moving
// that mark back when a rollup step changes visits before it, and when to fill. Every step runs
// through the store's rollup runner (its rollups' connection, one at a time with them), so a fill
// never races a rollup.
//
// A pair is added when a query first asks for it (a property's timezone is known to the caller,
// not the store; the server asks for every property at startup) and persisted in `day_rollup_state`, so restarts keep what was built. Filling
// covers days that ended at least SETTLE_MS ago: a visit still running after midnight changes its
// day's rows, which the mark then re-covers. Rows past the mark are left in place until the next
// fill replaces them: a query compiled against the old mark may still be reading them.
import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import {
  ACTIVITY_ROLLUP_TABLE,
  activityRollupInsert,
  BREAKDOWN_MULTI_TABLE,
  BREAKDOWN_ROLLUP_DIMS,
  BREAKDOWN_ROLLUP_TABLE,
  breakdownMultiInsert,
  breakdownRollupBuild,
  breakdownRollupInsert,
  dayRollupInsert,
  localDayNumber,
  midnightAtOrBefore,
  midnightOfDayNumber,
  PATHS_PAGES_TABLE,
  PATHS_ROLLUP_TABLE,
  pathsPagesInsert,
  pathsRollupInsert,
  VISITOR_ACTIVITY_TABLE,
  visitorActivityBuild,
  visitorActivitySteps,
  visitsPerDaySql,
} from "@lookout/query";
import { timestampValue } from "./duckdb-append.js";
import { rows } from "./duckdb-read.js";

/** Bump when the day rows change shape or meaning: migrate() drops them, and they fill again. */
export const DAY_ROLLUP_VERSION = "6";

/** How long after a local day ends it is filled. */
const SETTLE_MS = 35 * 60_000;
/** How often settled days are added. */
const FILL_EVERY_MS = 5 * 60_000;
/** Visits per fill step (at least a day's): bounds how long a step holds up the rollups behind it. */
const STEP_VISITS = 100_000;
/** How soon days a rollup moved the mark back over are filled again (late events come in runs). */
const REFILL_DELAY_MS = 10_000;
/** How far past its start a step looks for days with visits. */
const LOOKAHEAD_DAYS = 62;
const DAY = 86_400_000;

/** A property key and a timezone. */
export interface Pair {
  pkey: bigint;
  tz: string;
}

interface PairState extends Pair {
  /** Every local day before this local midnight has its rows; null: not started. */
  through: number | null;
  /** The property's earliest visit start, once read (the span of its previous-visit days). */
  first?: number;
  /**
   * visitor_activity has every local day before this one (at least `through`: its first fill
   * runs ahead to every settled day at once, a pass per share of the visitors, where step by step
   * would rewrite the table's rows once per step).
   */
  activityThrough?: number;
}

/** Events per pass of visitor_activity's first fill by default (each pass groups one share of the visitors). */
const ACTIVITY_PASS_EVENTS = 5_000_000;

/** Every table filled under the marks (paths_pages: numbers of the pages the paths rows name). */
export const ROLLUP_TABLES = [
  "day_rollup",
  ACTIVITY_ROLLUP_TABLE,
  VISITOR_ACTIVITY_TABLE,
  BREAKDOWN_ROLLUP_TABLE,
  BREAKDOWN_MULTI_TABLE,
  PATHS_ROLLUP_TABLE,
  PATHS_PAGES_TABLE,
];

const pairKey = (pkey: bigint, tz: string) => `${pkey}\u0000${tz}`;

/** Runs `fn` on the rollups' connection, one at a time with the rollups (the store's queue). */
export type RollupRunner = <T>(fn: (c: DuckDBConnection) => Promise<T>) => Promise<T>;

/** Told whenever a pair's mark moves, or goes (undefined), so that a copy elsewhere can follow. */
export type MarkListener = (pkey: bigint, tz: string, through: number | undefined) => void;

export class DayRollups {
  readonly #pairs = new Map<string, PairState>();
  #timer: NodeJS.Timeout | null = null;
  #timerAt = 0;
  /** Rebuilds in progress (paused()): filling waits, since a rebuild ends by dropping the rows. */
  #paused = 0;
  #stopped = false;

  constructor(
    private readonly run: RollupRunner,
    private readonly onMark: MarkListener = () => {},
    private readonly activityPassEvents = ACTIVITY_PASS_EVENTS,
  ) {}

  /** Fills a step per turn of the runner, so that rollups queued meanwhile run in between. */
  async fill(only?: Pair): Promise<void> {
    while (!this.#stopped && this.#paused === 0 && (await this.run((c) => this.#step(c, Date.now(), only)))) {}
  }

  /** Runs `fn` (a rollup rebuild) with filling held off. */
  async paused<T>(fn: () => Promise<T>): Promise<T> {
    this.#paused++;
    try {
      return await fn();
    } finally {
      this.#paused--;
    }
  }

  /** No more filling (the store is closing). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Fills in `delay` ms (sooner than an already planned fill only), then every FILL_EVERY_MS. */
  #schedule(delay: number): void {
    if (this.#stopped) return;
    if (this.#timer) {
      if (this.#timerAt <= Date.now() + delay) return;
      clearTimeout(this.#timer);
    }
    this.#timerAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.fill()
        .catch(() => undefined)
        .finally(() => this.#schedule(FILL_EVERY_MS));
    }, delay);
    this.#timer.unref();
  }

  async load(c: DuckDBConnection): Promise<void> {
    this.#pairs.clear();
    for (const r of await rows(c, "SELECT pkey::VARCHAR AS pkey, tz, through_ms FROM day_rollup_state")) {
      const pkey = BigInt(String(r.pkey));
      const tz = String(r.tz);
      this.#pairs.set(pairKey(pkey, tz), { pkey, tz, through: Number(r.through_ms) });
      this.onMark(pkey, tz, Number(r.through_ms));
    }
    // Days have ended since these pairs were last filled (the store was closed meanwhile).
    if (this.#pairs.size > 0) this.#schedule(1_000);
  }

  /** Where the pair's rows end, for a query; asks for them to be filled the first time. */
  through(pkey: bigint, tz: string): number | undefined {
    const k = pairKey(pkey, tz);
    const st = this.#pairs.get(k);
    if (!st) {
      this.#pairs.set(k, { pkey, tz, through: null });
      this.#schedule(1_000);
      return undefined;
    }
    return st.through ?? undefined;
  }

  /** The first pair (or `only`) with days to fill as of `now`. */
  #next(now: number, only?: Pair): PairState | undefined {
    return [...this.#pairs.values()].find(
      (st) =>
        (!only || (st.pkey === only.pkey && st.tz === only.tz)) &&
        (st.through === null || st.through < midnightAtOrBefore(st.tz, now - SETTLE_MS)),
    );
  }

  /**
   * Fills the next days of the first pair that needs it, in a transaction on `c`. Returns false
   * when there was nothing to do.
   */
  async #step(c: DuckDBConnection, now: number, only?: Pair): Promise<boolean> {
    const st = this.#next(now, only);
    if (!st) return false;
    const target = midnightAtOrBefore(st.tz, now - SETTLE_MS);
    const base = { pkey: st.pkey, tz: st.tz } as Record<string, DuckDBValue>;
    const ts = (ms: number) => timestampValue(new Date(ms));
    let first = st.first;
    let to = target;
    let activityTo = st.activityThrough ?? st.through ?? 0;
    await c.run("BEGIN TRANSACTION");
    try {
      if (first === undefined) {
        const r = await rows(c, "SELECT epoch_ms(min(start_ts)) AS t FROM sessions WHERE pkey = $pkey", { pkey: st.pkey });
        first = r[0]?.t === null || r[0]?.t === undefined ? target : Number(r[0].t);
      }
      const from = st.through ?? Math.min(midnightAtOrBefore(st.tz, first), target);
      // The step's days: as many as hold STEP_VISITS visits (at least one), empty days included.
      const horizon = Math.min(target, from + LOOKAHEAD_DAYS * DAY);
      const perDay = await rows(c, visitsPerDaySql(st.tz, from, horizon), { pkey: st.pkey, from: ts(from), to: ts(horizon) });
      let visits = 0;
      let lastDay: number | null = null;
      for (const r of perDay) {
        if (lastDay !== null && visits + Number(r.n) > STEP_VISITS) break;
        visits += Number(r.n);
        lastDay = Number(r.lday);
      }
      to = lastDay === null ? midnightAtOrBefore(st.tz, horizon) : midnightOfDayNumber(st.tz, lastDay + 1);
      for (const t of ["day_rollup", ACTIVITY_ROLLUP_TABLE]) {
        await c.run(`DELETE FROM ${t} WHERE pkey = $pkey AND tz = $tz AND lday >= $lday`, {
          ...base,
          lday: localDayNumber(st.tz, from),
        });
      }
      const span: Record<string, DuckDBValue> = {
        ...base,
        from: ts(from),
        to: ts(to),
        lday: localDayNumber(st.tz, from),
        lday_to: localDayNumber(st.tz, to),
      };
      if (lastDay !== null) {
        await c.run(dayRollupInsert(st.tz, first, to), { ...base, from: ts(from), to: ts(to) });
        await c.run(activityRollupInsert(st.tz, first, to), { ...base, from: ts(from), to: ts(to) });
      }
      if (st.through === null) {
        activityTo = target;
        const n = await rows(c, "SELECT count(*) AS n FROM events WHERE pkey = $pkey AND ts < $to", {
          pkey: st.pkey,
          to: ts(target),
        });
        const parts = Math.max(1, Math.ceil(Number(n[0]?.n ?? 0) / this.activityPassEvents));
        await c.run(`DELETE FROM ${VISITOR_ACTIVITY_TABLE} WHERE pkey = $pkey AND tz = $tz`, base);
        for (let part = 0; part < parts; part++) {
          await c.run(visitorActivityBuild(st.tz, first, target, parts, part), { ...base, to: ts(target) });
        }
        // The breakdown rows of every settled day too, a pass per share of the visitors (their rows add up).
        for (const t of [BREAKDOWN_ROLLUP_TABLE, BREAKDOWN_MULTI_TABLE])
          await c.run(`DELETE FROM ${t} WHERE pkey = $pkey AND tz = $tz`, base);
        const whole: Record<string, DuckDBValue> = { ...base, to: ts(target) };
        for (let part = 0; part < parts; part++) {
          for (const step of breakdownRollupBuild(st.tz, first, target, parts, part)) {
            await c.run(step.sql, Object.fromEntries(step.params.map((k) => [k, whole[k] as DuckDBValue])));
          }
        }
        // The paths rows of every visit that started before the mark, by the same shares.
        await c.run(`DELETE FROM ${PATHS_ROLLUP_TABLE} WHERE pkey = $pkey AND tz = $tz`, base);
        await c.run(pathsPagesInsert(false), { pkey: st.pkey });
        for (let part = 0; part < parts; part++) await c.run(pathsRollupInsert(st.tz, first, target, { parts, part }), whole);
      } else if (activityTo < to) {
        activityTo = to;
        for (const step of visitorActivitySteps(st.tz, first, to)) {
          await c.run(step.sql, Object.fromEntries(step.params.map((k) => [k, span[k] as DuckDBValue])));
        }
        // Days past the step stay until a later step refills them, as visitor_activity's.
        await c.run(
          `DELETE FROM ${BREAKDOWN_ROLLUP_TABLE} WHERE pkey = $pkey AND tz = $tz AND lday >= $lday AND lday < $lday_to`,
          {
            ...base,
            lday: span.lday as DuckDBValue,
            lday_to: span.lday_to as DuckDBValue,
          },
        );
        const days = { ...base, from: ts(from), to: ts(to) };
        for (const dim of BREAKDOWN_ROLLUP_DIMS) await c.run(breakdownRollupInsert(dim, st.tz, first, to), days);
        await c.run(breakdownMultiInsert(), days);
        // Visits are keyed by their start: the step's own, whatever day their events are on.
        await c.run(`DELETE FROM ${PATHS_ROLLUP_TABLE} WHERE pkey = $pkey AND tz = $tz AND lday >= $lday AND lday < $lday_to`, {
          ...base,
          lday: span.lday as DuckDBValue,
          lday_to: span.lday_to as DuckDBValue,
        });
        await c.run(pathsPagesInsert(true), { pkey: st.pkey, from: ts(from) });
        await c.run(pathsRollupInsert(st.tz, first, to), { ...days, lday: span.lday as DuckDBValue });
      }
      await c.run("INSERT OR REPLACE INTO day_rollup_state VALUES ($pkey, $tz, $through)", { ...base, through: BigInt(to) });
      await c.run("COMMIT");
    } catch (err) {
      await c.run("ROLLBACK").catch(() => undefined);
      throw err;
    }
    // Only now: a query must never be told about rows that are not committed.
    st.first = first;
    st.through = to;
    st.activityThrough = activityTo;
    this.onMark(st.pkey, st.tz, to);
    return true;
  }

  /**
   * Moves marks back to before the visits a rollup step changed (`lows`: per property key, the
   * earliest changed visit start), in the step's transaction on `c`.
   */
  async invalidate(c: DuckDBConnection, lows: ReadonlyMap<bigint, number>): Promise<void> {
    for (const st of this.#pairs.values()) {
      const low = lows.get(st.pkey);
      if (low === undefined) continue;
      if (st.first !== undefined && low < st.first) st.first = low;
      if (st.through === null || low >= st.through) continue;
      // Lowered before the commit: a query that sees the lower mark reads those days from the
      // visit rollups, which is right whether or not this step commits.
      const through = midnightAtOrBefore(st.tz, low);
      st.through = through;
      st.activityThrough = Math.min(st.activityThrough ?? through, through);
      this.onMark(st.pkey, st.tz, through);
      this.#schedule(REFILL_DELAY_MS);
      await c.run("UPDATE day_rollup_state SET through_ms = $through WHERE pkey = $pkey AND tz = $tz", {
        pkey: st.pkey,
        tz: st.tz,
        through: BigInt(through),
      });
    }
  }

  /** Drops a property's rows and marks (property deletion), in the caller's transaction. */
  async forget(c: DuckDBConnection, pkey: bigint): Promise<void> {
    for (const [k, st] of this.#pairs) {
      if (st.pkey !== pkey) continue;
      this.#pairs.delete(k);
      this.onMark(st.pkey, st.tz, undefined);
    }
    for (const t of [...ROLLUP_TABLES, "day_rollup_state"]) {
      await c.run(`DELETE FROM ${t} WHERE pkey = $pkey`, { pkey });
    }
  }

  /** Drops every row and mark (the visit rollups were rebuilt), in the caller's transaction. */
  async reset(c: DuckDBConnection): Promise<void> {
    for (const st of this.#pairs.values()) this.onMark(st.pkey, st.tz, undefined);
    this.#pairs.clear();
    for (const t of [...ROLLUP_TABLES, "day_rollup_state"]) await c.run(`DELETE FROM ${t}`);
  }
}
