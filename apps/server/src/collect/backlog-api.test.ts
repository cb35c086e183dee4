// The collector's answers while ClickHouse is unreachable (issue #22 item 3), over HTTP: the server
// keeps acknowledging events (durable in its ingest log) up to LOOKOUT_INGEST_BACKLOG_ROWS, then
// answers 503 `backlog_full` with Retry-After on both collector routes, and once ClickHouse is back
// it delivers every acknowledged event exactly once and takes events again.
//
// ClickHouse is reached through a TCP relay this test owns, so "down" cuts only this app's
// connections: the shared test server keeps serving the other test files.
import { connect, createServer, type Server, type Socket } from "node:net";
import { clickHouseTestDatabase, requireClickHouse } from "@lookout/storage/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const ch = await requireClickHouse();
const skip = "skip" in ch ? ch.skip : undefined;

/** A loopback relay to ClickHouse that can be cut (every connection dropped, new ones refused). */
async function relay(target: URL): Promise<{ port: number; down(): void; up(): void; close(): Promise<void> }> {
  let cut = false;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    down() {
      cut = true;
      for (const s of open) s.destroy();
      open.clear();
    },
    up() {
      cut = false;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}

describe.skipIf(skip !== undefined)(`the collector while ClickHouse is away${skip ? ` (${skip})` : ""}`, () => {
  let t: TestApp;
  let link: Awaited<ReturnType<typeof relay>>;
  let site: string;

  beforeAll(async () => {
    const base = new URL((ch as { url: string }).url);
    link = await relay(base);
    const url = new URL(base);
    url.hostname = "127.0.0.1";
    url.port = String(link.port);
    url.pathname = `/${clickHouseTestDatabase("backlog")}`;
    t = await createTestApp("pglite", {
      env: {
        CLICKHOUSE_URL: url.toString().replace(/\/$/, ""),
        LOOKOUT_INGEST_BACKLOG_ROWS: "1000",
        LOOKOUT_RATE_PER_IP: "10000",
      },
      ingestLog: true,
    });
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
  });
  afterAll(async () => {
    link?.up();
    await t?.close();
    await link?.close();
  });

  const post = (url: string, body: unknown) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json", "user-agent": CHROME },
      payload: JSON.stringify(body),
    });
  const pv = (path: string, client: string) => ({
    property: site,
    name: "pageview",
    url: `https://shop.test${path}`,
    client_id: client,
  });
  const batch = (from: number, n: number) => ({
    events: Array.from({ length: n }, (_, i) => pv(`/p${from + i}`, `backlog-client-${(from + i) % 40}`)),
  });

  it("acknowledges up to the backlog bound, answers 503 with Retry-After past it, then delivers each event once", async () => {
    link.down();
    // 1 000 rows fit the bound: both batches are acknowledged (durable in the log, not yet delivered).
    for (const from of [0, 500]) {
      const r = await post("/api/batch", batch(from, 500));
      expect(r.statusCode, r.body).toBe(202);
      expect(r.json().accepted).toBe(500);
    }
    // Past the bound: both collector routes refuse with 503 and a Retry-After, nothing half-taken.
    const refusedBatch = await post("/api/batch", batch(1000, 2));
    expect(refusedBatch.statusCode).toBe(503);
    expect(refusedBatch.json()).toMatchObject({ code: "backlog_full", message: expect.any(String) });
    expect(Number(refusedBatch.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const refusedOne = await post("/api/event", pv("/single", "backlog-single"));
    expect(refusedOne.statusCode).toBe(503);
    expect(refusedOne.json().code).toBe("backlog_full");
    expect(Number(refusedOne.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // The server is otherwise up.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBeLessThan(500);

    link.up();
    // Delivery retries with backoff (at most 5 s apart): wait for the backlog to empty.
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await t.events.sync();
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const stored = await t.events.events(site, { limit: 10_000 });
    const paths = stored.map((e) => e.path);
    expect(paths).toHaveLength(1000);
    expect(new Set(paths).size).toBe(1000);
    expect(paths).not.toContain("/p1000");
    expect(paths).not.toContain("/single");

    // Taking events again.
    const again = await post("/api/event", pv("/after", "backlog-single"));
    expect(again.statusCode).toBe(202);
  }, 120_000);
});
