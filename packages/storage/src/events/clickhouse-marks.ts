// ClickHouse's settled-visit marks (visits_done_marks; @lookout/query clickhouse-visits.ts says what
// they mean): which UTC days are settleable, which days an insert of events unsettles and the
// marks it writes, and the latest marks as reads and settle steps need them. The steps that
// settle days and write their marks: clickhouse-settle.ts.
import type { ClickHouseClient } from "@clickhouse/client";
import { DONE_MARKS_TABLE, SETTLE_MS, type SettledVisits } from "@lookout/query";
import type { EventRow } from "@lookout/schema";
import { dayRowsState, type Winner } from "./clickhouse-day-rows.js";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";

const DAY = 86_400_000;

/** A UTC day's number (days since 1970-01-01) and its ISO date. */
export const dayNumber = (ms: number) => Math.floor(ms / DAY);
export const parseDay = (d: string) => dayNumber(Date.parse(`${d}T00:00:00Z`));
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
export const dayLit = (day: number) => `toDate('${iso(day)}')`;

/**
 * The last UTC day whose visits may be settled at `now`: it ended SETTLE_MS ago. The step settles
 * it then only when none of its visits is still running (openVisitsOf); else once the next day
 * has ended too (every visit of the day is cut there), as before stop 46.
 */
export function lastSettleableDay(now: number): number {
  return dayNumber(now - SETTLE_MS) - 1;
}

/**
 * Whether a visit that started on UTC day `day` had an event within SETTLE_MS before `now`: it may
 * go on (a tab left open sends heartbeats), so the day waits. Every visit that started there is
 * read (from the day before, for their true start).
 */
export async function openVisitsOf(client: ClickHouseClient, day: number, now: number): Promise<boolean> {
  const cutoff = Math.floor((now - SETTLE_MS) / 1000);
  const found = await rows<{ n: number }>(
    client,
    "SELECT count() AS n FROM (SELECT property, session_id, minMerge(s_start) AS st, maxMerge(s_end) AS en FROM visits " +
      `WHERE day >= ${dayLit(day - 1)} AND day <= ${dayLit(day + 1)} GROUP BY property, session_id ` +
      `HAVING toDate(st) = ${dayLit(day)} AND en >= toDateTime(${cutoff}, 'UTC'))`,
  );
  return Number(found[0]?.n ?? 0) > 0;
}

/**
 * The days an insert of events from UTC day `first` on unsettles: from that day (from the day
 * before when one of its visits `continued` from there: that visit started there, and its settled
 * row holds its pages up to the end of the next day) to the last settleable day, since every later
 * settled visit's prev_* may now point past a visit the insert added. Through the last settleable
 * day, not the last marked one: a step settling days past that one has read the earlier days
 * already, and its marks must lose to these. Recent events unsettle nothing.
 */
export function unsettledBy(first: number, now: number, continued: boolean): number[] {
  const last = lastSettleableDay(now);
  const out: number[] = [];
  for (let d = first - (continued ? 1 : 0); d <= last; d++) out.push(d);
  return out;
}

/**
 * How old an event must be to continue a visit of a settled day. A day is settled with none of its
 * visits active in the SETTLE_MS (35 minutes) before the step began, and a visit breaks after 30
 * idle minutes, so an event of such a visit is over 5 minutes older than the step; 4 leave a
 * minute for servers' clocks. Fresher events (the live traffic) are not looked up.
 */
export const CONTINUES_BEFORE_MS = 4 * 60_000;

/** Session ids per statement of continuesFrom: well under 18.16's 256 KiB max_query_size. */
const SESSIONS_PER_CHECK = 2000;

/**
 * Whether a visit of the `inserted` events on UTC day `day` older than CONTINUES_BEFORE_MS at
 * `now` has visit states on the day before (then it started on or before that day). A lookup by
 * the visit tables' key (property, day, session_id), one statement per 2 000 visits.
 */
export async function continuesFrom(
  client: ClickHouseClient,
  day: number,
  inserted: readonly EventRow[],
  now: number,
): Promise<boolean> {
  const keys = new Set<string>();
  for (const row of inserted) {
    const ts = row.ts.getTime();
    if (dayNumber(ts) === day && ts < now - CONTINUES_BEFORE_MS)
      keys.add(`(${literal(row.property)}, ${literal(row.session_id)})`);
  }
  const all = [...keys];
  for (let i = 0; i < all.length; i += SESSIONS_PER_CHECK) {
    const found = await rows<{ n: number }>(
      client,
      `SELECT count() AS n FROM visits WHERE day = ${dayLit(day - 1)} AND (property, session_id) IN (${all.slice(i, i + SESSIONS_PER_CHECK).join(", ")})`,
    );
    if (Number(found[0]?.n ?? 0) > 0) return true;
  }
  return false;
}

/** Marks `days` not settled (batch 0), after an insert of events into them. */
export function markUnsettled(client: ClickHouseClient, days: readonly number[]): Promise<void> {
  return markDays(client, days, () => 0, Date.now() * 1000 + 500);
}

/** A mark per day: its batch, at `at`. */
export async function markDays(
  client: ClickHouseClient,
  days: readonly number[],
  batch: (day: number) => number,
  at: number,
): Promise<void> {
  if (days.length === 0) return;
  await client.insert({
    table: DONE_MARKS_TABLE,
    values: days.map((d) => ({ day: iso(d), batch: batch(d), at })),
    format: "JSONEachRow",
  });
}

/** Each marked day's latest mark: its day number and batch (as text: up to 2^52). */
export async function latestMarks(client: ClickHouseClient): Promise<{ day: number; batch: string }[]> {
  const marks = await rows<{ d: string; b: string }>(
    client,
    `SELECT toString(day) AS d, toString(argMax(batch, at)) AS b FROM ${DONE_MARKS_TABLE} GROUP BY day`,
  );
  return marks.map((m) => ({ day: parseDay(m.d), batch: String(m.b) }));
}

/**
 * The marks as a read needs them (SettledVisits, bound into each statement that reads visits):
 * the first day read from states (the earliest day whose latest mark is "not settled", else the
 * day after the last marked one; 1970-01-02 when none is marked), and the winning batch of every
 * day before it (0 alone when none, which no row has).
 */
export async function settledState(client: ClickHouseClient): Promise<SettledVisits> {
  const { firstLiveDay, winners } = await winningBatches(client);
  const { dayRows, pathRows } = await dayRowsState(client, winners, firstLiveDay);
  return { firstLiveDay, batches: winners.map((w) => w.batch), dayRows, pathRows };
}

/** The first day read from states (settledState) and the winning batch of each settled day before it. */
export async function winningBatches(client: ClickHouseClient): Promise<{ firstLiveDay: number; winners: Winner[] }> {
  const marks = await latestMarks(client);
  // With no marks, 1970-01-02 (day 1): the reads' "the day before the first live day" stays a date.
  let firstLiveDay = marks.length === 0 ? 1 : Math.max(...marks.map((m) => m.day)) + 1;
  for (const m of marks) if (m.batch === "0" && m.day < firstLiveDay) firstLiveDay = m.day;
  return { firstLiveDay, winners: marks.filter((m) => m.day < firstLiveDay && m.batch !== "0") };
}
