// countBillableEvents on every engine (DuckDB, ClickHouse): exact on hand-built fixtures (period
// boundaries, engagement pings, leave beacons and identify calls not counted, other properties
// not counted) and equal to a plain reading of DESIGN.md §4 (isBillableEvent) on random traffic.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countBillableEvents, isBillableEvent } from "./billing.js";
import { at, event } from "./fixtures.js";
import { type TestStore, testEngines } from "./test-engines.js";

const DAY = 86_400_000;
const ENGINES = await testEngines();

describe.each(ENGINES)("countBillableEvents on $name", (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("billing");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });
  const run = it.skipIf(engine.skip !== undefined);

  run(`counts pageviews and custom events per period, nothing else${engine.skip ? ` (${engine.skip})` : ""}`, async () => {
    const p = "bill-fixed";
    const b = [at("2024-01-15 00:00:00"), at("2024-02-15 00:00:00"), at("2024-03-15 00:00:00")].map((d) => d.getTime());
    await store.append([
      event({ property: p, ts: at("2024-01-14 23:59:59"), name: "pageview" }), // before the first period
      event({ property: p, ts: at("2024-01-15 00:00:00"), name: "pageview" }), // first second of period 0
      event({ property: p, ts: at("2024-01-20 10:00:00"), name: "signup" }),
      event({ property: p, ts: at("2024-01-20 10:00:01"), name: "engagement", engaged_ms: 5000 }),
      event({ property: p, ts: at("2024-01-20 10:00:02"), name: "pageleave" }),
      event({ property: p, ts: at("2024-01-20 10:00:03"), name: "identify" }),
      event({ property: p, ts: at("2024-02-14 23:59:59"), name: "pageview" }), // last second of period 0
      event({ property: p, ts: at("2024-02-15 00:00:00"), name: "purchase" }), // period 1
      event({ property: p, ts: at("2024-03-15 00:00:00"), name: "pageview" }), // after the last period
      event({ property: "bill-other", ts: at("2024-01-20 10:00:00"), name: "pageview" }),
    ]);
    expect(await countBillableEvents(store, p, b)).toEqual([3, 1]);
    expect(await countBillableEvents(store, "bill-none", b)).toEqual([0, 0]);
  });

  let n = 0;
  run(`equals the model on random traffic${engine.skip ? ` (${engine.skip})` : ""}`, { timeout: 120_000 }, async () => {
    const T0 = Date.parse("2025-03-01T00:00:00Z");
    const name = fc.constantFrom("pageview", "pageview", "engagement", "pageleave", "identify", "signup", "Buy Now");
    const ev = fc.record({ sec: fc.integer({ min: 0, max: 100 * 86_400 }), name });
    const cuts = fc.uniqueArray(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.array(ev, { maxLength: 60 }), cuts, async (evs, days) => {
        const property = `bill-model-${++n}`;
        await store.append(evs.map((e) => event({ property, ts: new Date(T0 + e.sec * 1000), name: e.name })));
        const bounds = [...days].sort((a, c) => a - c).map((d) => T0 + d * DAY);
        const model = bounds
          .slice(1)
          .map(
            (to, i) =>
              evs.filter((e) => isBillableEvent(e.name) && T0 + e.sec * 1000 >= (bounds[i] as number) && T0 + e.sec * 1000 < to)
                .length,
          );
        expect(await countBillableEvents(store, property, bounds)).toEqual(model);
      }),
      { numRuns: 25 },
    );
  });
});
