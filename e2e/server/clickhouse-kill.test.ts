// kill -9 a scale-out server mid-delivery (issue #22 item 3): a real server process on ClickHouse
// takes a stream of events, is SIGKILLed while its ingest log is being delivered in batches, and
// is restarted on the same data directory. Every acknowledged (202) event must then be in
// ClickHouse exactly once: the log made it durable before the 202, and each batch's id stops a
// replay from doubling what had arrived. (Stopping ClickHouse itself mid-stream is storage's
// clickhouse-ingest.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireClickHouse } from "@lookout/storage/test-services";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, runCli, startServer } from "../harness";
import { CHROME, clickHouseDatabaseUrl, clickHouseRows, eventually } from "./scale-support";

const clickhouse = await requireClickHouse();

/** Sends events from `workers` loops until stopped; keeps the client ids of the acknowledged ones. */
function load(server: RunningServer, property: string, workers: number) {
  const acked: string[] = [];
  let stopped = false;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const id = `kill-${(n++).toString().padStart(8, "0")}`;
      try {
        const r = await fetch(`${server.url}/api/event`, {
          method: "POST",
          headers: { "content-type": "text/plain", "user-agent": CHROME },
          body: JSON.stringify({ p: property, n: "pageview", u: "https://kill.test/", c: id }),
        });
        await r.arrayBuffer();
        if (r.status === 202) acked.push(id);
        else if (r.status !== 503) throw new Error(`unexpected ${r.status}`);
      } catch (err) {
        if ((err as Error).message.startsWith("unexpected")) throw err;
        return; // the server went away
      }
    }
  });
  return {
    acked,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

describe.skipIf("skip" in clickhouse)("kill -9 of a server on ClickHouse", { timeout: 240_000 }, () => {
  const chServer = "url" in clickhouse ? clickhouse.url : "";
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("loses and doubles no acknowledged event, delivering the rest after a restart on the same data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lookout-ch-kill-"));
    dirs.push(dataDir);
    runCli(dataDir, ["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"]);
    const property = runCli(dataDir, ["property:create", "--email", "owner@example.com", "--url", "https://kill.test"]);
    const ch = clickHouseDatabaseUrl(chServer, "kill");
    const env = { CLICKHOUSE_URL: ch.url, LOOKOUT_RATE_PER_IP: "1000000" };
    const count = async () =>
      Number(
        (
          await clickHouseRows<{ n: string }>(
            chServer,
            ch.database,
            `SELECT count() AS n FROM events WHERE property = '${property}'`,
          )
        )[0]?.n,
      );

    const server = await startServer({ dataDir, env });
    const traffic = load(server, property, 16);
    // Killed while batches are on their way: some rows have arrived, and events keep coming.
    await eventually("the first delivered batches", async () => (await count()) > 0 && traffic.acked.length >= 300, 90_000);
    server.proc.kill("SIGKILL");
    await traffic.stop();
    await server.stop({ keepData: true });
    const acked = [...traffic.acked];
    const before = await count();
    process.stdout.write(`clickhouse kill -9: ${acked.length} acknowledged, ${before} in ClickHouse at the kill\n`);
    expect(acked.length).toBeGreaterThan(200);

    // The restarted server replays its ingest log: whatever was missing arrives, nothing twice.
    const again = await startServer({ dataDir, env });
    try {
      const ids = new Set(acked);
      let stored: { client_id: string; n: string }[] = [];
      await eventually("every acknowledged event in ClickHouse", async () => {
        stored = await clickHouseRows(
          chServer,
          ch.database,
          `SELECT client_id, count() AS n FROM events WHERE property = '${property}' GROUP BY client_id`,
        );
        const have = new Set(stored.map((r) => r.client_id));
        return acked.every((id) => have.has(id));
      });
      // A little longer: a replay that doubled rows would show now.
      await new Promise((r) => setTimeout(r, 2000));
      stored = await clickHouseRows(
        chServer,
        ch.database,
        `SELECT client_id, count() AS n FROM events WHERE property = '${property}' GROUP BY client_id`,
      );
      expect(stored.filter((r) => Number(r.n) !== 1)).toEqual([]);
      const have = new Set(stored.map((r) => r.client_id));
      expect(acked.filter((id) => !have.has(id))).toEqual([]);
      // Only events of this stream (acknowledged, or in flight at the kill) are there.
      expect(stored.every((r) => r.client_id.startsWith("kill-"))).toBe(true);
      expect(stored.length).toBeGreaterThanOrEqual(ids.size);
    } finally {
      await again.stop();
    }
  });
});
