// ClickHouse's event slots (clickhouse-event-slots.ts; @lookout/query event-slots.ts and
// insights/trends-slots.ts): trends that count events or visitors read them, and every answer equals
// the same store's answer from events (the same spec with filters every event passes, on two
// columns, which the slots do not answer), unfiltered and filtered by one kept column: as appended, in timezones with half- and three-quarter-hour offsets, with a
// running comparison whose ends fall inside quarter hours, after a late event, after a visitor's
// deletion, and after the slots were made from the events already stored (the first migration).
import { EVENT_SLOTS_TABLE } from "@lookout/query";
import type { EventRow, TrendsSpecInput } from "@lookout/schema";
import { EVENTS_PER_VISITOR, generateEvents } from "@lookout/traffic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireClickHouse, stopClickHouseCluster } from "../test-services.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { at, event, recordingQueries } from "./fixtures.js";
import { testEngines } from "./test-engines.js";
import { runTrends } from "./trends.js";

const END = at("2024-06-01 00:00:00");
/** Inside a quarter hour: a running comparison's earlier total stops there. */
const NOW = new Date(END.getTime() - 3 * 3_600_000 - 7 * 60_000 - 13_000);
const RANGE = { period: "custom", date: "2024-05-18,2024-05-31" } as const;
/**
 * Filters every event passes, on two columns (slots answer filters on one): the same spec answered
 * from events.
 */
const EVERY_EVENT = "country!=__no_such_country__;browser!=__no_such_browser__";

function specs(): TrendsSpecInput[] {
  const t = (o: Partial<TrendsSpecInput>): TrendsSpecInput =>
    ({
      kind: "trends",
      ...RANGE,
      interval: "day",
      series: [{ event: "pageview", math: "unique_visitors" }],
      ...o,
    }) as TrendsSpecInput;
  return [
    t({}),
    t({
      interval: "week",
      series: [
        { event: "pageview", math: "total" },
        { event: "signup", math: "unique_visitors" },
      ],
    }),
    t({ interval: "hour", date: "2024-05-30,2024-05-31" }),
    t({ series: [{ event: "pageview", math: "avg_per_visitor" }], breakdown: "country", breakdown_limit: 3 }),
    t({ interval: "month", breakdown: "page", breakdown_limit: 4 }),
    t({ period: "last_7_days", comparison: "previous_period", breakdown: "browser", breakdown_limit: 2 }),
    t({ period: "today", interval: "hour", comparison: "previous_period" }),
    // Filtered by one kept column (the breakdown's, when there is one).
    t({ filters: "country==DE|FR" }),
    t({ series: [{ event: "pageview", math: "total", filters: "page~pricing" }], breakdown: "page", breakdown_limit: 2 }),
    t({ period: "last_7_days", comparison: "previous_period", filters: "browser!=Chrome", breakdown: "browser" }),
  ];
}

const ch = await requireClickHouse();
// One node, and the two-shard cluster (each shard's view, the Distributed slots, a deletion's
// mutations on each shard and its refill through the Distributed table).
const ENGINES = (await testEngines({ cluster: true })).filter((e) => e.name.startsWith("clickhouse"));
afterAll(() => stopClickHouseCluster());

describe.each(ENGINES)("ClickHouse event slots on $name", (engine) => {
  if (engine.skip) {
    it.skip(engine.skip, () => {});
    return;
  }
  const property = "slots.example";
  const opened: ClickHouseEventStore[] = [];
  let store: ClickHouseEventStore;
  const sqls: string[] = [];
  const rows: EventRow[] = [];
  /** The generated events the visitor's deletion took. */
  let deleted = 0;
  for (const batch of generateEvents({
    property,
    days: 16,
    visitors: Math.ceil(5000 / EVENTS_PER_VISITOR),
    seed: 21,
    end: END,
    maxEvents: 5000,
    batchSize: 5000,
  }))
    rows.push(...batch);

  const open = async (database: string) => {
    if (!("url" in ch)) throw new Error(ch.skip);
    const s = await openClickHouseEventStore(`${ch.url}/${database}`, { settleEveryMs: 0, timelines: false });
    opened.push(s);
    return s;
  };
  /** The store, with every statement it runs recorded. */
  const spied = () => recordingQueries(store, sqls);
  /** Each spec's answer from the slots (checking that it read them) and from events. */
  const expectSame = async (timezone: string) => {
    const ctx = { timezone, now: NOW };
    for (const spec of specs()) {
      sqls.length = 0;
      const fromSlots = await runTrends(spied(), property, spec, ctx);
      expect(sqls.some((s) => s.includes(`FROM ${EVENT_SLOTS_TABLE} WHERE`))).toBe(true);
      const filtered = { ...spec, filters: spec.filters ? `${spec.filters};${EVERY_EVENT}` : EVERY_EVENT };
      sqls.length = 0;
      const fromEvents = await runTrends(spied(), property, filtered, ctx);
      expect(sqls.some((s) => s.includes(EVENT_SLOTS_TABLE))).toBe(false);
      expect({ spec, answer: fromSlots }).toEqual({ spec, answer: fromEvents });
      expect(fromSlots.results.some((r) => (r.total ?? 0) > 0)).toBe(true);
    }
  };
  const count = async (sql: string) => Number((await store.query<{ n: number }>({ sql, params: {} }))[0]?.n ?? 0);
  /** The events the slots count for the property, against the events stored. */
  const totals = async () => [
    await count(`SELECT countMerge(events) AS n FROM ${EVENT_SLOTS_TABLE} WHERE property = '${property}' AND dim = ''`),
    await count(`SELECT count() AS n FROM events WHERE property = '${property}'`),
  ];

  beforeAll(async () => {
    store = (await engine.open("slots")) as ClickHouseEventStore;
    opened.push(store);
    await store.append(rows);
  }, 120_000);
  afterAll(async () => {
    for (const s of opened) await s.close();
    engine.cleanup();
  });

  it("answers as events do, in whole-hour, half-hour and three-quarter-hour timezones", async () => {
    const [slotted, stored] = await totals();
    expect(slotted).toBe(stored);
    for (const tz of ["Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu"]) await expectSame(tz);
  });

  it("stays exact after a late event and after a visitor's deletion", async () => {
    const visitor = rows.find((r) => r.ts.getTime() > Date.parse("2024-05-25T00:00:00Z"))?.client_id as string;
    await store.append([
      event({
        property,
        name: "pageview",
        ts: at("2024-05-20 10:07:31"),
        visitor_id: visitor,
        session_id: "late-visit",
        client_id: visitor,
        country: "IS",
      }),
    ]);
    await expectSame("Europe/Berlin");
    deleted = await store.deleteVisitor(property, visitor);
    expect(deleted).toBeGreaterThan(0);
    deleted -= 1; // the late event above
    const [slotted, stored] = await totals();
    expect(slotted).toBe(stored);
    expect(
      await count(
        `SELECT count() AS n FROM ${EVENT_SLOTS_TABLE} WHERE property = '${property}' AND dim = 'country' AND value = 'IS'`,
      ),
    ).toBe(0);
    await expectSame("Europe/Berlin");
  });

  // One node's only: it drops and makes the node's own tables (a cluster's live on its shards).
  if (engine.name !== "clickhouse") return;
  it(
    "are made from the events already stored when their view is first created, or kept other columns",
    async () => {
      const database = store.database;
      if (!("url" in ch)) throw new Error(ch.skip);
      const run = async (sql: string) => {
        const res = await fetch(ch.url, { method: "POST", body: sql });
        expect(res.status, await res.text()).toBe(200);
      };
      for (const t of [`${EVENT_SLOTS_TABLE}_mv`, EVENT_SLOTS_TABLE]) await run(`DROP TABLE ${database}.${t}`);
      store = await open(database);
      expect(await totals()).toEqual([rows.length - deleted, rows.length - deleted]);
      await expectSame("America/New_York");
      // A view from a release that kept fewer columns (no country rows): made again with this one's.
      await run(`DROP TABLE ${database}.${EVENT_SLOTS_TABLE}_mv`);
      await run(`TRUNCATE TABLE ${database}.${EVENT_SLOTS_TABLE}`);
      await run(
        `CREATE MATERIALIZED VIEW ${database}.${EVENT_SLOTS_TABLE}_mv TO ${database}.${EVENT_SLOTS_TABLE} AS SELECT property, name, ` +
          "d.1 AS dim, d.2 AS value, toStartOfFifteenMinutes(ts) AS slot, countState() AS events, " +
          `uniqExactState(cityHash64(visitor_id)) AS visitors FROM ${database}.events ARRAY JOIN [('', ''), ('path', path)] AS d ` +
          "GROUP BY property, name, dim, value, slot",
      );
      store = await open(database);
      await expectSame("Europe/Berlin");
    },
  );
});
