// Test support: the event engines a suite runs on, each opening a fresh, empty, migrated store.
// DuckDB always (a file in a temporary directory); ClickHouse on the test run's server in a
// database per store, or skipped with the printed reason where it cannot be had (never under
// CI=true: requireClickHouse then throws). Suites that test what an engine cannot do skip exactly
// that test, named in the store's `cannot` record with its reason. With `{ cluster: true }` also
// ClickHouse on a two-shard cluster behind Distributed tables (test-services.ts), for the suites
// that must pass there too (conformance, exact-number stats). With `{ timelines: true }` also DuckDB
// answering funnels from its visitor timelines (duckdb-timelines.ts), built for every property and
// awaited, for the funnel suites.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clickHouseTestDatabase, requireClickHouse, requireClickHouseCluster } from "../test-services.js";
import { CLICKHOUSE_CANNOT, openClickHouseEventStore } from "./clickhouse-store.js";
import type { DuckDbEventStore } from "./duckdb-options.js";
import { openDuckDbEventStore } from "./duckdb-store.js";
import type { EventStore } from "./event-store.js";

/** A store under test: DuckDB's extras are optional, so suites can call them where they exist. */
export type TestStore = EventStore & Partial<Pick<DuckDbEventStore, "buildDayRollups">>;

export interface TestEngine {
  name: "duckdb" | "duckdb-timelines" | "clickhouse" | "clickhouse-cluster";
  /** Why this engine's tests are skipped (it cannot be started here), or undefined. */
  skip: string | undefined;
  /** What the engine cannot do, by name, with the reason. */
  cannot: Partial<Record<string, string>>;
  open(label: string): Promise<TestStore>;
  /** Removes what open() created (call after closing the stores). */
  cleanup(): void;
}

export async function testEngines(opts: { cluster?: boolean; timelines?: boolean } = {}): Promise<TestEngine[]> {
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
      return openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase(label)}`);
    },
    // Each database lives as long as the test run's server (a temporary directory).
    cleanup: () => {},
  };
  if (!opts.cluster) return [...ducks, click];
  const cluster = await requireClickHouseCluster();
  const sharded: TestEngine = {
    name: "clickhouse-cluster",
    skip: "skip" in cluster ? cluster.skip : undefined,
    cannot: CLICKHOUSE_CANNOT,
    open: async (label) => {
      if ("skip" in cluster) throw new Error(cluster.skip);
      return openClickHouseEventStore(`${cluster.url}/${clickHouseTestDatabase(label)}`, {
        cluster: { name: cluster.name, shards: cluster.shards },
      });
    },
    cleanup: () => {},
  };
  return [...ducks, click, sharded];
}
