// ClickHouse's settled visits (clickhouse-settle.ts; @lookout/query clickhouse-visits.ts): a read
// answers the same whether a day's visits come from settled rows or from merged states, an insert
// into a settled day counts at once and is settled again, deletions reach the settled rows, two
// stores settling at once count each visit once, and a store from before settling keeps its days.
// Exact numbers against the same store before settling (the model and exact suites also run on a
// half-settled engine: test-engines.ts).
import { DONE_TABLES, doneColumns, SETTLE_MS, VISIT_TABLE_NAMES } from "@lookout/query";
import type { EventRow, QuerySpecInput } from "@lookout/schema";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse } from "../test-services.js";
import { dayNumber, lastSettleableDay, unsettledBy } from "./clickhouse-marks.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { at, event } from "./fixtures.js";
import { runStats, type StatsContext } from "./stats.js";

const DAY = 86_400_000;
const END = at("2024-06-01 00:00:00");
const CTX: StatsContext = { timezone: "America/New_York", now: new Date(END.getTime() - 1) };
const RANGE = { preset: "custom", from: "2024-05-20", to: "2024-05-31" } as const;
/** settle() at the `now` that makes `day` (a UTC day number) the last settleable day. */
const settledThrough = (day: number) => new Date((day + 1) * DAY + SETTLE_MS);

function dashboard(property: string): QuerySpecInput[] {
  const b = (dimension: string, extra: Partial<QuerySpecInput> = {}) =>
    ({
      kind: "breakdown",
      property,
      date_range: RANGE,
      dimensions: [dimension],
      metrics: ["visitors", "visits", "bounce_rate"],
      limit: 20,
      ...extra,
    }) as QuerySpecInput;
  return [
    {
      kind: "aggregate",
      property,
      date_range: RANGE,
      comparison: "previous_period",
      metrics: ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration", "events"],
    },
    { kind: "timeseries", property, date_range: RANGE, interval: "day", metrics: ["visitors", "visits", "pageviews"] },
    b("page", { metrics: ["visitors", "pageviews", "time_on_page"] }),
    b("entry_page"),
    b("exit_page"),
    b("country"),
    b("source", { filters: [{ dimension: "page", op: "contains", values: ["pric"] }] } as Partial<QuerySpecInput>),
    b("event_name", { metrics: ["visitors", "events"] }),
  ];
}

const answers = (store: ClickHouseEventStore, property: string) =>
  Promise.all(dashboard(property).map((spec) => runStats(store, spec, CTX)));

const ch = await requireClickHouse();
const opened: ClickHouseEventStore[] = [];
const open = async (database: string, supersededGraceMs = 0) => {
  if (!("url" in ch)) throw new Error(ch.skip);
  const s = await openClickHouseEventStore(`${ch.url}/${database}`, { settleEveryMs: 0, supersededGraceMs });
  opened.push(s);
  return s;
};
afterAll(async () => {
  for (const s of opened) await s.close();
});

function traffic(property: string): EventRow[] {
  const out: EventRow[] = [];
  for (const batch of generateEvents({
    property,
    days: 14,
    visitors: Math.ceil(6000 / EVENTS_PER_VISITOR),
    seed: 7,
    end: END,
    maxEvents: 6000,
    batchSize: 6000,
  }))
    out.push(...batch);
  return out;
}

describe("the settle step's days", () => {
  it("settles a day once it ended SETTLE_MS ago; an insert unsettles from its earliest day (the day before when a visit continues from there) through the last settleable day", () => {
    const d = dayNumber(Date.parse("2024-05-20T12:00:00Z"));
    expect(lastSettleableDay((d + 1) * DAY + SETTLE_MS)).toBe(d);
    expect(lastSettleableDay((d + 1) * DAY + SETTLE_MS - 1)).toBe(d - 1);
    const now = (d + 1) * DAY + SETTLE_MS;
    expect(unsettledBy(d, now, false)).toEqual([d]);
    expect(unsettledBy(d, now, true)).toEqual([d - 1, d]);
    // Later visits' prev_* may point past a visit the insert adds: every settleable day after it goes too.
    expect(unsettledBy(d - 3, now, true)).toEqual([d - 4, d - 3, d - 2, d - 1, d]);
    // A recent event unsettles nothing, unless its visit continues from a settled day.
    expect(unsettledBy(d + 1, now, false)).toEqual([]);
    expect(unsettledBy(d + 1, now, true)).toEqual([d]);
    expect(unsettledBy(d + 2, now, true)).toEqual([]);
  });
});

describe.skipIf(!("url" in ch))("ClickHouse settled visits", () => {
  const property = "settle.example";
  let store: ClickHouseEventStore;
  let before: unknown[];
  const rows = traffic(property);
  const days = rows.map((r) => dayNumber(r.ts.getTime()));
  const first = Math.min(...days);
  const last = Math.max(...days);

  beforeAll(async () => {
    store = await open(clickHouseTestDatabase("settle"));
    await store.append(rows);
    before = await answers(store, property);
  }, 120_000);

  const count = async (sql: string) => Number((await store.query<{ n: number }>({ sql, params: {} }))[0]?.n ?? 0);

  it("answers the same with half the days settled, then all of them", async () => {
    expect((before[0] as Record<string, { value: number }>).visits?.value).toBeGreaterThan(100);
    const mid = Math.floor((first + last) / 2);
    // From the first: no visit of the insert has states on the day before it.
    expect(await store.settle(settledThrough(mid))).toBe(mid - first + 1);
    expect(await count("SELECT count() AS n FROM visits_done")).toBeGreaterThan(0);
    expect(await answers(store, property)).toEqual(before);
    expect(await store.settle(settledThrough(last + 5))).toBe(last + 5 - mid);
    expect(await answers(store, property)).toEqual(before);
    // Nothing is left to settle, and every visit is in the settled rows once.
    expect(await store.settle(settledThrough(last + 5))).toBe(0);
    const visits = await count(
      `SELECT count() AS n FROM (SELECT session_id FROM events WHERE property = '${property}' GROUP BY session_id)`,
    );
    expect(await count("SELECT count() AS n FROM visits_done")).toBe(visits);
  });

  it("counts an insert into a settled day at once, settles the day again and deletes the superseded rows", async () => {
    const late = [
      event({
        property,
        ts: at("2024-05-25 15:00:00"),
        name: "pageview",
        path: "/late",
        visitor_id: "late",
        session_id: "late-1",
        client_id: "late",
      }),
      event({
        property,
        ts: at("2024-05-25 15:01:00"),
        name: "pageview",
        path: "/late/2",
        visitor_id: "late",
        session_id: "late-1",
        client_id: "late",
      }),
    ];
    await store.append(late);
    const page = dashboard(property)[2] as QuerySpecInput & { kind: "breakdown" };
    const withLate = (await runStats(
      store,
      { ...page, filters: [{ dimension: "page", op: "is", values: ["/late"] }] } as QuerySpecInput,
      CTX,
    )) as {
      page: string;
      visitors: number;
    }[];
    expect(withLate.map((r) => [r.page, r.visitors])).toEqual([["/late", 1]]);
    const counted = await answers(store, property);
    // The late day and every settled day after it (their prev_* may point past the late visit).
    const lateDay = dayNumber(Date.parse("2024-05-25T15:00:00Z"));
    // Settled by a store that keeps superseded rows for its grace (a query may have bound their batch).
    const patient = await open(store.database, 60_000);
    expect(await patient.settle(settledThrough(last + 5))).toBe(last + 5 - lateDay + 1);
    expect(await answers(store, property)).toEqual(counted);
    const visits = await count(
      `SELECT count() AS n FROM (SELECT session_id FROM events WHERE property = '${property}' GROUP BY session_id)`,
    );
    expect(await count("SELECT count() AS n FROM visits_done")).toBeGreaterThan(visits);
    // Past the grace (0 here) the superseded batch's rows are deleted (an asynchronous mutation):
    // one row per visit again.
    expect(await store.settle(settledThrough(last + 5))).toBe(0);
    for (let i = 0; i < 100 && (await count("SELECT count() AS n FROM visits_done")) !== visits; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await count("SELECT count() AS n FROM visits_done")).toBe(visits);
    expect(await answers(store, property)).toEqual(counted);
  });

  it("counts a returning visitor once when a late visit lands between two settled ones (every later day settled again)", async () => {
    const own = "prev.example";
    const visit = (day: string, n: number) =>
      ["pageview", "pageview"].map((name, i) =>
        event({
          property: own,
          ts: at(`${day} 10:0${i}:00`),
          name,
          path: `/p${i}`,
          visitor_id: "returning",
          session_id: `returning-${n}`,
          client_id: "returning",
          country: "DE",
        }),
      );
    const since = (from: string) =>
      [
        { kind: "aggregate", property: own, date_range: { ...RANGE, from }, metrics: ["visitors", "visits"] },
        {
          kind: "breakdown",
          property: own,
          date_range: { ...RANGE, from },
          dimensions: ["country"],
          metrics: ["visitors", "visits"],
        },
        { kind: "breakdown", property: own, date_range: { ...RANGE, from }, dimensions: ["page"], metrics: ["visitors"] },
      ] as QuerySpecInput[];
    const numbers = async (from: string) =>
      JSON.stringify(await Promise.all(since(from).map((spec) => runStats(store, spec, CTX))));
    const expected = (visits: number) =>
      JSON.stringify([
        { visitors: { value: 1, comparison: null, change: null }, visits: { value: visits, comparison: null, change: null } },
        [{ country: "DE", visitors: 1, visits }],
        [
          { page: "/p0", visitors: 1 },
          { page: "/p1", visitors: 1 },
        ],
      ]);
    await store.append([...visit("2024-05-21", 1), ...visit("2024-05-28", 3)]);
    await store.settle(settledThrough(last + 5));
    expect(await numbers("2024-05-22")).toBe(expected(1));
    // The late visit between them: its own day is read from states, and so is every marked day
    // after it, until they are all settled again.
    await store.append(visit("2024-05-25", 2));
    expect(await numbers("2024-05-22")).toBe(expected(2));
    expect(await numbers("2024-05-20")).toBe(expected(3));
    await store.settle(settledThrough(last + 5));
    expect(await numbers("2024-05-22")).toBe(expected(2));
    expect(await numbers("2024-05-20")).toBe(expected(3));
  });

  it("reads only each day's latest batch: rows of an older mark, or of a step that never marked, are not counted", async () => {
    const counted = await answers(store, property);
    const sql = async (q: string) => {
      const r = await fetch(`${(ch as { url: string }).url}/?database=${store.database}`, { method: "POST", body: q });
      if (!r.ok) throw new Error(await r.text());
    };
    // Copies of every settled row under two other batches: one marked before the winner, one never marked.
    for (const t of VISIT_TABLE_NAMES) {
      const cols = doneColumns(t).map(([n]) => n);
      // Batch 1: "older", 2: "unmarked".
      for (const b of [1, 2]) {
        await sql(
          `INSERT INTO ${DONE_TABLES[t]} (property, day, batch, ${cols.join(", ")}) SELECT property, day, ${b}, ${cols.join(", ")} ` +
            `FROM ${DONE_TABLES[t]} WHERE batch NOT IN (1, 2)`,
        );
      }
    }
    await sql("INSERT INTO visits_done_marks SELECT DISTINCT day, toUInt64(1) AS batch, toUInt64(1) AS at FROM visits_done");
    expect(await count("SELECT count() AS n FROM visits_done WHERE batch = 1")).toBeGreaterThan(0);
    expect(await answers(store, property)).toEqual(counted);
  });

  it("deletes a visitor's and a property's settled rows with their events", async () => {
    const other = "other.example";
    await store.append(rows.slice(0, 500).map((r) => ({ ...r, property: other })));
    await store.settle(settledThrough(last + 5));
    const otherBefore = await answers(store, other);
    expect(await store.deleteVisitor(property, "late")).toBe(2);
    expect(await count(`SELECT count() AS n FROM visits_done WHERE client_id = 'late'`)).toBe(0);
    expect(await answers(store, property)).toEqual(before);
    await store.deleteProperty(property);
    for (const t of ["visits_done", "visit_pages_done", "visit_events_done"]) {
      expect(await count(`SELECT count() AS n FROM ${t} WHERE property = '${property}'`)).toBe(0);
    }
    expect(await answers(store, other)).toEqual(otherBefore);
  });
});

describe.skipIf(!("url" in ch))("ClickHouse settled visits across stores", () => {
  it("two stores settling the same days at once count each visit once", async () => {
    const database = clickHouseTestDatabase("settle_two");
    const a = await open(database);
    const b = await open(database);
    const property = "two.example";
    const rows = traffic(property);
    await a.append(rows);
    const before = await answers(a, property);
    const last = Math.max(...rows.map((r) => dayNumber(r.ts.getTime())));
    await Promise.all([a.settle(settledThrough(last + 2)), b.settle(settledThrough(last + 2))]);
    expect(await answers(a, property)).toEqual(before);
    expect(await answers(b, property)).toEqual(before);
  });

  it("a store from before settling keeps its days: they are read from states until settled", async () => {
    const database = clickHouseTestDatabase("settle_upgrade");
    const a = await open(database);
    const property = "upgrade.example";
    const rows = traffic(property);
    await a.append(rows);
    const before = await answers(a, property);
    // As a store written before settled visits existed: no marks, no settled rows.
    await a.query({ sql: "TRUNCATE TABLE visits_done_marks", params: {} });
    const b = await open(database);
    // A late event into the oldest day (which marks only its own days) must not hide the rest: it
    // counts in the comparison period (before the range), and nothing else changes.
    const late = event({
      property,
      ts: at("2024-05-18 12:00:00"),
      name: "pageview",
      path: "/x",
      visitor_id: "x",
      session_id: "x",
      client_id: "x",
    });
    await b.append([late]);
    const withLate = await answers(b, property);
    const visits = (r: unknown[]) => (r[0] as Record<string, { value: number; comparison: number }>).visits;
    expect(visits(withLate)?.value).toBe(visits(before)?.value);
    expect(visits(withLate)?.comparison).toBe((visits(before)?.comparison ?? 0) + 1);
    expect(withLate.slice(1, 2)).toEqual(before.slice(1, 2));
    await b.settle(settledThrough(Math.max(...rows.map((r) => dayNumber(r.ts.getTime()))) + 2));
    expect(await answers(b, property)).toEqual(withLate);
  });
});

describe.skipIf(!("url" in ch))("ClickHouse settled visits: a visit past midnight", () => {
  it("settles yesterday once none of its visits runs on; a late event of one of them marks yesterday again, a new visit of today does not", async () => {
    const own = "midnight.example";
    const yesterday = dayNumber(Date.parse("2024-05-30T12:00:00Z"));
    const midnight = (yesterday + 1) * DAY;
    const clock = { now: midnight + 50 * 60_000 };
    if (!("url" in ch)) throw new Error(ch.skip);
    const store = await openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase("settle_midnight")}`, {
      settleEveryMs: 0,
      supersededGraceMs: 0,
      settleClock: () => clock.now,
    });
    opened.push(store);
    // The same events, never settled: the numbers every read must give.
    const reference = await open(clickHouseTestDatabase("settle_midnight_ref"));
    const both = async (events: EventRow[]) => {
      await store.append(events);
      await reference.append(events);
    };
    const pv = (ts: string, session: string, path: string) =>
      event({ property: own, ts: at(ts), name: "pageview", path, visitor_id: session, session_id: session, client_id: session });
    const count = async (sql: string) => Number((await store.query<{ n: number }>({ sql, params: {} }))[0]?.n ?? 0);
    const latestMark = () =>
      count("SELECT toUInt64(argMax(batch, at)) AS n FROM visits_done_marks WHERE day = toDate('2024-05-30')");
    const marks = () => count("SELECT count() AS n FROM visits_done_marks");
    const same = async () => expect(await answers(store, own)).toEqual(await answers(reference, own));

    // 00:50: yesterday has ended 35 minutes ago, but night-1 had an event 30 minutes ago and may go on.
    await both([
      pv("2024-05-30 10:00:00", "day-1", "/a"),
      pv("2024-05-30 23:40:00", "night-1", "/a"),
      pv("2024-05-30 23:50:00", "night-1", "/b"),
      pv("2024-05-31 00:20:00", "night-1", "/c"),
    ]);
    expect(await store.settle(new Date(clock.now))).toBe(0);
    expect(await latestMark()).toBe(0);
    await same();
    // 01:35: night-1 has been idle for over 35 minutes: yesterday is settled.
    clock.now = midnight + 95 * 60_000;
    expect(await store.settle(new Date(clock.now))).toBe(1);
    expect(await latestMark()).toBeGreaterThan(0);
    await same();

    // A late event of night-1 (a backlog delivered now): its settled row no longer holds it, and
    // yesterday is read from states until it is settled again.
    await both([pv("2024-05-31 00:30:00", "night-1", "/d")]);
    expect(await latestMark()).toBe(0);
    await same();
    expect(await store.settle(new Date(clock.now))).toBe(1);
    await same();
    expect(
      await count(
        `SELECT toUInt64(sum(pageviews)) AS n FROM visits_done WHERE batch = ${await latestMark()} AND skey = cityHash64('night-1')`,
      ),
    ).toBe(4);

    // New visits of today, one late and one live: nothing is marked, yesterday stays settled.
    const before = await marks();
    await both([pv("2024-05-31 01:00:00", "morning-1", "/a"), pv("2024-05-31 01:34:00", "morning-2", "/b")]);
    expect(await marks()).toBe(before);
    expect(await latestMark()).toBeGreaterThan(0);
    await same();
  });
});
