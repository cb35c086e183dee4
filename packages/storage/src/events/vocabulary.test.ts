// A property's vocabulary (readEventNames, readPropKeys) on every event engine: the names and prop
// keys of its own events only (another property's never leak in), all time, and empty sets for a
// property with no events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { at, event } from "./fixtures.js";
import { type TestStore, testEngines } from "./test-engines.js";
import { readEventNames, readPropKeys } from "./vocabulary.js";

const ENGINES = await testEngines();

describe.each(ENGINES)("the vocabulary on $name", (engine) => {
  let store: TestStore;
  beforeAll(async () => {
    if (engine.skip) return;
    store = await engine.open("vocabulary");
    await store.append([
      event({ property: "a.test", ts: at("2020-01-01 10:00:00"), name: "pageview", props: { plan: "pro" } }),
      event({ property: "a.test", ts: at("2024-05-09 10:00:00"), name: "signup", props: { plan: "pro", seats: "3" } }),
      event({ property: "a.test", ts: at("2024-05-09 10:00:01"), name: "engagement" }),
      event({ property: "b.test", ts: at("2024-05-09 10:00:00"), name: "purchase", props: { coupon: "x" } }),
    ]);
    await store.sync();
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });

  it.skipIf(engine.skip !== undefined)("reads a property's own event names and prop keys, all time", async () => {
    expect([...((await readEventNames(store, "a.test")) ?? [])].sort()).toEqual(["engagement", "pageview", "signup"]);
    expect([...((await readPropKeys(store, "a.test")) ?? [])].sort()).toEqual(["plan", "seats"]);
    expect([...((await readPropKeys(store, "b.test")) ?? [])]).toEqual(["coupon"]);
    expect((await readEventNames(store, "none.test"))?.size).toBe(0);
    expect((await readPropKeys(store, "none.test"))?.size).toBe(0);
  });
});
