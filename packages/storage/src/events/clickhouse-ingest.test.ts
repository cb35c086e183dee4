// Durable ingest into ClickHouse (clickhouse-ingest.ts): the conformance suite through the local
// ingest log; ClickHouse stopped mid-stream and restarted (every acknowledged event arrives once,
// the backlog bound refuses with IngestBacklogError); a crash between delivery and the log's
// cleanup, replayed on the next open without doubling anything.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClickHouseServer, clickHouseTestDatabase, requireClickHouse, startClickHouse } from "../test-services.js";
import { ingestBacklog, openClickHouseIngestStore } from "./clickhouse-ingest.js";
import type { ClickHouseEventStore } from "./clickhouse-store.js";
import { eventStoreConformance } from "./conformance.js";
import { IngestBacklogError } from "./event-store.js";
import { at, event } from "./fixtures.js";

const ch = await requireClickHouse();
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "lookout-chlog-"));
  dirs.push(d);
  return d;
};
const servers: ClickHouseServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const batch = (property: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    event({
      property,
      ts: new Date(at("2024-05-09 10:00:00").getTime() + (from + i) * 1000 + 7),
      path: `/e${from + i}`,
      visitor_id: `v${from + i}`,
      session_id: `s${from + i}`,
    }),
  );
const paths = async (s: ClickHouseEventStore, p: string) => (await s.events(p, { limit: 10_000 })).map((r) => r.path).sort();
const expected = (n: number) => Array.from({ length: n }, (_, i) => `/e${i}`).sort();

describe.skipIf(!("url" in ch))(`ClickHouse through the ingest log${"skip" in ch ? ` (${ch.skip})` : ""}`, () => {
  eventStoreConformance("ClickHouse through the ingest log", async () => {
    if (!("url" in ch)) throw new Error("unreachable");
    return openClickHouseIngestStore(`${ch.url}/${clickHouseTestDatabase("ingest")}`, { logDir: tempDir(), flushMs: 10 });
  });

  it("keeps acknowledging while ClickHouse is down, up to the bound, and delivers everything once it is back", async () => {
    let server = await startClickHouse();
    servers.push(server);
    const store = await openClickHouseIngestStore(`${server.url}/outage`, {
      logDir: tempDir(),
      flushMs: 10,
      maxBacklogRows: 120,
    });
    const P = "outage.example";
    await store.append(batch(P, 0, 40));
    await store.sync();
    await server.stop({ keep: true });
    // Down: appends still resolve (durable in the log) until the backlog bound.
    for (let i = 0; i < 3; i++) await store.append(batch(P, 40 + i * 20, 20));
    await expect(store.sync()).rejects.toThrow();
    expect(ingestBacklog(store)).toBe(60);
    await store.append(batch(P, 100, 60));
    const refused = store.append(batch(P, 160, 1));
    await expect(refused).rejects.toBeInstanceOf(IngestBacklogError);
    // Back: the retries deliver it all, each event once.
    server = await startClickHouse(server);
    servers.push(server);
    const deadline = Date.now() + 20_000;
    while (ingestBacklog(store) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await store.sync();
    expect(await paths(store, P)).toEqual(expected(160));
    const count = await store.query<{ n: number }>({ sql: "SELECT count() AS n FROM events", params: {} });
    expect(count[0]?.n).toBe(160);
    await store.close();
  }, 90_000);

  it("replays the log after a crash without doubling what had already arrived", async () => {
    if (!("url" in ch)) return;
    const url = `${ch.url}/${clickHouseTestDatabase("replay")}`;
    const logDir = tempDir();
    const P = "replay.example";
    // A delivers the first 30 (they stay in its current log file: only earlier files are deleted).
    const a = await openClickHouseIngestStore(url, { logDir, flushMs: 10 });
    await a.append(batch(P, 0, 30));
    await a.sync();
    const slow = await openClickHouseIngestStore(url, { logDir: tempDir(), flushMs: 60_000 });
    expect(await paths(slow, P)).toEqual(expected(30));
    // The crash: the next records are acknowledged into the log only (B0 never delivers them).
    const b0 = await openClickHouseIngestStore(url, { logDir, flushMs: 60_000 });
    await b0.append(batch(P, 30, 20));
    // B: opens the same log, replays every record in it: the first 30 are skipped, 20 delivered.
    const b = await openClickHouseIngestStore(url, { logDir, flushMs: 10 });
    await b.sync();
    expect(await paths(b, P)).toEqual(expected(50));
    // Delivering the same records again changes nothing either.
    await b.appendOnce([{ id: "x:1:1", rows: batch(P, 100, 2) }]);
    await b.appendOnce([{ id: "x:1:1", rows: batch(P, 100, 2) }]);
    expect(await paths(b, P)).toHaveLength(52);
    for (const s of [a, slow, b0, b]) await s.close();
    expect(
      await (async () => {
        const c = await openClickHouseIngestStore(url, { logDir: tempDir() });
        const r = await paths(c, P);
        await c.close();
        return r.length;
      })(),
    ).toBe(52);
  }, 60_000);
});
