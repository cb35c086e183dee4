// The collector's promise (DESIGN.md §8): a 202 means the event is durable. Load the real server,
// kill -9 it mid-stream, and find every acknowledged event in the store; SIGTERM drains cleanly.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDuckDbEventStore } from "@lookout/storage";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, runCli, startServer } from "../harness";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

function prepare(): { dataDir: string; property: string } {
  const dataDir = mkdtempSync(join(tmpdir(), "lookout-durability-"));
  runCli(dataDir, ["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"]);
  const property = runCli(dataDir, ["property:create", "--email", "owner@example.com", "--url", "https://load.test"]);
  return { dataDir, property };
}

/** Sends events from `workers` concurrent loops until stopped, collecting the acknowledged client ids. */
function load(server: RunningServer, property: string, workers: number) {
  const acked: string[] = [];
  let stopped = false;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const id = `ack-${(n++).toString().padStart(8, "0")}`;
      try {
        const r = await fetch(`${server.url}/api/event`, {
          method: "POST",
          headers: { "content-type": "text/plain", "user-agent": CHROME },
          body: JSON.stringify({ p: property, n: "pageview", u: "https://load.test/", c: id }),
        });
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
    /** Resolves once `count` events are acknowledged, however loaded the machine is (capped). */
    reached: async (count: number) => {
      const deadline = Date.now() + 60_000;
      while (acked.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    },
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

async function storedIds(dataDir: string, property: string): Promise<Set<string>> {
  const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"), { readers: 1 });
  try {
    const rows = await store.query<{ client_id: string }>({
      sql: "SELECT client_id FROM events WHERE property = $p",
      params: { p: property },
    });
    return new Set(rows.map((r) => r.client_id));
  } finally {
    await store.close();
  }
}

// Servers are started, killed and restarted on purpose: tens of seconds on a loaded machine.
describe("collector durability", { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("loses no acknowledged event to kill -9, and restarts on the same data", async () => {
    const { dataDir, property } = prepare();
    dirs.push(dataDir);
    const server = await startServer({ dataDir, env: { LOOKOUT_RATE_PER_IP: "1000000" } });
    const traffic = load(server, property, 16);
    await traffic.reached(300);
    server.proc.kill("SIGKILL");
    await traffic.stop();
    await server.stop({ keepData: true });
    expect(traffic.acked.length).toBeGreaterThan(200);
    const stored = await storedIds(dataDir, property);
    const lost = traffic.acked.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);

    // The killed process left its lock behind; a new server takes over and counts the events.
    const again = await startServer({ dataDir });
    try {
      const r = await fetch(`${again.url}/api/event`, {
        method: "POST",
        headers: { "content-type": "text/plain", "user-agent": CHROME },
        body: JSON.stringify({ p: property, n: "pageview", u: "https://load.test/after", c: "after-restart" }),
      });
      expect(r.status).toBe(202);
    } finally {
      await again.stop({ keepData: true });
    }
  });

  it("drains on SIGTERM: every acknowledged event is stored and the process exits 0", async () => {
    const { dataDir, property } = prepare();
    dirs.push(dataDir);
    const server = await startServer({ dataDir, env: { LOOKOUT_RATE_PER_IP: "1000000" } });
    const traffic = load(server, property, 8);
    await traffic.reached(150);
    const exited = new Promise<number | null>((r) => server.proc.once("exit", (code) => r(code)));
    server.proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    await traffic.stop();
    await server.stop({ keepData: true });
    const stored = await storedIds(dataDir, property);
    expect(traffic.acked.filter((id) => !stored.has(id))).toEqual([]);
    expect(traffic.acked.length).toBeGreaterThan(100);
  });
});
