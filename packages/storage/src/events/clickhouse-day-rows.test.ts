// ClickHouse's day rows (clickhouse-day-rows.ts; @lookout/query clickhouse-day-rows.ts): filled
// for a pair's settled batches when settled and when the pair is first asked for, read for the
// whole local days of a dashboard's panels, and exact: every answer equals the same store's answer
// from visit rows alone, after settling, in a timezone with a half-hour offset, after a visitor's
// deletion, after a late insert into a settled day, and after two stores filled a pair at once.
import { SETTLE_MS, VISIT_DAYS_TABLE } from "@lookout/query";
import type { EventRow, QuerySpecInput } from "@lookout/schema";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse } from "../test-services.js";
import { dayNumber } from "./clickhouse-marks.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { at, event, recordingQueries } from "./fixtures.js";
import { runStats, type StatsContext } from "./stats.js";

const DAY = 86_400_000;
const END = at("2024-06-01 00:00:00");
const TZ = "America/New_York";
const RANGE = { preset: "custom", from: "2024-05-20", to: "2024-05-31" } as const;
const settledThrough = (day: number) => new Date((day + 1) * DAY + SETTLE_MS);

/** A dashboard's unfiltered panels (the ones day rows answer) and two they cannot (a filter, an hourly chart). */
function panels(property: string): QuerySpecInput[] {
  const b = (dimension: string, metrics: string[] = ["visitors", "visits", "bounce_rate", "visit_duration"]) =>
    ({ kind: "breakdown", property, date_range: RANGE, dimensions: [dimension], metrics, limit: 20 }) as QuerySpecInput;
  return [
    {
      kind: "aggregate",
      property,
      date_range: RANGE,
      comparison: "previous_period",
      metrics: ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration", "events"],
    },
    { kind: "timeseries", property, date_range: RANGE, interval: "day", metrics: ["visitors", "visits", "pageviews"] },
    { kind: "timeseries", property, date_range: RANGE, interval: "week", metrics: ["visitors", "bounce_rate"] },
    {
      kind: "timeseries",
      property,
      date_range: { preset: "custom", from: "2024-05-29", to: "2024-05-31" },
      interval: "hour",
      metrics: ["visitors"],
    },
    b("page", ["visitors", "pageviews", "time_on_page", "events"]),
    b("entry_page"),
    b("country"),
    b("source"),
    b("event_name", ["visitors", "events", "visits"]),
    {
      ...(b("browser") as object),
      filters: [{ dimension: "country", op: "is", values: ["DE"] }],
    } as QuerySpecInput,
  ];
}

const ch = await requireClickHouse();

describe.skipIf(!("url" in ch))("ClickHouse day rows", () => {
  const property = "days.example";
  const opened: ClickHouseEventStore[] = [];
  let store: ClickHouseEventStore;
  const sqls: string[] = [];
  const rows: EventRow[] = [];
  for (const batch of generateEvents({
    property,
    days: 14,
    visitors: Math.ceil(6000 / EVENTS_PER_VISITOR),
    seed: 11,
    end: END,
    maxEvents: 6000,
    batchSize: 6000,
  }))
    rows.push(...batch);
  const last = Math.max(...rows.map((r) => dayNumber(r.ts.getTime())));
  const OTHER = "other.example";
  const otherRows: EventRow[] = [];
  for (const batch of generateEvents({
    property: OTHER,
    days: 10,
    visitors: 200,
    seed: 12,
    end: END,
    maxEvents: 2000,
    batchSize: 2000,
  }))
    otherRows.push(...batch);

  const open = async (database: string) => {
    if (!("url" in ch)) throw new Error(ch.skip);
    const s = await openClickHouseEventStore(`${ch.url}/${database}`, {
      settleEveryMs: 0,
      supersededGraceMs: 0,
      timelines: false,
    });
    opened.push(s);
    return s;
  };
  /** The store, with every statement it runs recorded. */
  const spied = () => recordingQueries(store, sqls);
  /** Each panel's answer, from day rows where they can answer (and the statements that read them), and from visit rows alone. */
  const both = async (tz = TZ, of = property) => {
    const ctx: StatsContext = { timezone: tz, now: new Date(END.getTime() - 1) };
    sqls.length = 0;
    const withRows = [];
    const read: boolean[] = [];
    for (const spec of panels(of)) {
      withRows.push(await runStats(spied(), spec, ctx));
      read.push(sqls.some((s) => s.includes(VISIT_DAYS_TABLE)));
      sqls.length = 0;
    }
    const without = [];
    for (const spec of panels(of)) without.push(await runStats(store, spec, { ...ctx, dayRollups: false }));
    return { withRows, without, read };
  };
  const count = async (sql: string) => Number((await store.query<{ n: number }>({ sql, params: {} }))[0]?.n ?? 0);
  /** Waits for the deletions of superseded or doubled rows (asynchronous mutations in 18.16). */
  const mutationsDone = async () => {
    for (let i = 0; i < 200; i++) {
      const n = await count(`SELECT count() AS n FROM system.mutations WHERE database = '${store.database}' AND is_done = 0`);
      if (n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Read by every panel day rows can answer; never by the filtered one or the hourly chart. */
  const READS = [true, true, true, false, true, true, true, true, true, false];

  beforeAll(async () => {
    store = await open(clickHouseTestDatabase("dayrows"));
    // Kept from before the first event: each settle run fills the batches it writes.
    // A second property in the same timezone: one INSERT per settle run fills both.
    await store.buildDayRollups(property, TZ);
    await store.buildDayRollups(OTHER, TZ);
    await store.append(rows);
    await store.append(otherRows);
  }, 120_000);
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it("reads nothing from day rows before a day is settled, then answers from them exactly, half and all settled", async () => {
    const live = await both();
    expect(live.read.every((r) => !r)).toBe(true);
    expect(live.withRows).toEqual(live.without);
    expect((live.without[0] as Record<string, { value: number }>).visits?.value).toBeGreaterThan(100);

    await store.settle(settledThrough(last - 5));
    const half = await both();
    expect(half.read).toEqual(READS);
    expect(half.withRows).toEqual(live.without);

    await store.settle(settledThrough(last + 5));
    const all = await both();
    expect(all.read).toEqual(READS);
    expect(all.withRows).toEqual(live.without);
    const other = await both(TZ, OTHER);
    expect(other.read).toEqual(READS);
    expect(other.withRows).toEqual(other.without);
    expect((other.without[0] as Record<string, { value: number }>).visits?.value).toBeGreaterThan(10);
    // Every settled visit (of both properties) is in the property-wide rows once.
    expect(await count(`SELECT sum(visits) AS n FROM ${VISIT_DAYS_TABLE} WHERE dimension = 'any' AND tz = '${TZ}'`)).toBe(
      await count("SELECT count() AS n FROM visits_done"),
    );
  });

  it("fills a pair first asked for after settling (a half-hour offset) for every settled day", async () => {
    await store.buildDayRollups(property, "Asia/Kolkata");
    const r = await both("Asia/Kolkata");
    expect(r.read).toEqual(READS);
    expect(r.withRows).toEqual(r.without);
  });

  it("stays exact after a visitor's deletion (their batches' rows are filled again) and a late insert into a settled day", async () => {
    const visitor = rows.find((r) => r.ts.getTime() > Date.parse("2024-05-24T00:00:00Z"))?.client_id as string;
    expect(await store.deleteVisitor(property, visitor)).toBeGreaterThan(0);
    const after = await both();
    expect(after.read).toEqual(READS);
    expect(after.withRows).toEqual(after.without);

    const late = ["/late", "/late/2"].map((path, i) =>
      event({
        property,
        ts: at(`2024-05-25 15:0${i}:00`),
        name: "pageview",
        path,
        visitor_id: "late",
        session_id: "late-1",
        client_id: "late",
        country: "FR",
      }),
    );
    await store.append(late);
    // The late day and every day after are read from states until settled again.
    const unsettled = await both();
    expect(unsettled.withRows).toEqual(unsettled.without);
    const fr = (unsettled.without[6] as { country: string; visitors: number }[]).find((x) => x.country === "FR");
    expect(fr?.visitors).toBeGreaterThanOrEqual(1);
    await store.settle(settledThrough(last + 5));
    await mutationsDone();
    const resettled = await both();
    expect(resettled.read).toEqual(READS);
    expect(resettled.withRows).toEqual(unsettled.without);
  });

  it("counts a batch two stores filled at once only once it is filled again", async () => {
    const other = await open(store.database);
    const tz = "Europe/Berlin";
    await Promise.all([store.buildDayRollups(property, tz), other.buildDayRollups(property, tz)]);
    const doubled = await count(
      `SELECT max(n) AS n FROM (SELECT count() AS n FROM ${VISIT_DAYS_TABLE} WHERE dimension = '' AND tz = '${tz}' GROUP BY batch)`,
    );
    // Whether both wrote depends on timing; either way every answer is exact.
    expect([1, 2]).toContain(doubled);
    expect((await both(tz)).withRows).toEqual((await both(tz)).without);
    await store.settle(settledThrough(last + 5));
    await mutationsDone();
    const r = await both(tz);
    expect(r.read).toEqual(READS);
    expect(r.withRows).toEqual(r.without);
  });

  it("reads no rows of a batch not yet marked filled, though its UTC day starts inside a local day read from rows", async () => {
    if (!("url" in ch)) throw new Error(ch.skip);
    // The last settled day's marker goes, as while its fill is under way: its rows are there, and
    // in New York those of its first four hours carry the local day before, which is read from rows.
    const where = `property = '${property}' AND tz = '${TZ}' AND dimension = '' AND lday = ${last}`;
    expect(await count(`SELECT count() AS n FROM ${VISIT_DAYS_TABLE} WHERE ${where}`)).toBe(1);
    const early = `property = '${property}' AND tz = '${TZ}' AND dimension = 'any' AND lday = ${last - 1} AND batch IN (SELECT batch FROM ${VISIT_DAYS_TABLE} WHERE ${where})`;
    expect(await count(`SELECT sum(visits) AS n FROM ${VISIT_DAYS_TABLE} WHERE ${early}`)).toBeGreaterThan(0);
    const url = new URL(ch.url);
    url.searchParams.set("database", store.database);
    const r = await fetch(url, { method: "POST", body: `ALTER TABLE ${VISIT_DAYS_TABLE} DELETE WHERE ${where}` });
    expect(r.status).toBe(200);
    await mutationsDone();
    const after = await both();
    expect(after.read).toEqual(READS);
    expect(after.withRows).toEqual(after.without);
  });
});
