// POST /api/batch end to end on both event engines (DuckDB, and ClickHouse on the test run's
// server): per-event validation and drop rules, one answer listing each outcome in order, only the
// accepted events stored (and counted by the stats), envelope errors, and the property's rate.
import { type AggregateResult, runStats } from "@lookout/storage";
import { clickHouseTestDatabase, requireClickHouse } from "@lookout/storage/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const ch = await requireClickHouse();
const ENGINES = [
  { name: "duckdb", skip: undefined, env: (): Record<string, string> => ({}) },
  {
    name: "clickhouse",
    skip: "skip" in ch ? ch.skip : undefined,
    env: (): Record<string, string> => ("url" in ch ? { CLICKHOUSE_URL: `${ch.url}/${clickHouseTestDatabase("batch")}` } : {}),
  },
];

describe.each(ENGINES)("POST /api/batch on $name", (engine) => {
  let t: TestApp;
  let site: string;
  let strict: string;
  beforeAll(async () => {
    if (engine.skip) return;
    t = await createTestApp("pglite", { env: engine.env() });
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    strict = await t.property(alice.accountId, "https://strict.test", { settings: { excluded_paths: ["/admin/**"] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (body: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/api/batch",
      headers: { "content-type": "application/json", "user-agent": CHROME },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });
  const pv = (property: string, path: string, client = "client-001") => ({
    property,
    name: "pageview",
    url: `https://shop.test${path}`,
    client_id: client,
  });

  it.skipIf(engine.skip !== undefined)(
    `answers each event's outcome in order and stores only the accepted${engine.skip ? ` (${engine.skip})` : ""}`,
    async () => {
      const r = await send({
        events: [
          pv(site, "/a"),
          { property: site, name: "pageview" }, // no url
          pv("no-such-property", "/x"),
          { ...pv(strict, "/admin/users"), url: "https://strict.test/admin/users" },
          { p: site, n: "signup", u: "https://shop.test/signup", c: "client-001", pr: { plan: "pro" } }, // aliases
          { ...pv(site, "/big"), props: { k: "x".repeat(17_000) } },
          pv(site, "/b"),
        ],
      });
      expect(r.statusCode).toBe(202);
      const answer = r.json();
      expect(answer.results.map((x: { status: string }) => x.status)).toEqual([
        "accepted",
        "invalid",
        "dropped",
        "dropped",
        "accepted",
        "invalid",
        "accepted",
      ]);
      expect(answer.results[2]).toEqual({ status: "dropped", reason: "unknown_property" });
      expect(answer.results[3]).toEqual({ status: "dropped", reason: "excluded_path" });
      expect(answer.results[1].error).toMatch(/url/);
      expect(answer.results[5].error).toMatch(/16 KB/);
      expect({ ...answer, results: undefined }).toEqual({ accepted: 3, dropped: 2, invalid: 2, rate_limited: 0 });
      // Durable when answered: the accepted events are there, in one visit, and nothing else is.
      const rows = await t.events.events(site);
      expect(rows.map((x) => x.path).sort()).toEqual(["/a", "/b", "/signup"]);
      expect(new Set(rows.map((x) => x.session_id)).size).toBe(1);
      expect(rows.find((x) => x.name === "signup")?.props).toEqual({ plan: "pro" });
      expect(await t.events.events(strict)).toEqual([]);
      await t.events.sync();
      const stats = (await runStats(
        t.events,
        {
          kind: "aggregate",
          property: site,
          metrics: ["visitors", "visits", "pageviews", "events"],
          date_range: { preset: "today" },
        },
        { timezone: "UTC" },
      )) as AggregateResult;
      expect([stats.visitors?.value, stats.visits?.value, stats.pageviews?.value, stats.events?.value]).toEqual([1, 1, 2, 1]);
    },
  );

  it.skipIf(engine.skip !== undefined)("answers 400 for a body that is not 1 to 500 events, storing nothing", async () => {
    const many = Array.from({ length: 501 }, (_, i) => pv(site, `/many${i}`, "client-many"));
    for (const body of [
      {},
      { events: [] },
      { events: many },
      { events: "x" },
      [pv(site, "/arr")],
      { events: [], extra: 1 },
      "{",
    ]) {
      const r = await send(body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(r.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await t.events.events(site, { clientId: "client-many" })).toEqual([]);
  });

  it.skipIf(engine.skip !== undefined)("takes 500 events at once", async () => {
    const r = await send({ events: Array.from({ length: 500 }, (_, i) => pv(site, `/p${i}`, `bulk-client-${i % 50}`)) });
    expect(r.statusCode).toBe(202);
    expect(r.json().accepted).toBe(500);
    const stored = await t.events.events(site, { limit: 10_000 });
    expect(stored.filter((x) => x.path.startsWith("/p"))).toHaveLength(500);
  });

  // The rate is the route's, not the engine's: checked once, on DuckDB (an app of its own costs seconds).
  it.skipIf(engine.name !== "duckdb")(
    "holds the property's rate per event: past it, events come back rate_limited",
    // A second app (an owner's argon2 hash, a PGlite) takes a while on a loaded machine.
    { timeout: 120_000 },
    async () => {
      // An app of its own with LOOKOUT_RATE_PER_PROPERTY=3: a burst of 6.
      const slow = await createTestApp("pglite", { env: { LOOKOUT_RATE_PER_PROPERTY: "3", ...engine.env() } });
      try {
        const bob = await slow.user("bob@example.com");
        const limited = await slow.property(bob.accountId, "https://busy.test");
        const r = await slow.app.inject({
          method: "POST",
          url: "/api/batch",
          headers: { "content-type": "application/json", "user-agent": CHROME },
          payload: JSON.stringify({ events: Array.from({ length: 9 }, (_, i) => pv(limited, `/r${i}`)) }),
        });
        expect(r.statusCode).toBe(202);
        const answer = r.json();
        expect(answer.accepted).toBe(6);
        expect(answer.rate_limited).toBe(3);
        expect(answer.results[8]).toEqual({ status: "rate_limited", retry_after_ms: expect.any(Number) });
        expect(await slow.events.events(limited)).toHaveLength(6);
      } finally {
        await slow.close();
      }
    },
  );
});
