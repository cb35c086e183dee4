// The shared live parts (clickhouse-live-rows.ts; @lookout/query clickhouse-live-shared.ts): the
// reads that arrive together compute each live part once and answer exactly what reads running
// their own parts answer (a store with shareLive: false over the same events); an append counts in
// the next read; another server's deletion of a visitor retires the histories; a value that looks
// like a marker is only a value; no table outlives its reads.
import { SETTLE_MS, SHARED_CLOSE, SHARED_OPEN } from "@lookout/query";
import type { EventRow, QuerySpecInput } from "@lookout/schema";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouse } from "../test-services.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { at, event } from "./fixtures.js";
import { runStats, type StatsContext } from "./stats.js";

const DAY = 86_400_000;
const END = at("2024-06-01 00:00:00");
const CTX: StatsContext = { timezone: "Europe/Berlin", now: new Date(END.getTime() - 1) };
const RANGE = { preset: "last_7_days" } as const;
const property = "live-rows.example";

/** A dashboard of one range: every panel's live part is one of three (visits, pages, events). */
function dashboard(filters: QuerySpecInput["filters"] = []): QuerySpecInput[] {
  const b = (dimension: string, metrics: string[] = ["visitors", "visits", "bounce_rate"]) =>
    ({ kind: "breakdown", property, date_range: RANGE, dimensions: [dimension], metrics, limit: 20, filters }) as QuerySpecInput;
  return [
    {
      kind: "aggregate",
      property,
      date_range: RANGE,
      filters,
      metrics: ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration", "events"],
    },
    { kind: "timeseries", property, date_range: RANGE, interval: "day", metrics: ["visitors", "visits"], filters },
    b("page", ["visitors", "pageviews", "time_on_page"]),
    b("entry_page"),
    b("exit_page"),
    b("country"),
    b("source"),
    b("browser"),
    b("event_name", ["visitors", "events"]),
  ];
}

const answers = (store: ClickHouseEventStore, specs = dashboard()) =>
  Promise.all(specs.map((spec) => runStats(store, spec, CTX)));

function traffic(): EventRow[] {
  const out: EventRow[] = [];
  for (const batch of generateEvents({
    property,
    days: 10,
    visitors: Math.ceil(5000 / EVENTS_PER_VISITOR),
    seed: 11,
    end: END,
    maxEvents: 5000,
    batchSize: 5000,
  }))
    out.push(...batch);
  return out;
}

const ch = await requireClickHouse();
const opened: ClickHouseEventStore[] = [];
const open = async (database: string, shareLive: boolean) => {
  if (!("url" in ch)) throw new Error(ch.skip);
  const s = await openClickHouseEventStore(`${ch.url}/${database}`, { settleEveryMs: 0, supersededGraceMs: 0, shareLive });
  opened.push(s);
  return s;
};
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe.skipIf(!("url" in ch))("ClickHouse shared live parts", () => {
  const rows = traffic();
  let shared: ClickHouseEventStore;
  let inline: ClickHouseEventStore;
  const sharedDb = clickHouseTestDatabase("live_shared");
  const liveTables = async (store: ClickHouseEventStore) =>
    (
      await store.query<{ name: string }>({
        sql: "SELECT name FROM system.tables WHERE database = currentDatabase() AND startsWith(name, 'lookout_live_')",
        params: {},
      })
    ).map((r) => r.name);

  beforeAll(async () => {
    [shared, inline] = await Promise.all([open(sharedDb, true), open(clickHouseTestDatabase("live_inline"), false)]);
    // The last three days stay live: settled through the fourth-last.
    const settleAt = new Date(Math.floor(END.getTime() / DAY - 4 + 1) * DAY + SETTLE_MS);
    for (const s of [shared, inline]) {
      await s.append(rows);
      await s.settle(settleAt);
      // The day rows first, as a running server has them: a read's live part depends on where they end.
      await s.buildDayRollups(property, CTX.timezone);
    }
  }, 120_000);

  it("computes each live part once for the reads that arrive together, and answers as reads that run their own", async () => {
    const made = shared.liveTablesMade;
    const got = await answers(shared);
    expect(shared.liveTablesMade - made).toBe(3);
    expect(inline.liveTablesMade).toBe(0);
    expect(got).toEqual(await answers(inline));
    expect((got[0] as Record<string, { value: number }>).visits?.value).toBeGreaterThan(50);
    // Later reads keep them while the events are unchanged, however long after.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await answers(shared)).toEqual(got);
    expect(shared.liveTablesMade - made).toBe(3);
  });

  it("runs a part again once another server has inserted into the live days, and reads the history of the visitors new to it only", async () => {
    const before = await answers(shared);
    const other = await open(sharedDb, true);
    // A visitor with settled visits and none live, back today with the values of an earlier visit:
    // counted as new in the period only if their history is missed.
    const firstLive = Math.floor(END.getTime() / DAY) - 3;
    const byVisitor = new Map<string, EventRow[]>();
    for (const r of rows) byVisitor.set(r.visitor_id, [...(byVisitor.get(r.visitor_id) ?? []), r]);
    const [, theirs] = [...byVisitor].find(
      ([, rs]) =>
        rs.every((r) => r.ts.getTime() < firstLive * DAY) &&
        rs.some((r) => r.name === "pageview" && r.ts.getTime() >= END.getTime() - 6 * DAY),
    ) as [string, EventRow[]];
    const template = theirs.filter((r) => r.name === "pageview").at(-1) as EventRow;
    const back = { ...template, session_id: "back-1", ts: new Date(END.getTime() - 7_200_000) };
    await other.append([back]);
    await inline.append([back]);
    const [made, reads] = [shared.liveTablesMade, shared.liveHistoryReads];
    const after = await answers(shared);
    expect(shared.liveTablesMade - made).toBe(3);
    // The visits', the pages' and the events' histories, each for the one new visitor.
    expect(shared.liveHistoryReads - reads).toBe(3);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await answers(inline));
  });

  it("counts an append in the next read, and a filter's value that looks like a marker is only a value", async () => {
    const late = [
      event({
        property,
        ts: new Date(END.getTime() - 3_600_000),
        name: "pageview",
        path: "/new",
        visitor_id: "late",
        client_id: "late",
        session_id: "late-1",
      }),
      event({
        property,
        ts: new Date(END.getTime() - 3_000_000),
        name: "signup",
        path: "/new",
        visitor_id: "late",
        client_id: "late",
        session_id: "late-1",
      }),
    ];
    const before = await answers(shared);
    for (const s of [shared, inline]) await s.append(late);
    const made = shared.liveTablesMade;
    const after = await answers(shared);
    expect(shared.liveTablesMade).toBeGreaterThan(made);
    expect(after).not.toEqual(before);
    expect(after).toEqual(await answers(inline));
    const tricky = dashboard([{ dimension: "page", op: "contains", values: [`${SHARED_CLOSE}') OR 1 = 1 ${SHARED_OPEN}`] }]);
    expect(await answers(shared, tricky)).toEqual(await answers(inline, tricky));
  });

  it("reads its histories again once another server deleted a visitor: one who comes back that day is new", async () => {
    // A visitor live today with settled visits in the range: their settled rows are in the histories.
    const firstLive = Math.floor(END.getTime() / DAY) - 3;
    const byVisitor = new Map<string, EventRow[]>();
    for (const r of rows) byVisitor.set(r.visitor_id, [...(byVisitor.get(r.visitor_id) ?? []), r]);
    const [, theirs] = [...byVisitor].find(
      ([, rs]) =>
        rs.some((r) => r.name === "pageview" && r.ts.getTime() >= firstLive * DAY) &&
        rs.some((r) => r.name === "pageview" && r.ts.getTime() < firstLive * DAY && r.ts.getTime() >= END.getTime() - 6 * DAY),
    ) as [string, EventRow[]];
    expect(await answers(shared)).toEqual(await answers(inline));
    const other = await open(sharedDb, true);
    const client = theirs[0]?.client_id as string;
    await other.deleteVisitor(property, client);
    await inline.deleteVisitor(property, client);
    const template = theirs.filter((r) => r.name === "pageview").at(-1) as EventRow;
    const back = { ...template, session_id: "back-after-deletion", ts: new Date(END.getTime() - 1_800_000) };
    for (const s of [shared, inline]) await s.append([back]);
    expect(await answers(shared)).toEqual(await answers(inline));
  });

  it("drops its tables once no read holds them, and those a stopped process left behind", async () => {
    const left = "lookout_live_1000_abcdef";
    await shared.query({ sql: `CREATE TABLE ${left} (x UInt8) ENGINE = Memory`, params: {} });
    const other = await open(sharedDb, true);
    await answers(other);
    expect(other.liveTablesMade).toBe(3);
    await other.close();
    await shared.close();
    const reopened = await open(sharedDb, false);
    await expect.poll(() => liveTables(reopened), { timeout: 5_000 }).toEqual([]);
  });
});
