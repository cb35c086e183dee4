// The insight result cache (result-cache.ts): single flight, the data version, the age limit and
// failures, first on the cache alone (counting computations), then through the insights service on
// a real DuckDB event store (counting the store's queries) with presence on a memory LiveBus
// carrying the collector's "stored" signals. The clock is a variable the test steps: no timings.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow, type InsightSpec, InsightSpecSchema } from "@lookout/schema";
import { type EventStore, type MetaStore, memoryLiveBus, openDuckDbEventStore, type PropertyRow } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { Presence } from "../live/presence.js";
import { countQueries } from "../test-support.js";
import { createResultCache, stableKey } from "./result-cache.js";
import { createInsightService } from "./service.js";

describe("result cache", () => {
  it("computes once for callers who ask at the same time, and serves the answer afterwards", async () => {
    const cache = createResultCache<number>();
    let computed = 0;
    let release: (v: number) => void = () => {};
    const compute = () => {
      computed++;
      return new Promise<number>((r) => {
        release = r;
      });
    };
    const a = cache.get("p", "k", compute);
    const b = cache.get("p", "k", compute);
    release(42);
    expect(await Promise.all([a, b])).toEqual([42, 42]);
    expect(await cache.get("p", "k", compute)).toBe(42);
    expect(computed).toBe(1);
  });

  it("recomputes after the property's data version moves, and only that property's answers", async () => {
    const cache = createResultCache<string>();
    let computed = 0;
    const compute = async () => `answer ${++computed}`;
    expect(await cache.get("p", "k", compute)).toBe("answer 1");
    expect(await cache.get("q", "k", compute)).toBe("answer 2");
    cache.bump("p");
    expect(cache.version("p")).toBe(1);
    expect(await cache.get("p", "k", compute)).toBe("answer 3");
    expect(await cache.get("q", "k", compute)).toBe("answer 2");
    expect(computed).toBe(3);
  });

  it("recomputes past the age limit, on the injected clock", async () => {
    let now = 1_000;
    const cache = createResultCache<number>({ maxAgeMs: 60_000, now: () => now });
    let computed = 0;
    const compute = async () => ++computed;
    await cache.get("p", "k", compute);
    now += 60_000;
    expect(await cache.get("p", "k", compute)).toBe(1);
    now += 1;
    expect(await cache.get("p", "k", compute)).toBe(2);
  });

  it("keeps no failure: the next ask tries again", async () => {
    const cache = createResultCache<number>();
    let computed = 0;
    const failing = async () => {
      computed++;
      throw new Error("engine down");
    };
    await expect(cache.get("p", "k", failing)).rejects.toThrow("engine down");
    await expect(cache.get("p", "k", async () => ++computed)).resolves.toBe(2);
    expect(cache.size).toBe(1);
  });

  it("keeps at most maxEntries answers, dropping the least recently used", async () => {
    const cache = createResultCache<string>({ maxEntries: 2 });
    let computed = 0;
    const compute = async () => `${++computed}`;
    await cache.get("p", "a", compute);
    await cache.get("p", "b", compute);
    await cache.get("p", "a", compute); // a is now the most recent
    await cache.get("p", "c", compute); // b goes
    expect(cache.size).toBe(2);
    expect(await cache.get("p", "a", compute)).toBe("1");
    expect(await cache.get("p", "b", compute)).toBe("4");
  });

  it("keys specs by content, whatever their key order", () => {
    expect(stableKey({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } })).toBe(
      stableKey({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
    expect(stableKey({ a: [1, 2] })).not.toBe(stableKey({ a: [2, 1] }));
  });
});

describe("insights service results on DuckDB", () => {
  let dir: string;
  let store: EventStore;
  let queries: string[] = [];
  let presence: Presence;
  const site = "cache-site";
  const property = { unique_id: site, timezone: "UTC", created_at: new Date("2024-01-01T00:00:00Z") } as PropertyRow;
  const spec: InsightSpec = InsightSpecSchema.parse({
    kind: "trends",
    period: "custom",
    date: "2024-03-05,2024-03-06",
    interval: "day",
    series: [{ event: "pageview" }],
  });
  const total = (a: { kind: string; results: unknown }) => (a.results as { total: number }[])[0]?.total;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-insight-cache-"));
    const duck = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
    // Every store query counted: what the cache is there to save.
    ({ store, queries } = countQueries(duck));
    await store.append([eventRow({ property: site, ts: new Date("2024-03-05T10:00:00Z"), name: "pageview", visitor_id: "v1" })]);
    await store.sync();
    presence = new Presence(memoryLiveBus());
    await presence.start(60_000);
  });
  afterAll(async () => {
    presence?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers two viewers asking at once with the queries of one run, and again after events arrive", async () => {
    const service = createInsightService({ meta: {} as MetaStore, reads: fairEventReads(store), presence });
    queries.length = 0;
    const first = await service.run(property, spec);
    const perRun = queries.length;
    expect(perRun).toBeGreaterThan(0);
    expect(total(first)).toBe(1);

    // A fresh service (empty cache): two callers at once cost one run's queries.
    const fresh = createInsightService({ meta: {} as MetaStore, reads: fairEventReads(store), presence });
    queries.length = 0;
    const [a, b] = await Promise.all([fresh.run(property, spec), fresh.run(property, { ...spec })]);
    expect(queries.length).toBe(perRun);
    expect(a).toEqual(b);

    // Asked again with nothing new stored: no query.
    await fresh.run(property, spec);
    expect(queries.length).toBe(perRun);

    // Another property's events leave this property's answers alone.
    await presence.signal({ kind: "leave", propertyId: "another-site", clientid: "c", pageKey: "/", ts: Date.now() });
    await new Promise((r) => setImmediate(r));
    await fresh.run(property, spec);
    expect(queries.length).toBe(perRun);

    // An event of this property is stored and announced: the next ask recomputes and sees it.
    await store.append([eventRow({ property: site, ts: new Date("2024-03-06T10:00:00Z"), name: "pageview", visitor_id: "v2" })]);
    await store.sync();
    await presence.signal([
      { kind: "leave", propertyId: site, clientid: "v2", pageKey: "/", ts: Date.now() },
      { kind: "leave", propertyId: site, clientid: "v2", pageKey: "/x", ts: Date.now() },
    ]);
    await new Promise((r) => setImmediate(r));
    const after = await fresh.run(property, spec);
    expect(queries.length).toBe(2 * perRun);
    expect(total(after)).toBe(2);
  });
});
