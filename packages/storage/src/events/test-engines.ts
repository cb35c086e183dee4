// Test support: the event engines a suite runs on, each opening a fresh, empty, migrated store.
// DuckDB always (a file in a temporary directory); ClickHouse on the test run's server in a
// database per store, or skipped with the printed reason where it cannot be had (never under
// CI=true: requireClickHouse then throws). Suites that test what an engine cannot do skip exactly
// that test, named in the store's `cannot` record with its reason. With `{ cluster: true }` also
// ClickHouse on a two-shard cluster behind Distributed tables (test-services.ts), for the suites
// that must pass there too (conformance, exact-number stats). With `{ timelines: true }` also DuckDB
// and ClickHouse answering funnels and retention grids from their visitor timelines (timelines.ts),
// built for every property and awaited, for the funnel and retention suites (the others answer by
// SQL alone). With `{ settled: true }` also ClickHouse with half of its data
// settled (clickhouse-settle.ts): after every append the days up to the middle of what was
// appended are settled, so a read takes the first half from settled rows and the rest from
// merged states, and later appends into settled days unsettle them again; with `cluster` too, the
// cluster engine is half-settled the same way. No engine settles on its own timer (settleEveryMs: 0):
// a store living past the first step would otherwise settle every (past) day of its data at a
// moment the test does not choose, and CI's many stores would settle side by side.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SETTLE_MS } from "@lookout/query";
import { clickHouseTestDatabase, requireClickHouse, requireClickHouseCluster } from "../test-services.js";
import { dayNumber } from "./clickhouse-marks.js";
import { CLICKHOUSE_CANNOT, type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import type { EventStore } from "./event-store.js";

/** A store under test: DuckDB's extras are optional, so suites can call them where they exist. */
export type TestStore = EventStore & Partial<Pick<DuckDbEventStore, "buildDayRollups">>;

export interface TestEngine {
  name:
    | "duckdb"
    | "duckdb-timelines"
    | "clickhouse"
    | "clickhouse-timelines"
    | "clickhouse-settled"
    | "clickhouse-cluster"
    | "clickhouse-cluster-settled";
  /** Why this engine's tests are skipped (it cannot be started here), or undefined. */
  skip: string | undefined;
  /** What the engine cannot do, by name, with the reason. */
  cannot: Partial<Record<string, string>>;
  open(label: string): Promise<TestStore>;
  /** Removes what open() created (call after closing the stores). */
  cleanup(): void;
}

export async function testEngines(
  opts: { cluster?: boolean; timelines?: boolean; settled?: boolean } = {},
): Promise<TestEngine[]> {
  const dirs: string[] = [];
  const duck: TestEngine = {
    name: "duckdb",
    skip: undefined,
    cannot: {},
    open: async (label) => {
      const dir = mkdtempSync(join(tmpdir(), `lookout-${label}-`));
      dirs.push(dir);
      return openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0, timelines: false });
    },
    cleanup: () => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
  const withTimelines: TestEngine = {
    ...duck,
    name: "duckdb-timelines",
    open: async (label) => {
      const dir = mkdtempSync(join(tmpdir(), `lookout-${label}-`));
      dirs.push(dir);
      return openDuckDbEventStore(join(dir, "events.duckdb"), {
        rollupDelayMs: 0,
        timelines: { minEvents: 0, awaitBuild: true },
      });
    },
  };
  const ducks = opts.timelines ? [duck, withTimelines] : [duck];
  const ch = await requireClickHouse();
  const click: TestEngine = {
    name: "clickhouse",
    skip: "skip" in ch ? ch.skip : undefined,
    cannot: CLICKHOUSE_CANNOT,
    open: async (label) => {
      if (!("url" in ch)) throw new Error(ch.skip);
      return openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase(label)}`, { timelines: false, settleEveryMs: 0 });
    },
    // Each database lives as long as the test run's server (a temporary directory).
    cleanup: () => {},
  };
  const halfSettled: TestEngine = {
    ...click,
    name: "clickhouse-settled",
    open: async (label) => halfSettledStore(await click.open(`${label}_settled`)),
  };
  const clickTimelines: TestEngine = {
    ...click,
    name: "clickhouse-timelines",
    open: async (label) => {
      if (!("url" in ch)) throw new Error(ch.skip);
      return openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase(`${label}_tl`)}`, {
        timelines: { minEvents: 0, awaitBuild: true },
        settleEveryMs: 0,
      });
    },
  };
  const clicks = [click, ...(opts.timelines ? [clickTimelines] : []), ...(opts.settled ? [halfSettled] : [])];
  if (!opts.cluster) return [...ducks, ...clicks];
  const cluster = await requireClickHouseCluster();
  const sharded: TestEngine = {
    name: "clickhouse-cluster",
    skip: "skip" in cluster ? cluster.skip : undefined,
    cannot: CLICKHOUSE_CANNOT,
    open: async (label) => {
      if ("skip" in cluster) throw new Error(cluster.skip);
      return openClickHouseEventStore(`${cluster.url}/${clickHouseTestDatabase(label)}`, {
        cluster: { name: cluster.name, shards: cluster.shards },
        timelines: false,
        settleEveryMs: 0,
      });
    },
    cleanup: () => {},
  };
  // With `settled`, the cluster is half-settled too (its live half is the plain cluster's read).
  const shardedSettled: TestEngine = {
    ...sharded,
    name: "clickhouse-cluster-settled",
    open: async (label) => halfSettledStore(await sharded.open(label)),
  };
  return [...ducks, ...clicks, opts.settled ? shardedSettled : sharded];
}

/**
 * A ClickHouse store that, after each append, settles the days up to the middle of the UTC days
 * appended so far (settle() at the `now` that makes that day the last settleable one).
 */
function halfSettledStore(store: TestStore): TestStore {
  const ch = store as ClickHouseEventStore;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const append = async (batch: Parameters<EventStore["append"]>[0]) => {
    await ch.append(batch);
    for (const row of batch) {
      const d = dayNumber(row.ts.getTime());
      if (d < min) min = d;
      if (d > max) max = d;
    }
    if (min > max) return;
    const mid = Math.floor((min + max) / 2);
    await ch.settle(new Date((mid + 1) * 86_400_000 + SETTLE_MS));
  };
  return new Proxy(ch, {
    get(target, prop) {
      if (prop === "append") return append;
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
