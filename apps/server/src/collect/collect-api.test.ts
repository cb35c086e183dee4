// POST /api/event end to end on real stores (PGlite + DuckDB): validation and limits, CORS,
// drop reasons, trusted-proxy IP handling, enrichment, sessions, identify, presence, rate limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";
import { DROPPED_HEADER } from "./routes.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GB_IP = "81.2.69.142";

describe("POST /api/event", () => {
  let t: TestApp;
  let site: string;
  let strict: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    strict = await t.property(alice.accountId, "https://strict.test", {
      settings: { allowed_hostnames: ["strict.test"], excluded_ips: [GB_IP], excluded_paths: ["/admin/**"] },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (body: unknown, headers: Record<string, string> = {}, contentType = "text/plain") =>
    t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": contentType, "user-agent": CHROME, ...headers },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("stores a pageview sent as text/plain, enriched, before answering 202", async () => {
    const r = await send({
      property: site,
      name: "pageview",
      url: "https://shop.test/pricing?utm_source=newsletter&utm_medium=email",
      referrer: "https://www.google.com/search?q=x",
      screen_width: 1440,
      client_id: "client-0001",
    });
    expect(r.statusCode).toBe(202);
    expect(r.headers[DROPPED_HEADER]).toBeUndefined();
    expect(r.headers["access-control-allow-origin"]).toBe("*");
    // Durable and queryable at once: no sync needed for the raw rows.
    const [row] = await t.events.events(site, { clientId: "client-0001" });
    expect(row).toMatchObject({
      name: "pageview",
      hostname: "shop.test",
      path: "/pricing",
      browser: "Chrome",
      os: "Windows",
      device: "desktop",
      utm_source: "newsletter",
      channel: "email",
    });
    expect(JSON.stringify(row)).not.toContain("127.0.0.1");
  });

  it("accepts application/json and the tracker's short aliases", async () => {
    const r = await send(
      { p: site, n: "signup", u: "https://shop.test/signup", c: "client-0002", pr: { plan: "pro" } },
      {},
      "application/json",
    );
    expect(r.statusCode).toBe(202);
    const [row] = await t.events.events(site, { clientId: "client-0002" });
    expect(row).toMatchObject({ name: "signup", path: "/signup", props: { plan: "pro" } });
  });

  it("keeps one session for a visitor's events under 30 minutes apart", async () => {
    for (const path of ["/a", "/b"]) await send({ p: site, n: "pageview", u: `https://shop.test${path}`, c: "client-0003" });
    const rows = await t.events.events(site, { clientId: "client-0003" });
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.session_id)).size).toBe(1);
  });

  it("answers 400 {message, code} for malformed input, with CORS headers", async () => {
    for (const body of [
      "{not json",
      "[]",
      JSON.stringify({ p: site, n: "pageview" }),
      JSON.stringify({ p: site, u: "javascript:alert(1)", n: "pageview" }),
    ]) {
      const r = await send(body);
      expect(r.statusCode, body).toBe(400);
      expect(r.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      expect(r.headers["access-control-allow-origin"]).toBe("*");
      expect(r.body).not.toMatch(/at .*\.ts|SELECT|INSERT/);
    }
    const props = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, "v"]));
    expect((await send({ p: site, n: "x", u: "https://shop.test/", props })).statusCode).toBe(400);
    expect((await send({ p: site, n: "x", u: `https://shop.test/${"a".repeat(2001)}` })).statusCode).toBe(400);
  });

  it("answers 413 past 16 KB", async () => {
    const r = await send({ p: site, n: "pageview", u: "https://shop.test/", pr: { big: "x".repeat(17_000) } });
    expect(r.statusCode).toBe(413);
    expect(r.json().code).toBe("payload_too_large");
  });

  it("answers the CORS preflight", async () => {
    const r = await t.app.inject({ method: "OPTIONS", url: "/api/event", headers: { origin: "https://shop.test" } });
    expect(r.statusCode).toBe(204);
    expect(r.headers["access-control-allow-methods"]).toContain("POST");
    // Only the collector is cross-origin.
    const other = await t.app.inject({ method: "GET", url: "/api/auth/me" });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers events with the CORS headers alone, outside the site's hooks", async () => {
    const r = await send({ p: site, n: "pageview", u: "https://shop.test/headers", c: "client-headers" });
    expect(r.statusCode).toBe(202);
    expect(r.headers["access-control-expose-headers"]).toBe(DROPPED_HEADER);
    // No page, no cookie: the site's security headers and cookie handling stay off this path.
    expect(r.headers["content-security-policy"]).toBeUndefined();
    expect(r.headers["set-cookie"]).toBeUndefined();
    const bad = await send("{not json");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe("invalid_json");
    expect(bad.headers["access-control-allow-origin"]).toBe("*");
    // The site keeps them, 404s included.
    for (const url of ["/api/auth/me", "/js/script.js", "/api/nothing-here"]) {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.headers["content-security-policy"], url).toContain("default-src 'self'");
    }
  });

  it("says why it dropped an event: unknown property, bot, host, path", async () => {
    const cases: [unknown, Record<string, string>, string][] = [
      [{ p: "no-such-property", n: "pageview", u: "https://x.test/" }, {}, "unknown_property"],
      [
        { p: site, n: "pageview", u: "https://shop.test/" },
        { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
        "bot",
      ],
      [{ p: site, n: "pageview", u: "https://shop.test/" }, { "user-agent": "Mozilla/5.0 HeadlessChrome/124.0.0.0" }, "bot"],
      [{ p: strict, n: "pageview", u: "https://elsewhere.test/" }, {}, "hostname_not_allowed"],
      [{ p: strict, n: "pageview", u: "https://strict.test/admin/users" }, {}, "excluded_path"],
    ];
    for (const [body, headers, reason] of cases) {
      const r = await send(body, headers);
      expect(r.statusCode).toBe(202);
      expect(r.headers[DROPPED_HEADER]).toBe(reason);
    }
    expect(await t.events.events(strict)).toHaveLength(0);
  });

  it("ignores X-Forwarded-For from an untrusted peer", async () => {
    const r = await send({ p: strict, n: "pageview", u: "https://strict.test/", c: "client-0004" }, { "x-forwarded-for": GB_IP });
    expect(r.statusCode).toBe(202);
    expect(r.headers[DROPPED_HEADER]).toBeUndefined();
    const [row] = await t.events.events(strict, { clientId: "client-0004" });
    expect(row?.country).toBe(""); // the loopback peer, not the forged address
  });

  it("records identified visitors and shows their e-mail in live presence", async () => {
    await send({ p: site, n: "pageview", u: "https://shop.test/account", c: "client-0005" });
    const r = await send({
      p: site,
      n: "identify",
      u: "https://shop.test/account",
      c: "client-0005",
      e: "ann@example.com",
      t: { name: "Ann", plan: "pro" },
    });
    expect(r.statusCode).toBe(202);
    expect(await t.events.visitor(site, "client-0005")).toMatchObject({
      email: "ann@example.com",
      name: "Ann",
      traits: { plan: "pro" },
    });
    await new Promise((res) => setTimeout(res, 20));
    const live = t.presence.list([site]).find((v) => v.clientid === "client-0005");
    expect(live).toMatchObject({ page: "/account", email: "ann@example.com", active: true });
  });

  it("ends live presence on pageleave", async () => {
    await send({ p: site, n: "pageview", u: "https://shop.test/bye", c: "client-0006" });
    await new Promise((res) => setTimeout(res, 20));
    expect(t.presence.list([site]).some((v) => v.clientid === "client-0006")).toBe(true);
    await send({ p: site, n: "pageleave", u: "https://shop.test/bye", c: "client-0006" });
    await new Promise((res) => setTimeout(res, 20));
    expect(t.presence.list([site]).some((v) => v.clientid === "client-0006")).toBe(false);
  });
});

describe("POST /api/event behind a trusted proxy, with rate limits", () => {
  let t: TestApp;
  let strict: string;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp("pglite", { env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1", LOOKOUT_RATE_PER_IP: "2" } });
    const bob = await t.user("bob@example.com");
    strict = await t.property(bob.accountId, "https://strict.test", { settings: { excluded_ips: [GB_IP] } });
    site = await t.property(bob.accountId, "https://s.test");
  });
  afterAll(async () => {
    await t?.close();
  });
  const send = (body: unknown, ip: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": CHROME, "x-forwarded-for": ip },
      payload: JSON.stringify(body),
    });

  it("takes the client address from X-Forwarded-For and geolocates it", async () => {
    const excluded = await send({ p: strict, n: "pageview", u: "https://strict.test/" }, GB_IP);
    expect(excluded.headers[DROPPED_HEADER]).toBe("excluded_ip");
    const r = await send({ p: site, n: "pageview", u: "https://s.test/", c: "client-1000" }, GB_IP);
    expect(r.statusCode).toBe(202);
    const [row] = await t.events.events(site, { clientId: "client-1000" });
    expect(row?.country).toBe("GB");
    expect(JSON.stringify(row)).not.toContain(GB_IP);
  });

  it("answers 429 with Retry-After past the per-address rate, and keeps serving others", async () => {
    // All at once, so that a slow machine cannot refill the bucket (2/s, burst 8) between them.
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => send({ p: site, n: "pageview", u: "https://s.test/" }, "8.8.8.8")),
    );
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 202).length).toBeGreaterThanOrEqual(8);
    const limited = replies.find((r) => r.statusCode === 429);
    expect(limited).toBeDefined();
    expect(Number(limited?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited?.json().code).toBe("rate_limited");
    expect((await send({ p: site, n: "pageview", u: "https://s.test/" }, "9.9.9.9")).statusCode).toBe(202);
  });
});
