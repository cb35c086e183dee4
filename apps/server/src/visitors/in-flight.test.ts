// A visitor's page asks for the profile and the history at once: the reads both make first (the
// person's profile, ids and where their events lie) run once, not twice (reading.ts InFlight), the
// answers are the ones each call gives alone, and nothing is kept once the reads are done.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow } from "@lookout/schema";
import { type EventStore, openDuckDbEventStore } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { countQueries } from "../test-support.js";
import { createVisitorService } from "./service.js";

const P = "inflight.example";
const SITE = { unique_id: P, timezone: "UTC", account_id: "acct" };
const NOW = Date.UTC(2024, 5, 1);

describe("a visitor's page read at once", () => {
  let dir: string;
  let store: EventStore;
  let statements: string[] = [];
  let counting: EventStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-inflight-"));
    store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
    const rows = Array.from({ length: 40 }, (_, i) =>
      eventRow({
        property: P,
        ts: new Date(NOW - 86_400_000 * (i % 10) - i * 1000),
        name: i % 4 === 3 ? "signup" : "pageview",
        path: `/p${i % 3}`,
        url: `https://inflight.example/p${i % 3}`,
        visitor_id: i % 2 === 0 ? "alice-laptop" : "alice-phone",
        client_id: i % 2 === 0 ? "alice-laptop" : "alice-phone",
        session_id: `s${i % 10}-${i % 2}`,
      }),
    );
    await store.append(rows.sort((a, b) => a.ts.getTime() - b.ts.getTime()));
    const at = new Date(NOW - 86_400_000 * 20);
    await store.upsertVisitors(
      ["alice-laptop", "alice-phone"].map((client_id) => ({
        property: P,
        client_id,
        email: "alice@example.com",
        name: "Alice",
        traits: {},
        first_seen: at,
        last_seen: at,
      })),
    );
    await store.sync();
    ({ store: counting, queries: statements } = countQueries(store));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = () =>
    createVisitorService({
      reads: fairEventReads(counting),
      events: counting,
      meta: { audit: { record: async () => undefined } } as never,
      presence: { list: () => [] },
      now: () => NOW,
    });

  it("resolves the person once for both, with the answers each gives alone", async () => {
    const alone = service();
    // Warm: the store looks a property's key up once, on its first read.
    await alone.detail(SITE, "alice-phone");
    statements.length = 0;
    const detail = await alone.detail(SITE, "alice-laptop");
    const history = await alone.history(SITE, "alice-laptop", { limit: 5 });
    const apart = statements.length;
    expect(detail.also_seen_as.map((c) => c.client_id)).toEqual(["alice-phone"]);
    expect(history.results.length).toBe(5);

    const together = service();
    statements.length = 0;
    const both = await Promise.all([together.detail(SITE, "alice-laptop"), together.history(SITE, "alice-laptop", { limit: 5 })]);
    expect(both).toEqual([detail, history]);
    // At least the person (profiles and ids, one read) and where their events lie (one read) are
    // read once instead of twice, and no statement runs twice with the same parameters.
    expect(statements.length).toBeLessThanOrEqual(apart - 2);
    expect(new Set(statements).size).toBe(statements.length);

    // Nothing is kept: the next call reads again.
    statements.length = 0;
    await together.history(SITE, "alice-laptop", { limit: 5 });
    expect(statements.length).toBeGreaterThan(3);
  });
});
