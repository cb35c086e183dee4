// The incremental rollups (duckdb-rollup.ts) must equal a full rebuild from `events`, whatever the
// order events arrive in. Property-based: random visitors and visits over several properties, on a
// coarse time grid (so that starts and timestamps tie), shuffled into random batches (out-of-order
// and late events, a visit's events split across batches), appended with the rollup inside each
// append, and with batched rollups racing the appends. After each case: every row of the three
// rollup tables, all columns, must equal rebuildRollups() and the plain definition.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBConnection } from "@duckdb/node-api";
import type { EventRow } from "@lookout/schema";
import { generateEvents } from "@lookout/traffic";
import fc from "fast-check";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { DuckDbEventStore, DuckDbOptions } from "./duckdb-options.js";
import { referenceRollupSql } from "./duckdb-rollup.js";
import { MERGED_LOWS } from "./duckdb-rollup-merge.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { event } from "./fixtures.js";

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const T0 = Date.parse("2024-05-01T00:00:00Z");
const MIN = 60_000;

const visitArb = fc.record({
  start: fc.integer({ min: 0, max: 30 }).map((i) => i * 30 * MIN), // 15 hours on a 30-minute grid: starts tie
  country: fc.constantFrom("US", "DE", "FR"),
  source: fc.constantFrom("Google", "", "Twitter"),
  events: fc.array(
    fc.record({
      offset: fc.integer({ min: 0, max: 6 }).map((i) => i * MIN),
      name: fc.constantFrom("pageview", "pageview", "engagement", "pageleave", "signup", "purchase"),
      path: fc.constantFrom("/", "/a", "/b"),
      engaged: fc.integer({ min: 0, max: 30 }).map((s) => s * 1000),
      revenue: fc.integer({ min: 0, max: 3 }).map((r) => r * 10),
      country: fc.option(fc.constantFrom("US", "DE"), { nil: undefined }), // attributes may vary within a visit
    }),
    { minLength: 1, maxLength: 5 },
  ),
});

/** Properties -> visitors -> visits -> events. */
const trafficArb = fc.array(fc.array(fc.array(visitArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 3,
});

function toEvents(tag: string, traffic: ValueOf<typeof visitArb>[][][]): EventRow[] {
  const out: EventRow[] = [];
  for (const [pi, visitors] of traffic.entries()) {
    for (const [vi, visits] of visitors.entries()) {
      for (const [si, v] of visits.entries()) {
        for (const e of v.events) {
          out.push(
            event({
              property: `${tag}-p${pi}`,
              ts: new Date(T0 + v.start + e.offset),
              name: e.name,
              path: e.path,
              visitor_id: `v${vi}`,
              session_id: `v${vi}-s${si}`,
              country: e.country ?? v.country,
              referrer_source: v.source,
              engaged_ms: e.name === "engagement" ? e.engaged : 0,
              revenue: e.name === "purchase" ? e.revenue : 0,
              props: e.name === "signup" ? { plan: "pro" } : {},
            }),
          );
        }
      }
    }
  }
  return out;
}

/** A permutation and cut points: how the events arrive. */
const arrivalArb = fc.record({
  order: fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
  cuts: fc.array(fc.nat(100), { minLength: 1, maxLength: 5 }),
  syncs: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
});

function batches(events: EventRow[], a: ValueOf<typeof arrivalArb>): EventRow[][] {
  const keyed = events.map((e, i) => [a.order[i % a.order.length] ?? 0, i, e] as const);
  keyed.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const shuffled = keyed.map((k) => k[2]);
  const cuts = [...new Set(a.cuts.map((c) => Math.floor((c / 100) * shuffled.length)))].sort((x, y) => x - y);
  const out: EventRow[][] = [];
  let last = 0;
  for (const c of [...cuts, shuffled.length]) {
    if (c > last) out.push(shuffled.slice(last, c));
    last = Math.max(last, c);
  }
  return out;
}

const ORDER = {
  sessions: "property, skey",
  session_pages: "property, skey, path",
  session_events: "property, skey, name",
} as const;

async function snapshot(store: DuckDbEventStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(ORDER)) {
    // `rolled` says which step wrote a row: the same rows, written another way, differ there.
    out[table] = await store.query({ sql: `SELECT * EXCLUDE (rolled) FROM ${table} ORDER BY ${order}`, params: {} });
  }
  return out;
}

/** Counts the visits the rollup steps merged (duckdb-rollup-merge.ts) rather than recomputed. */
function countMerged(): { visits: () => number; restore: () => void } {
  let visits = 0;
  const original = DuckDBConnection.prototype.runAndReadAll;
  const spy = vi.spyOn(DuckDBConnection.prototype, "runAndReadAll").mockImplementation(async function (
    this: DuckDBConnection,
    ...args: Parameters<DuckDBConnection["runAndReadAll"]>
  ) {
    const result = await original.apply(this, args);
    if (args[0] === MERGED_LOWS) for (const r of result.getRows()) visits += Number(r[2]);
    return result;
  });
  return { visits: () => visits, restore: () => spy.mockRestore() };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
/** A fresh database path in a directory removed after the file's tests. */
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "lookout-rollup-"));
  dirs.push(dir);
  return join(dir, "events.duckdb");
}

async function openTemp(rollupDelayMs: number, rebuildChunkEvents = 60): Promise<DuckDbEventStore> {
  // Small rebuild chunks by default: rebuildRollups() splits visitors across several passes.
  return openDuckDbEventStore(tempPath(), { rollupDelayMs, rebuildChunkEvents });
}

/** A store at a fresh path holding generated traffic, and that path (to open it again). */
async function loadGenerated(
  opts: DuckDbOptions,
  traffic: Parameters<typeof generateEvents>[0],
): Promise<{ path: string; loader: DuckDbEventStore }> {
  const path = tempPath();
  const loader = await openDuckDbEventStore(path, opts);
  for (const batch of generateEvents(traffic)) await loader.append(batch);
  return { path, loader };
}

/**
 * Every store holds all the cases run so far; each case compares all of it, three ways: the
 * incremental rollups, rebuildRollups() (chunked, prev_* by self-join), and the plain definition
 * (prev_* by lag(), one statement).
 */
async function expectRebuildEqual(store: DuckDbEventStore): Promise<void> {
  const incremental = await snapshot(store);
  await store.rebuildRollups();
  const rebuilt = await snapshot(store);
  for (const sql of referenceRollupSql().split(";\n")) await store.query({ sql, params: {} });
  const reference = await snapshot(store);
  expect(incremental.sessions?.length).toBeGreaterThan(0);
  expect(incremental).toEqual(reference);
  expect(rebuilt).toEqual(reference);
}

describe("incremental rollups equal a full rebuild", { timeout: 120_000 }, () => {
  it("with the rollup inside each append", async () => {
    const store = await openTemp(0);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(trafficArb, arrivalArb, async (traffic, arrival) => {
          const events = toEvents(`inline${++run}`, traffic);
          for (const b of batches(events, arrival)) await store.append(b);
          await expectRebuildEqual(store);
        }),
        { numRuns: 9, endOnFailure: true },
      );
    } finally {
      await store.close();
    }
  });

  it("with batched rollups racing the appends, and sync()", async () => {
    const store = await openTemp(3);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(trafficArb, arrivalArb, async (traffic, arrival) => {
          const events = toEvents(`batched${++run}`, traffic);
          const pending: Promise<void>[] = [];
          batches(events, arrival).forEach((b, i) => {
            pending.push(store.append(b));
            if (arrival.syncs[i]) pending.push(store.sync());
          });
          await Promise.all(pending);
          await store.sync();
          await expectRebuildEqual(store);
        }),
        { numRuns: 9, endOnFailure: true },
      );
    } finally {
      await store.close();
    }
  });

  it("with visits growing in time order, most of them merged rather than recomputed", async () => {
    const store = await openTemp(0);
    const merged = countMerged();
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(trafficArb, arrivalArb, async (traffic, arrival) => {
          // Arrival in time order (ties in random order), cut into steps: visits grow step by step.
          const events = toEvents(`ordered${++run}`, traffic)
            .map((e, i) => [e, arrival.order[i % arrival.order.length] ?? 0] as const)
            .sort((a, b) => a[0].ts.getTime() - b[0].ts.getTime() || a[1] - b[1])
            .map(([e]) => e);
          for (const b of batches(events, { ...arrival, order: events.map((_, i) => i) })) await store.append(b);
          await expectRebuildEqual(store);
        }),
        { numRuns: 12, endOnFailure: true },
      );
      expect(merged.visits()).toBeGreaterThan(0);
    } finally {
      merged.restore();
      await store.close();
    }
  });

  it("with checkpoints racing the rollups (rows are replaced by key, never by a stale rowid)", async () => {
    const store = await openTemp(10, 20_000);
    try {
      const pending: Promise<void>[] = [];
      for (const batch of generateEvents({
        property: "race",
        days: 20,
        visitors: 20_000,
        seed: 7,
        batchSize: 1500,
        maxEvents: 60_000,
      })) {
        await store.append(batch);
        // A checkpoint may vacuum a rollup table between a rollup's read and its delete.
        pending.push(store.checkpoint().catch(() => undefined));
      }
      await Promise.all(pending);
      await store.sync();
      const [counts] = await store.query<{ rows: number; visits: number }>({
        sql: "SELECT count(*)::INTEGER AS rows, count(DISTINCT skey)::INTEGER AS visits FROM sessions",
        params: {},
      });
      expect(counts?.rows).toBe(counts?.visits);
      // Too many rows for a quick comparison in JS: compare in SQL.
      for (const t of Object.keys(ORDER))
        await store.query({ sql: `CREATE TABLE snap_${t} AS SELECT * EXCLUDE (rolled) FROM ${t}`, params: {} });
      await store.rebuildRollups();
      for (const t of Object.keys(ORDER)) {
        const [diff] = await store.query<{ missing: number; extra: number }>({
          sql:
            `SELECT (SELECT count(*) FROM (SELECT * EXCLUDE (rolled) FROM ${t} EXCEPT ALL SELECT * FROM snap_${t}))::INTEGER AS missing, ` +
            `(SELECT count(*) FROM (SELECT * FROM snap_${t} EXCEPT ALL SELECT * EXCLUDE (rolled) FROM ${t}))::INTEGER AS extra`,
          params: {},
        });
        expect([t, diff]).toEqual([t, { missing: 0, extra: 0 }]);
      }
    } finally {
      await store.close();
    }
  });

  it("rebuilds in many chunks within a small memory limit (memory does not grow with the chunk count)", async () => {
    const { path, loader } = await loadGenerated(
      { rollupDelayMs: 2_000_000_000 },
      { property: "big", days: 30, visitors: 10_000, seed: 3, batchSize: 50_000, maxEvents: 60_000 },
    );
    await loader.rebuildRollups();
    const before = await snapshot(loader);
    await loader.close();
    // 100 chunks at 100 MB: staged in one transaction, the replaced chunk tables piled up past it.
    const store = await openDuckDbEventStore(path, { memoryLimit: "100MB", rebuildChunkEvents: 600 });
    try {
      await store.rebuildRollups();
      expect(await snapshot(store)).toEqual(before);
    } finally {
      await store.close();
    }
  }, 240_000);

  it("catches up on batches an interrupted import left unrolled, a group of batches at a time", async () => {
    const { path, loader } = await loadGenerated(
      { rollupDelayMs: 0 },
      { property: "late", days: 10, visitors: 300, seed: 5, batchSize: 400, maxEvents: 4_000 },
    );
    const before = await snapshot(loader);
    // As if the process died before any rollup: no rollup rows, nothing marked rolled up.
    for (const sql of [
      "DELETE FROM sessions",
      "DELETE FROM session_pages",
      "DELETE FROM session_events",
      "UPDATE lookout_meta SET value = '0' WHERE key = 'rolled_batch'",
    ]) {
      await loader.query({ sql, params: {} });
    }
    await loader.close();
    const store = await openDuckDbEventStore(path, { rebuildChunkEvents: 1_000 });
    try {
      expect(await snapshot(store)).toEqual(before);
      const [meta] = await store.query<{ value: string }>({
        sql: "SELECT value FROM lookout_meta WHERE key = 'rolled_batch'",
        params: {},
      });
      const [max] = await store.query<{ b: string }>({ sql: "SELECT max(batch)::VARCHAR AS b FROM events", params: {} });
      expect(meta?.value).toBe(max?.b);
    } finally {
      await store.close();
    }
  });

  it("when a visit grows across steps, with pings for pages before their pageview and pages never viewed", async () => {
    const store = await openTemp(0);
    try {
      const at = (min: number, session: string, name: string, path: string, extra: Partial<EventRow> = {}) =>
        event({ property: "grow", ts: new Date(T0 + min * MIN), visitor_id: "v", session_id: session, name, path, ...extra });
      await store.append([at(10, "s1", "pageview", "/x", { revenue: 0 })]);
      await store.append([at(100, "s2", "pageview", "/x"), at(101, "s2", "engagement", "/a", { engaged_ms: 4000 })]);
      // A ping for /a before any pageview of /a, then that pageview in the next step.
      await store.append([at(102, "s2", "pageview", "/a"), at(103, "s2", "engagement", "/a", { engaged_ms: 3000 })]);
      await store.append([at(104, "s2", "signup", "/a", { revenue: 12.5 }), at(105, "s2", "pageview", "/y")]);
      await store.append([
        at(106, "s2", "signup", "/y", { revenue: 2 }),
        at(107, "s2", "engagement", "/y", { engaged_ms: 1000 }),
      ]);
      // Pings for a page never viewed in the visit make no page row.
      await store.append([at(108, "s2", "engagement", "/z", { engaged_ms: 500 })]);
      await expectRebuildEqual(store);
    } finally {
      await store.close();
    }
  });

  it("when a visitor's only visit grows across steps, with pings before their page's pageview", async () => {
    const store = await openTemp(0);
    const merged = countMerged();
    try {
      const at = (min: number, name: string, path: string, extra: Partial<EventRow> = {}) =>
        event({ property: "only", ts: new Date(T0 + min * MIN), visitor_id: "v", session_id: "s", name, path, ...extra });
      await store.append([at(100, "engagement", "/a", { engaged_ms: 4000 })]); // a visit that starts with a ping
      await store.append([at(101, "pageview", "/x"), at(102, "engagement", "/x", { engaged_ms: 1000 })]);
      await store.append([at(103, "pageview", "/a")]); // its ping at 100 now counts: recomputed
      await store.append([at(104, "signup", "/a", { revenue: 12.5 }), at(104, "engagement", "/a", { engaged_ms: 2000 })]);
      await store.append([at(105, "pageview", "/y"), at(106, "signup", "/y", { revenue: 2 })]);
      await store.append([at(106, "pageleave", "/y")]); // ties with the visit's last event: recomputed
      await expectRebuildEqual(store);
      expect(merged.visits()).toBe(3); // the first step's new visit, 104 and 105
    } finally {
      merged.restore();
      await store.close();
    }
  });

  it("when a late event moves a visit's start before the visitor's other visits", async () => {
    const store = await openTemp(0);
    try {
      const at = (min: number, session: string, path = "/", country = "US") =>
        event({ property: "late", ts: new Date(T0 + min * MIN), visitor_id: "v", session_id: session, path, country });
      await store.append([at(100, "s2", "/x"), at(200, "s3", "/x", "DE")]);
      await store.append([at(300, "s1", "/x")]);
      await store.append([at(50, "s1", "/y", "DE")]); // s1 now starts first, and in DE
      await store.append([at(200, "s4", "/x")]); // ties with s3's start
      await expectRebuildEqual(store);
      const s = await store.query<{ skey: bigint; start_ts: Date; prev_any: Date; prev_country: Date }>({
        sql: "SELECT start_ts, prev_any, prev_country FROM sessions WHERE property = 'late' ORDER BY start_ts, skey",
        params: {},
      });
      expect(s.map((r) => [r.start_ts, r.prev_any, r.prev_country].map((d) => (new Date(d).getTime() - T0) / MIN))).toEqual([
        [50, (Date.UTC(1970, 0, 1) - T0) / MIN, (Date.UTC(1970, 0, 1) - T0) / MIN],
        [100, 50, (Date.UTC(1970, 0, 1) - T0) / MIN],
        expect.any(Array),
        expect.any(Array),
      ]);
    } finally {
      await store.close();
    }
  });
});
