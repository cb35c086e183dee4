// What only the store-on-a-thread adds to the conformance suite (duckdb-store.test.ts runs that):
// the copy of the day-rollup marks follows the thread's, errors come back as errors and leave the
// store working, a store that cannot open says why, close() ends the thread, and funnels and their
// visitors come back from the thread's visitor timelines.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FunnelSpecSchema, type QuerySpecInput } from "@lookout/schema";
import { afterAll, describe, expect, it } from "vitest";
import { openDuckDbEventStoreOnThread } from "./duckdb-thread-store.js";
import { at, event } from "./fixtures.js";
import { runFunnel, runFunnelActors } from "./funnel.js";
import { runStats } from "./stats.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-thread-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe("DuckDB store on its own thread", () => {
  it("answers funnels and their visitors from its visitor timelines, as SQL does", async () => {
    const store = await openDuckDbEventStoreOnThread(join(tempDir(), "events.duckdb"), {
      rollupDelayMs: 0,
      timelines: { minEvents: 0 },
    });
    try {
      const p = "thread-timelines";
      const rows = ["a", "b", "c"].flatMap((v, i) =>
        ["/", "/pricing", "/docs"]
          .slice(0, 3 - i)
          .map((path, k) =>
            event({ property: p, ts: at(`2024-05-01 10:0${k}:00`), path, visitor_id: v, client_id: `c-${v}`, session_id: v }),
          ),
      );
      await store.append(rows);
      await store.sync();
      expect(await store.buildTimeline(p)).toBe(true);
      const spec = FunnelSpecSchema.parse({
        kind: "funnel",
        period: "custom",
        date: "2024-05-01,2024-05-01",
        steps: [
          { event: "pageview", filters: "page==/" },
          { event: "pageview", filters: "page~pricing" },
          { event: "pageview", filters: "page==/docs" },
        ],
      });
      const ctx = { timezone: "UTC", now: at("2024-05-10 00:00:00") };
      const answer = await store.funnelFromTimelines?.(p, spec, ctx);
      expect(answer?.results.steps.map((s) => s.visitors)).toEqual([3, 2, 1]);
      const bySql = { ...store, funnelFromTimelines: undefined, funnelActorsFromTimelines: undefined };
      expect(answer).toEqual(await runFunnel(bySql, p, spec, ctx));
      const at2 = { step: 3, status: "dropped" } as const;
      const page = { limit: 10, offset: 0 };
      const actors = await store.funnelActorsFromTimelines?.(p, spec, at2, page, ctx);
      expect(actors).toEqual({ client_ids: ["c-b"], has_more: false });
      expect(actors).toEqual(await runFunnelActors(bySql, p, spec, at2, page, ctx));
    } finally {
      await store.close();
    }
  });

  it("mirrors the day-rollup marks: registered when asked, moved when filled, gone with the property", async () => {
    const store = await openDuckDbEventStoreOnThread(join(tempDir(), "events.duckdb"), { rollupDelayMs: 0 });
    try {
      const p = "thread-marks";
      await store.append([event({ property: p, ts: at("2024-05-01 10:00:00"), visitor_id: "v1", session_id: "s1" })]);
      expect(store.dayRollupThrough?.(p, "UTC")).toBeUndefined();
      // Asking registered the pair there, so its filling starts by itself.
      await until(() => store.dayRollupThrough?.(p, "UTC") !== undefined);
      const through = store.dayRollupThrough?.(p, "UTC") as number;
      expect(through).toBeGreaterThanOrEqual(at("2024-05-02 00:00:00").getTime());
      const stats = await runStats(
        store,
        {
          kind: "aggregate",
          property: p,
          metrics: ["visitors"],
          date_range: { preset: "custom", from: "2024-04-01", to: "2024-05-31" },
        },
        { timezone: "UTC", now: at("2024-06-01 12:00:00") },
      );
      expect(stats).toMatchObject({ visitors: { value: 1 } });
      await store.deleteProperty(p);
      expect(store.dayRollupThrough?.(p, "UTC")).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it("deleteVisitor() drops the day rollups it made stale: the numbers drop by that visitor at once, and again once refilled", async () => {
    const store = await openDuckDbEventStoreOnThread(join(tempDir(), "events.duckdb"), { rollupDelayMs: 0 });
    try {
      const p = "thread-delete-visitor";
      const ev = (v: string, t: string, name = "pageview") =>
        event({ property: p, ts: at(t), visitor_id: v, client_id: v, session_id: `${v}-s`, name });
      await store.append([
        ev("gone", "2024-05-01 10:00:00"),
        ev("gone", "2024-05-01 10:01:00", "signup"),
        ev("stays", "2024-05-01 11:00:00"),
      ]);
      const spec: QuerySpecInput = {
        kind: "aggregate",
        property: p,
        metrics: ["visitors", "visits", "pageviews", "events"],
        date_range: { preset: "custom", from: "2024-04-01", to: "2024-05-31" },
      };
      const ctx = { timezone: "UTC", now: at("2024-06-01 12:00:00") };
      const values = async () => {
        const r = (await runStats(store, spec, ctx)) as Record<string, { value: number }>;
        return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.value]));
      };
      store.dayRollupThrough?.(p, "UTC");
      await until(() => store.dayRollupThrough?.(p, "UTC") !== undefined);
      expect(await values()).toEqual({ visitors: 2, visits: 2, pageviews: 2, events: 1 });
      expect(await store.deleteVisitor(p, "gone")).toBe(2);
      // The day rollups held the deleted visitor: their mark is gone, so queries read the visit rollups.
      expect(store.dayRollupThrough?.(p, "UTC")).toBeUndefined();
      expect(await values()).toEqual({ visitors: 1, visits: 1, pageviews: 1, events: 0 });
      await until(() => store.dayRollupThrough?.(p, "UTC") !== undefined);
      expect(store.dayRollupThrough?.(p, "UTC")).toBeGreaterThanOrEqual(at("2024-05-02 00:00:00").getTime());
      expect(await values()).toEqual({ visitors: 1, visits: 1, pageviews: 1, events: 0 });
    } finally {
      await store.close();
    }
  });

  it("rejects a failing call with the engine's error and keeps serving", async () => {
    const store = await openDuckDbEventStoreOnThread(join(tempDir(), "events.duckdb"), { rollupDelayMs: 0 });
    try {
      await expect(store.query({ sql: "SELECT * FROM no_such_table", params: {} })).rejects.toThrow(/no_such_table/);
      await expect(store.query<{ n: number }>({ sql: "SELECT 41 + 1 AS n", params: {} })).resolves.toEqual([{ n: 42 }]);
    } finally {
      await store.close();
    }
  });

  it("fails to open with the engine's reason, and close() ends the thread for good", async () => {
    const dir = tempDir();
    await expect(openDuckDbEventStoreOnThread(dir)).rejects.toThrow();
    const store = await openDuckDbEventStoreOnThread(join(dir, "events.duckdb"));
    await store.close();
    await store.close();
    await expect(store.sync()).rejects.toThrow(/exited/);
  });
});
