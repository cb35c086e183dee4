// The spec vocabulary's cost (vocabulary.ts) on a real DuckDB event store, counting the store's
// queries: a spec of pageviews reads nothing, known names are read once and then served, the prop
// keys only for a spec that names a prop; an unknown name is looked up again only once the kept set
// is older than the recheck interval or events were stored since (the collector's signal), so a
// name sent a moment ago is accepted and a stream of bad specs costs one read per interval. The
// clock is a variable the test steps.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow, type InsightSpec, InsightSpecSchema } from "@lookout/schema";
import { type EventStore, memoryLiveBus, openDuckDbEventStore, type PropertyRow } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { Presence } from "../live/presence.js";
import { countQueries } from "../test-support.js";
import { createSpecVocabulary } from "./vocabulary.js";

describe("the spec vocabulary", () => {
  let dir: string;
  let store: EventStore;
  let queries: string[] = [];
  let presence: Presence;
  let clock = 0;
  const site = "vocab-site";
  const property = { unique_id: site, timezone: "UTC", created_at: new Date("2024-01-01T00:00:00Z") } as PropertyRow;
  const trends = (event: string, more: Record<string, unknown> = {}): InsightSpec =>
    InsightSpecSchema.parse({ kind: "trends", series: [{ event }], ...more });
  const append = async (name: string, props: Record<string, string> = {}) => {
    await store.append([eventRow({ property: site, ts: new Date("2024-03-05T10:00:00Z"), name, props, visitor_id: "v1" })]);
    await store.sync();
  };
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (err: unknown) => (err instanceof ZodError ? err.issues.map((i) => `${i.path.join(".")}: ${i.message}`) : err),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-vocabulary-"));
    const duck = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
    // Every store query counted: what the kept sets are there to save.
    ({ store, queries } = countQueries(duck));
    await append("signup", { plan: "pro" });
    presence = new Presence(memoryLiveBus());
    await presence.start(60_000);
  });
  afterAll(async () => {
    presence?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads each set once, the prop keys only when a prop is named, and re-reads on a miss only when due", async () => {
    const vocabulary = createSpecVocabulary(fairEventReads(store), presence, { recheckAfterMs: 10_000, now: () => clock });
    queries.length = 0;
    await vocabulary.check(property, trends("pageview"));
    expect(queries.length).toBe(0);
    await vocabulary.check(property, trends("signup"));
    await vocabulary.check(property, trends("signup"));
    expect(queries.length).toBe(1);
    await vocabulary.check(property, trends("signup", { breakdown: "prop:plan" }));
    await vocabulary.check(property, trends("signup", { breakdown: "prop:plan" }));
    expect(queries.length).toBe(2);

    // A stream of bad specs: refused, and no read while the kept set is young and nothing was stored.
    clock += 10_000;
    expect(await refusal(vocabulary.check(property, trends("login"), ["spec"]))).toEqual([
      'spec.series.0.event: no event "login" in this property',
    ]);
    expect(queries.length).toBe(3);
    for (let i = 0; i < 3; i++) await refusal(vocabulary.check(property, trends("login")));
    expect(queries.length).toBe(3);

    // The name arrives, unannounced: accepted once the kept set is due for a recheck.
    await append("login");
    expect(await refusal(vocabulary.check(property, trends("login")))).not.toBeNull();
    clock += 10_000;
    expect(await refusal(vocabulary.check(property, trends("login")))).toBeNull();
    expect(queries.length).toBe(4);

    // A prop arrives and the collector says so: accepted at once.
    await append("login", { seats: "3" });
    await presence.signal({ kind: "leave", propertyId: site, clientid: "v1", pageKey: "/", ts: Date.now() });
    await new Promise((r) => setImmediate(r));
    expect(await refusal(vocabulary.check(property, trends("login", { breakdown: "prop:seats" })))).toBeNull();
  });

  it("refuses nothing on a property with no events", async () => {
    const vocabulary = createSpecVocabulary(fairEventReads(store), presence);
    const fresh = { ...property, unique_id: "no-events-yet" } as PropertyRow;
    expect(await refusal(vocabulary.check(fresh, trends("signup", { breakdown: "prop:plan" })))).toBeNull();
  });
});
