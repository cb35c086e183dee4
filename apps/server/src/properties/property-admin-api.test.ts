// The property management API (DESIGN.md §5) on PGlite and PostgreSQL: list, create, read, edit
// with settings, reset, delete, install check and the caller's address; bad input per field
// (400 naming the field, per-line details for the lists); user A against user B's ids; each role
// against the matrix (DESIGN.md §7); the audit lines.
import type { Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe.each<Backend>(["pglite", "postgres"])("property management API on %s", (backend) => {
  let t: TestApp;
  let accountA: string;
  let ownerId: string;
  const tokens: Record<Role | "stranger", string> = { owner: "", admin: "", editor: "", viewer: "", stranger: "" };
  let site: string;
  let strangerSite: string;

  beforeAll(async () => {
    t = await createTestApp(backend);
    const owner = await t.user("owner@example.com");
    accountA = owner.accountId;
    ownerId = owner.id;
    tokens.owner = (await t.login(owner.email, owner.password)).token;
    for (const role of ["admin", "editor", "viewer"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(accountA, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const stranger = await t.user("stranger@example.com");
    tokens.stranger = (await t.login(stranger.email, stranger.password)).token;
    site = await t.property(accountA, "https://shop.test", { name: "Shop", timezone: "Europe/Berlin" });
    strangerSite = await t.property(stranger.accountId, "https://other.test");
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (who: keyof typeof tokens, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[who]}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const send = (property: string, name: string, url: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": CHROME },
      payload: JSON.stringify({ property, name, url }),
    });
  const auditActions = async () => (await t.meta.audit.list({ userId: ownerId })).map((a) => a.action);

  it("creates a property: origin of the address, timezone kept, 201 with the binding fields; audited", async () => {
    const r = await call("owner", "POST", "/api/v1/properties", {
      accountId: accountA,
      name: "  Blog  ",
      website_url: "Blog.Example.com/posts?x=1",
      timezone: "America/New_York",
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({
      unique_id: expect.stringMatching(/^[\w-]{16}$/),
      name: "Blog",
      website_url: "https://blog.example.com",
      timezone: "America/New_York",
      account_id: accountA,
      created_at: expect.any(String),
      is_demo: false,
      settings: { cookieless: false, excluded_ips: [], excluded_paths: [], allowed_hostnames: [] },
      events_30d: 0,
    });
    expect(await auditActions()).toContain("property.create");
    const list = await call("owner", "GET", `/api/v1/properties?accountId=${accountA}`);
    expect(list.json().map((p: { name: string }) => p.name)).toEqual(["Shop", "Blog"]);
    // The client's picker list sees it too.
    const picker = await call("owner", "POST", "/static-api/get-properties", { accountId: accountA });
    expect(picker.json()).toHaveLength(2);
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(121) }, "name"],
    [{ website_url: "ftp://example.com" }, "website_url"],
    [{ website_url: "https://" }, "website_url"],
    [{ website_url: "https://user:pw@example.com" }, "website_url"],
    [{ timezone: "Mars/Olympus" }, "timezone"],
    [{ timezone: "" }, "timezone"],
    [{ accountId: "nope" }, "accountId"],
    [{ accountId: undefined }, "accountId"],
  ])("refuses a bad create field %j with 400 naming %s", async (change, field) => {
    const body = { accountId: accountA, name: "X", website_url: "https://x.test", timezone: "UTC", ...change };
    const r = await call("owner", "POST", "/api/v1/properties", body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: "invalid_request", message: expect.stringContaining(field) });
    expect(r.json().details[0].path).toBe(field);
  });

  it("counts the last 30 days' pageviews and custom events, and reports the install status", async () => {
    const before = await call("viewer", "GET", `/api/v1/properties/${site}/install-status`);
    expect(before.json()).toEqual({ received: false, last_event_at: null });
    for (const [name, url] of [
      ["pageview", "https://shop.test/"],
      ["pageview", "https://shop.test/pricing"],
      ["Signup", "https://shop.test/pricing"],
    ] as const) {
      expect((await send(site, name, url)).statusCode).toBe(202);
    }
    await t.events.sync();
    const one = await call("viewer", "GET", `/api/v1/properties/${site}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ unique_id: site, name: "Shop", timezone: "Europe/Berlin", events_30d: 3 });
    const list = await call("viewer", "GET", `/api/v1/properties?accountId=${accountA}`);
    expect(list.json().find((p: { unique_id: string }) => p.unique_id === site).events_30d).toBe(3);
    const after = (await call("viewer", "GET", `/api/v1/properties/${site}/install-status`)).json();
    expect(after.received).toBe(true);
    expect(Date.now() - Date.parse(after.last_event_at)).toBeLessThan(60_000);
  });

  it("edits name, address, timezone and settings, normalising each entry; audited", async () => {
    const r = await call("admin", "PATCH", `/api/v1/properties/${site}`, {
      name: "Shop EU",
      website_url: "http://shop.test:8080/x",
      timezone: "UTC",
      settings: {
        cookieless: true,
        excluded_ips: ["203.0.113.7", " 198.51.100.0/24 ", "2001:DB8:0:0::1", "2001:db8::/32", "::ffff:192.0.2.1", "", "private"],
        excluded_paths: ["/admin/*", "/blog/**", "/admin/*"],
        allowed_hostnames: ["Shop.test", "*.shop.test", "https://www.shop.test/path", "bücher.test"],
      },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      name: "Shop EU",
      website_url: "http://shop.test:8080",
      timezone: "UTC",
      settings: {
        cookieless: true,
        excluded_ips: ["203.0.113.7", "198.51.100.0/24", "2001:db8::1", "2001:db8::/32", "192.0.2.1", "private"],
        excluded_paths: ["/admin/*", "/blog/**"],
        allowed_hostnames: ["shop.test", "*.shop.test", "www.shop.test", "xn--bcher-kva.test"],
      },
    });
    // A partial settings change keeps the other lists.
    const partial = await call("admin", "PATCH", `/api/v1/properties/${site}`, { settings: { excluded_paths: [] } });
    expect(partial.json().settings).toMatchObject({ cookieless: true, excluded_paths: [], excluded_ips: expect.any(Array) });
    expect((await call("viewer", "GET", `/api/v1/properties/${site}`)).json().name).toBe("Shop EU");
    const lines = await t.meta.audit.list({ limit: 10 });
    const update = lines.find((l) => l.action === "property.update");
    expect(update?.detail).toMatchObject({ unique_id: site, changed: ["settings"] });
  });

  it.each([
    ["excluded_ips", ["203.0.113.7", "300.1.1.1"], 1, "not an IP address"],
    ["excluded_ips", ["10.0.0.0/33"], 0, "0 to 32"],
    ["excluded_ips", ["2001:db8::/129"], 0, "0 to 128"],
    ["excluded_ips", ["10.0.0.0/x"], 0, "not a number"],
    ["excluded_ips", ["10.0.0.0/8/8"], 0, "not an IP"],
    ["excluded_ips", ["example.com"], 0, "not an IP"],
    ["excluded_paths", ["/ok", "admin"], 1, 'start with "/"'],
    ["excluded_paths", ["/a b"], 0, "spaces"],
    ["excluded_paths", ["/a?b=1"], 0, "path only"],
    ["excluded_paths", [`/${"a".repeat(300)}`], 0, "at most 300"],
    ["allowed_hostnames", ["ok.test", "exa mple.com"], 1, "not a hostname"],
    ["allowed_hostnames", ["*example.com"], 0, "not a hostname"],
    ["allowed_hostnames", ["example.com:8080"], 0, "not a hostname"],
    ["allowed_hostnames", ["example.com/path"], 0, "not a hostname"],
  ])("refuses a bad %s entry %j with the line's index (%i) in details", async (field, entries, index, words) => {
    const r = await call("admin", "PATCH", `/api/v1/properties/${site}`, { settings: { [field]: entries } });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body.code).toBe("invalid_request");
    expect(body.details).toEqual([{ path: `settings.${field}.${index}`, message: expect.stringContaining(words) }]);
    expect(body.details[0].message).toContain(String(entries[index]).trim().slice(0, 20));
  });

  it("refuses more than 100 entries a list, and a non-boolean cookieless", async () => {
    const many = Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`);
    const r = await call("admin", "PATCH", `/api/v1/properties/${site}`, { settings: { excluded_ips: many } });
    expect(r.statusCode).toBe(400);
    expect(r.json().details[0]).toMatchObject({ path: "settings.excluded_ips", message: expect.stringContaining("100") });
    const c = await call("admin", "PATCH", `/api/v1/properties/${site}`, { settings: { cookieless: "yes" } });
    expect(c.statusCode).toBe(400);
    expect(c.json().details[0].path).toBe("settings.cookieless");
    const tz = await call("admin", "PATCH", `/api/v1/properties/${site}`, { timezone: "Nowhere/Land" });
    expect(tz.json().details[0].path).toBe("timezone");
  });

  it("answers user B 404 for A's property ids and 403 for A's account", async () => {
    for (const [method, url, body] of [
      ["GET", `/api/v1/properties/${site}`],
      ["PATCH", `/api/v1/properties/${site}`, { name: "Mine" }],
      ["DELETE", `/api/v1/properties/${site}`],
      ["POST", `/api/v1/properties/${site}/reset`],
      ["GET", `/api/v1/properties/${site}/install-status`],
      ["GET", `/api/v1/properties/${site}/client-address`],
      ["GET", "/api/v1/properties/unknownpropertyid"],
    ] as const) {
      const r = await call("stranger", method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().code).toBe("property_not_found");
    }
    // And A's owner gets 404 for the stranger's property.
    expect((await call("owner", "GET", `/api/v1/properties/${strangerSite}`)).statusCode).toBe(404);
    expect((await call("stranger", "GET", `/api/v1/properties?accountId=${accountA}`)).statusCode).toBe(403);
    const create = await call("stranger", "POST", "/api/v1/properties", {
      accountId: accountA,
      name: "Sneaky",
      website_url: "https://sneaky.test",
      timezone: "UTC",
    });
    expect(create.statusCode).toBe(403);
    expect((await t.meta.properties.findByUniqueId(site))?.name).toBe("Shop EU");
  });

  it.each<[Role, boolean]>([
    ["viewer", false],
    ["editor", false],
    ["admin", true],
    ["owner", true],
  ])("lets a %s read, and change only if admin or owner (%s)", async (role, may) => {
    expect((await call(role, "GET", `/api/v1/properties?accountId=${accountA}`)).statusCode).toBe(200);
    expect((await call(role, "GET", `/api/v1/properties/${site}`)).statusCode).toBe(200);
    expect((await call(role, "GET", `/api/v1/properties/${site}/install-status`)).statusCode).toBe(200);
    const ip = await call(role, "GET", `/api/v1/properties/${site}/client-address`);
    expect(ip.json()).toEqual({ ip: "127.0.0.1" });
    const patch = await call(role, "PATCH", `/api/v1/properties/${site}`, { name: `Shop EU` });
    expect(patch.statusCode).toBe(may ? 200 : 404);
    const create = await call(role, "POST", "/api/v1/properties", {
      accountId: accountA,
      name: `By ${role}`,
      website_url: "https://x.test",
      timezone: "UTC",
    });
    expect(create.statusCode).toBe(may ? 201 : 403);
    if (may) {
      const made = create.json().unique_id as string;
      expect((await call(role, "POST", `/api/v1/properties/${made}/reset`)).statusCode).toBe(204);
      expect((await call(role, "DELETE", `/api/v1/properties/${made}`)).statusCode).toBe(204);
    } else {
      expect((await call(role, "POST", `/api/v1/properties/${site}/reset`)).statusCode).toBe(404);
      expect((await call(role, "DELETE", `/api/v1/properties/${site}`)).statusCode).toBe(404);
    }
  });

  it("resets: events, counts and install status gone, property and settings kept; audited", async () => {
    expect((await t.events.events(site)).length).toBeGreaterThan(0);
    const r = await call("owner", "POST", `/api/v1/properties/${site}/reset`);
    expect(r.statusCode).toBe(204);
    expect(await t.events.events(site)).toHaveLength(0);
    const kept = (await call("owner", "GET", `/api/v1/properties/${site}`)).json();
    expect(kept).toMatchObject({ unique_id: site, name: "Shop EU", events_30d: 0, settings: { cookieless: true } });
    expect((await call("owner", "GET", `/api/v1/properties/${site}/install-status`)).json().received).toBe(false);
    const line = (await t.meta.audit.list({ userId: ownerId })).find((l) => l.action === "property.reset");
    expect(line?.detail).toMatchObject({ unique_id: site, name: "Shop EU" });
    // New events are collected and counted again.
    expect((await send(site, "pageview", "https://shop.test/again")).statusCode).toBe(202);
    await t.events.sync();
    expect((await call("owner", "GET", `/api/v1/properties/${site}`)).json().events_30d).toBe(1);
  });

  it("deletes with an audit line naming the property", async () => {
    const r = await call("owner", "DELETE", `/api/v1/properties/${site}`);
    expect(r.statusCode).toBe(204);
    expect((await call("owner", "GET", `/api/v1/properties/${site}`)).statusCode).toBe(404);
    const line = (await t.meta.audit.list({ userId: ownerId })).find((l) => l.action === "property.delete");
    expect(line?.detail).toMatchObject({ unique_id: site, name: "Shop EU" });
  });
});
