// Events the collector drops are never billed (issue #24 §2, DESIGN.md §4): a mix sent through the
// real collector (POST /api/event and /api/batch, behind a trusted proxy so that the client
// address is the one each request names) — bots, an excluded IP, an excluded path, a foreign
// hostname, an unknown property, next to pageviews, custom events and engagement pings — and the
// billing call's count is exactly the stored billable events, which is exactly what was accepted
// minus the pings. Counting from the store could only be wrong here if a dropped event were
// stored: this holds the collector and the count to each other.
import { isBillableEvent } from "@lookout/query";
import type { BillingAnswer } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROPPED_HEADER } from "../collect/routes.js";
import { createTestApp, type TestApp } from "../test-support.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GOOGLEBOT = "Googlebot/2.1 (+http://www.google.com/bot.html)";
const HEADLESS = "Mozilla/5.0 HeadlessChrome/124.0.0.0";
const BLOCKED_IP = "81.2.69.142";

describe("dropped events are never billed", () => {
  let t: TestApp;
  let token: string;
  let acc: string;
  let site: string;
  let ipN = 0;
  // A new documentation-range address per request: no per-IP rate limit is reached.
  const nextIp = () => `198.51.100.${(ipN++ % 250) + 1}`;

  beforeAll(async () => {
    t = await createTestApp("pglite", { env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1" } });
    const owner = await t.user("owner@example.com");
    acc = owner.accountId;
    token = (await t.login(owner.email, owner.password)).token;
    site = await t.property(acc, "https://shop.test", {
      name: "Shop",
      settings: { allowed_hostnames: ["shop.test"], excluded_ips: [BLOCKED_IP], excluded_paths: ["/admin/**"] },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** One event through POST /api/event; what the collector did with it (undefined: stored). */
  async function one(body: Record<string, unknown>, ua = CHROME, ip = nextIp()): Promise<string | undefined> {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": ua, "x-forwarded-for": ip },
      payload: JSON.stringify(body),
    });
    expect(r.statusCode, r.body).toBe(202);
    return r.headers[DROPPED_HEADER] as string | undefined;
  }
  async function batch(events: Record<string, unknown>[], ua = CHROME): Promise<string[]> {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/batch",
      headers: { "content-type": "application/json", "user-agent": ua, "x-forwarded-for": nextIp() },
      payload: JSON.stringify({ events }),
    });
    expect(r.statusCode, r.body).toBe(202);
    return r.json().results.map((x: { status: string; reason?: string }) => x.reason ?? x.status);
  }
  const ev = (name: string, path: string, i: number, host = "shop.test") => ({
    property: site,
    name,
    url: `https://${host}${path}`,
    client_id: `client-${i}`,
  });

  it("counts exactly the stored pageviews and custom events, none of the dropped", async () => {
    const outcomes: (string | undefined)[] = [];
    // Billable and stored: 12 pageviews, 5 custom events.
    for (let i = 0; i < 12; i++) outcomes.push(await one(ev("pageview", `/p${i}`, i)));
    for (let i = 0; i < 5; i++) outcomes.push(await one(ev("signup", "/signup", i)));
    // Stored, never billable: engagement pings.
    for (let i = 0; i < 6; i++) outcomes.push(await one({ ...ev("engagement", `/p${i}`, i), engagement_time: 3000 }));
    expect(outcomes.every((o) => o === undefined)).toBe(true);

    // Dropped, one way or another: each says why.
    const dropped: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) dropped.push(await one(ev("pageview", "/", 100 + i), GOOGLEBOT));
    for (let i = 0; i < 3; i++) dropped.push(await one(ev("signup", "/signup", 110 + i), HEADLESS));
    for (let i = 0; i < 4; i++) dropped.push(await one(ev("pageview", "/", 120 + i), CHROME, BLOCKED_IP));
    for (let i = 0; i < 3; i++) dropped.push(await one(ev("pageview", "/admin/users", 130 + i)));
    for (let i = 0; i < 2; i++) dropped.push(await one(ev("pageview", "/", 140 + i, "copy.example")));
    expect(dropped).toEqual([
      ...Array(7).fill("bot"),
      ...Array(4).fill("excluded_ip"),
      ...Array(3).fill("excluded_path"),
      ...Array(2).fill("hostname_not_allowed"),
    ]);
    expect(await one({ ...ev("pageview", "/", 150), property: "no-such-property" })).toBe("unknown_property");

    // The batch endpoint: 3 accepted, 2 dropped by path; then a whole batch from a bot.
    expect(
      await batch([
        ev("pageview", "/b1", 200),
        ev("pageview", "/admin/b", 201),
        ev("purchase", "/checkout", 202),
        ev("signup", "/admin/signup", 203),
        ev("pageview", "/b2", 204),
      ]),
    ).toEqual(["accepted", "excluded_path", "accepted", "excluded_path", "accepted"]);
    expect(await batch([ev("pageview", "/", 210), ev("signup", "/", 211)], GOOGLEBOT)).toEqual(["bot", "bot"]);

    // What the store holds: the 26 accepted (20 billable and 6 pings), nothing dropped.
    const stored = await t.events.events(site);
    expect(stored).toHaveLength(12 + 5 + 6 + 3);
    expect(stored.some((e) => e.path.startsWith("/admin"))).toBe(false);
    const billableStored = stored.filter((e) => isBillableEvent(e.name)).length;
    expect(billableStored).toBe(20);

    // The billing call counts from the store: the same 20, for the period and the property.
    const r = await t.app.inject({ url: `/api/v1/accounts/${acc}/billing`, headers: { authorization: `Bearer ${token}` } });
    expect(r.statusCode, r.body).toBe(200);
    const b: BillingAnswer = r.json();
    expect(b.usage.events).toBe(billableStored);
    expect(b.usage.by_property).toEqual([{ property_id: site, name: "Shop", events: 20 }]);
  });
});
