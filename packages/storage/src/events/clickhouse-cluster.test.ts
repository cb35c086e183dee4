// The EventStore conformance suite on a two-shard ClickHouse cluster (two clickhouse-servers on
// loopback ports, Distributed tables over each shard's local ones; test-services.ts), plus what a
// cluster adds: rows really spread over both shards, and an ingest record's rows kept on one.
import { afterAll, describe, expect, it } from "vitest";
import { clickHouseTestDatabase, requireClickHouseCluster, stopClickHouseCluster } from "../test-services.js";
import { type ClickHouseEventStore, openClickHouseEventStore } from "./clickhouse-store.js";
import { eventStoreConformance } from "./conformance.js";
import { event } from "./fixtures.js";

const cluster = await requireClickHouseCluster();
const T = new Date("2025-03-01T12:00:00.250Z");
const opened: ClickHouseEventStore[] = [];
const open = async (label: string, database = clickHouseTestDatabase(label)) => {
  if ("skip" in cluster) throw new Error(cluster.skip);
  const s = await openClickHouseEventStore(`${cluster.url}/${database}`, {
    cluster: { name: cluster.name, shards: cluster.shards },
    settleEveryMs: 0,
  });
  opened.push(s);
  return s;
};
afterAll(async () => {
  for (const s of opened) await s.close();
  await stopClickHouseCluster();
});

/** Rows of `table` on one shard's local table. */
async function onShard(shard: string, database: string, sql: string): Promise<number> {
  const r = await fetch(new URL(`/?database=${database}`, shard), { method: "POST", body: sql });
  if (!r.ok) throw new Error(await r.text());
  return Number((await r.text()).trim());
}

describe.skipIf("skip" in cluster)("ClickHouse, two shards", () => {
  eventStoreConformance("ClickHouse cluster", () => open("cluster_conformance"));

  it("spreads appended visits over both shards and reads them all back through any shard", async () => {
    if ("skip" in cluster) return;
    const database = clickHouseTestDatabase("cluster_spread");
    const s = await open("cluster_spread", database);
    const rows = Array.from({ length: 200 }, (_, i) =>
      event({ property: "spread.test", ts: T, session_id: `s${i % 40}`, visitor_id: `v${i % 40}`, client_id: `v${i % 40}` }),
    );
    await s.append(rows);
    const perShard = await Promise.all(
      cluster.shards.map((u) => onShard(u, database, "SELECT count() FROM events_local WHERE property = 'spread.test'")),
    );
    expect(perShard.every((n) => n > 0)).toBe(true);
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(200);
    for (const u of cluster.shards)
      expect(await onShard(u, database, "SELECT count() FROM events WHERE property = 'spread.test'")).toBe(200);
  });

  it("keeps each ingest record's rows on one shard, and appends a record once", async () => {
    if ("skip" in cluster) return;
    const database = clickHouseTestDatabase("cluster_once");
    const s = await open("cluster_once", database);
    const records = Array.from({ length: 8 }, (_, r) => ({
      id: `node:0:${r}`,
      rows: Array.from({ length: 25 }, (_, i) => event({ property: "once.test", ts: T, session_id: `r${r}s${i}` })),
    }));
    await s.appendOnce(records);
    await s.appendOnce(records); // a replay after a crash
    for (const u of cluster.shards) {
      const split = await onShard(
        u,
        database,
        "SELECT count() FROM (SELECT ingest_batch FROM events_local WHERE property = 'once.test' GROUP BY ingest_batch HAVING count() != 25)",
      );
      expect(split).toBe(0);
    }
    expect(await onShard(cluster.url, database, "SELECT count() FROM events WHERE property = 'once.test'")).toBe(200);
  });
});
