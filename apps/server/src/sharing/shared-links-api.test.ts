// Shared links on both metadata backends: create, list and revoke (with audit), bad input, the role
// matrix and user A against B's ids; the public page's calls (info, password with throttling,
// the signed cookie); the share credential reading exactly its property's stats (and nothing
// else: every other route of the route table refuses it); expiry and revocation stopping the
// stats calls at once; and the framing headers of the /share/ document.
import { eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteEntry } from "../http/route-table.js";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";
import { WEB_DIST } from "../web/routes.js";

type User = Awaited<ReturnType<TestApp["user"]>>;

describe.each<Backend>(["pglite", "postgres"])("shared links on %s", (backend) => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let site: string;
  let other: string;
  let bobSite: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(backend, { webDist: WEB_DIST });
    alice = await t.user("alice@example.com");
    bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test", { name: "Shop" });
    other = await t.property(alice.accountId, "https://other.test", { name: "Other" });
    bobSite = await t.property(bob.accountId, "https://bob.test");
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor", "admin"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const base = eventRow({ property: site, ts: new Date(), hostname: "shop.test", url: "https://shop.test/" });
    await t.events.append(
      ["v1", "v2", "v3"].map((v, i) => ({
        ...base,
        ts: new Date(Date.now() - (i + 1) * 3_600_000),
        visitor_id: v,
        client_id: v,
        session_id: `s-${v}`,
      })),
    );
    await t.events.append([{ ...base, property: other, visitor_id: "o1", client_id: "o1", session_id: "so1" }]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const links = (p = site) => `/api/v1/properties/${p}/shared-links`;
  const bearer = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const create = (payload: unknown, who = "owner", p = site) =>
    t.app.inject({ method: "POST", url: links(p), headers: bearer(who), payload: payload as object });
  const aggregate = (headers: Record<string, string>, property = site) =>
    t.app.inject({
      method: "GET",
      url: `/api/v1/stats/aggregate?property_id=${property}&period=last_7_days&metrics=visitors`,
      headers,
    });
  const info = (slug: string, cookie?: string) =>
    t.app.inject({ method: "GET", url: `/api/v1/share/${slug}`, headers: cookie ? { cookie } : {} });
  const auth = (slug: string, password: string, remoteAddress = "203.0.113.7") =>
    t.app.inject({ method: "POST", url: `/api/v1/share/${slug}/auth`, payload: { password }, remoteAddress });
  const cookieOf = (r: { cookies: { name: string; value: string }[] }) => r.cookies.map((c) => `${c.name}=${c.value}`).join("; ");

  let open: { id: string; slug: string; url: string };
  let locked: { id: string; slug: string; url: string };

  it("creates links (201 {id, slug, url}), lists them and audits", async () => {
    const r = await create({ name: "Public" });
    expect(r.statusCode).toBe(201);
    open = r.json();
    expect(open.slug).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(open.url).toMatch(new RegExp(`^http://localhost(:80)?/share/${open.slug}$`));
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const r2 = await create({ name: "Team", password: "sesame-123", expires_at: expires }, "admin");
    expect(r2.statusCode).toBe(201);
    locked = r2.json();
    expect(locked.slug).not.toBe(open.slug);

    const list = await t.app.inject({ url: links(), headers: bearer("viewer") });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: open.id,
        name: "Public",
        slug: open.slug,
        has_password: false,
        expires_at: null,
        expired: false,
      }),
      expect.objectContaining({ id: locked.id, name: "Team", has_password: true, expires_at: expires, expired: false }),
    ]);
    expect(JSON.stringify(list.json())).not.toContain("argon2");
    const audit = await t.meta.audit.list({ limit: 20 });
    expect(audit.map((a) => a.action)).toContain("shared_link.create");
    const row = await t.meta.sharedLinks.findBySlug(locked.slug);
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it("refuses bad input with 400 naming the field, and a taken name with 409", async () => {
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "a\u0000b" }, "name"],
      [{ name: "Short", password: "123" }, "password"],
      [{ name: "Past", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
      [{ name: "Bad", expires_at: "tomorrow" }, "expires_at"],
    ];
    for (const [body, field] of cases) {
      const r = await create(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().message).toContain(field);
    }
    const dup = await create({ name: "Public" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe("shared_link_name_taken");
    const bad = await t.app.inject({ method: "DELETE", url: `${links()}/not-an-id`, headers: bearer("owner") });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("id");
  });

  it("follows the role matrix: members list, admins create and revoke", async () => {
    for (const who of ["viewer", "editor"]) {
      expect((await create({ name: `By ${who}` }, who)).statusCode).toBe(404);
      const del = await t.app.inject({ method: "DELETE", url: `${links()}/${open.id}`, headers: bearer(who) });
      expect(del.statusCode).toBe(404);
    }
    for (const who of ["viewer", "editor", "admin", "owner"]) {
      expect((await t.app.inject({ url: links(), headers: bearer(who) })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ url: links() })).statusCode).toBe(401);
  });

  it("answers user B with 404 for A's property and A's link ids", async () => {
    expect((await t.app.inject({ url: links(), headers: bearer("bob") })).statusCode).toBe(404);
    expect((await create({ name: "Mine now" }, "bob")).statusCode).toBe(404);
    const foreign = await t.app.inject({ method: "DELETE", url: `${links()}/${open.id}`, headers: bearer("bob") });
    expect(foreign.statusCode).toBe(404);
    // A's link id under B's own property: no such link there.
    const viaOwn = await t.app.inject({ method: "DELETE", url: `${links(bobSite)}/${open.id}`, headers: bearer("bob") });
    expect(viaOwn.statusCode).toBe(404);
    expect((await t.meta.sharedLinks.findBySlug(open.slug))?.id).toBe(open.id);
  });

  it("tells the page what an open link shows, and hides a protected one's property", async () => {
    const r = await info(open.slug);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      name: "Public",
      property_name: "Shop",
      has_password: false,
      needs_password: false,
      property: { unique_id: site, name: "Shop", website_url: "https://shop.test", timezone: "UTC" },
    });
    const l = await info(locked.slug);
    expect(l.json()).toMatchObject({ name: "Team", needs_password: true, has_password: true, property: null });
    const unknown = await info("A".repeat(22));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("share_not_found");
  });

  it("reads its own property's stats with the share header, the same numbers as the owner", async () => {
    const mine = await aggregate(bearer("owner"));
    const shared = await aggregate({ "x-share-slug": open.slug });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toEqual(mine.json());
    expect(shared.json().results.visitors.value).toBe(3);
    // Another property of the same account, or of another account: as if it did not exist.
    expect((await aggregate({ "x-share-slug": open.slug }, other)).statusCode).toBe(404);
    expect((await aggregate({ "x-share-slug": open.slug }, bobSite)).statusCode).toBe(404);
    // The header wins over a session: a shared page asks as its link only.
    const both = await aggregate({ "x-share-slug": open.slug, ...bearer("owner") }, other);
    expect(both.statusCode).toBe(404);
    for (const kind of ["timeseries?period=last_7_days", "breakdown?period=last_7_days&dimension=page", "realtime/visitors?"]) {
      const r = await t.app.inject({
        url: `/api/v1/stats/${kind}&property_id=${site}`,
        headers: { "x-share-slug": open.slug },
      });
      expect(r.statusCode, kind).toBe(200);
    }
  });

  it("checks a protected link's password: wrong, then right sets a signed 24 h cookie", async () => {
    expect((await aggregate({ "x-share-slug": locked.slug })).statusCode).toBe(403);
    const wrong = await auth(locked.slug, "not-it");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: "invalid_share_password", message: "Incorrect password. Please try again." });
    expect(wrong.cookies).toEqual([]);
    const right = await auth(locked.slug, "sesame-123");
    expect(right.statusCode).toBe(204);
    const [c] = right.cookies;
    expect(c).toMatchObject({ name: `lookout_share_${locked.slug}`, httpOnly: true, sameSite: "Lax", path: "/" });
    const ttl = (c?.expires?.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    const cookie = cookieOf(right);
    expect((await info(locked.slug, cookie)).json()).toMatchObject({ needs_password: false, property: { unique_id: site } });
    const ok = await aggregate({ "x-share-slug": locked.slug, cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results.visitors.value).toBe(3);
    // A forged or altered cookie, or one link's cookie under another name, opens nothing.
    const value = c?.value ?? "";
    const forged = `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`;
    expect((await aggregate({ "x-share-slug": locked.slug, cookie: `${c?.name}=${forged}` })).statusCode).toBe(403);
    const later = `${Date.now() + 48 * 3_600_000}.${value.split(".")[1]}`;
    expect((await aggregate({ "x-share-slug": locked.slug, cookie: `${c?.name}=${later}` })).statusCode).toBe(403);
    // A new password voids the cookies of the old one.
    const row = await t.meta.sharedLinks.findBySlug(locked.slug);
    await t.meta.db.updateTable("shared_links").set({ password_hash: "$argon2id$changed" }).where("id", "=", locked.id).execute();
    expect((await aggregate({ "x-share-slug": locked.slug, cookie })).statusCode).toBe(403);
    await t.meta.db
      .updateTable("shared_links")
      .set({ password_hash: row?.password_hash ?? null })
      .where("id", "=", locked.id)
      .execute();
    expect((await aggregate({ "x-share-slug": locked.slug, cookie })).statusCode).toBe(200);
  });

  it("throttles password guesses per link and address, like sign-ins", async () => {
    const r = await create({ name: "Guarded", password: "right-one" });
    const slug = r.json().slug as string;
    for (let i = 0; i < 10; i++) expect((await auth(slug, `guess-${i}`, "198.51.100.9")).statusCode).toBe(401);
    const blocked = await auth(slug, "right-one", "198.51.100.9");
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // Another address is not locked out by a stranger's guesses.
    expect((await auth(slug, "right-one", "198.51.100.10")).statusCode).toBe(204);
    const audit = await t.meta.audit.list({ limit: 50 });
    expect(audit.filter((a) => a.action === "shared_link.password_failed").length).toBeGreaterThanOrEqual(10);
  });

  it("refuses the share credential on every other route of the route table", async () => {
    const r = await create({ name: "Probe" });
    const slug = r.json().slug as string;
    const pw = await auth(locked.slug, "sesame-123", "192.0.2.44");
    const headers = { "x-share-slug": slug, cookie: cookieOf(pw), "x-xsrf-token": "x" };
    const fill = (url: string) =>
      url
        .replace(/:(unique_id|id|property|propertyId)(?=\/|$)/, site)
        .replace(/:accountId/, alice.accountId)
        .replace(/:userId/, alice.id)
        .replace(/:slug/, slug)
        .replace(/:[A-Za-z_]+/g, "00000000-0000-4000-8000-000000000000");
    const guarded = t.app.routeTable.filter(
      (e: RouteEntry) => e.doc && e.doc.access !== "none" && e.doc.access !== "optional" && !e.url.startsWith("/api/v1/stats/"),
    );
    expect(guarded.length).toBeGreaterThan(5);
    expect(guarded.map((e) => e.url)).toContain("/api/v1/properties/:unique_id/shared-links");
    for (const e of guarded) {
      const res = await t.app.inject({
        method: e.method as "GET",
        url: `${fill(e.url)}?property_id=${site}&accountId=${alice.accountId}`,
        headers,
        ...(e.method === "GET" || e.method === "DELETE" ? {} : { payload: { accountId: alice.accountId, name: "x" } }),
      });
      expect(res.statusCode, `${e.method} ${e.url}`).toBe(401);
    }
    // The live socket's upgrade takes session tokens only.
    const socket = await t.app.inject({ url: `/api?customerId=${alice.accountId}`, headers });
    expect(socket.statusCode).toBeGreaterThanOrEqual(400);
    // And only the Stats API's reads take it at all.
    const shareable = t.app.routeTable.filter((e) => e.url.startsWith("/api/v1/stats/")).map((e) => e.url);
    expect(shareable.length).toBeGreaterThanOrEqual(4);
  });

  it("stops an expired link's page and stats, with the same answer as an unknown one", async () => {
    const r = await create({ name: "Soon", expires_at: new Date(Date.now() + 60_000).toISOString() });
    const { slug, id } = r.json();
    expect((await aggregate({ "x-share-slug": slug })).statusCode).toBe(200);
    await t.meta.db
      .updateTable("shared_links")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", id)
      .execute();
    const stats = await aggregate({ "x-share-slug": slug });
    expect(stats.statusCode).toBe(404);
    const page = await info(slug);
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual((await info("B".repeat(22))).json());
    expect((await auth(slug, "whatever")).statusCode).toBe(404);
    const list = await t.app.inject({ url: links(), headers: bearer("owner") });
    expect(list.json().find((l: { id: string }) => l.id === id)).toMatchObject({ expired: true });
  });

  it("revokes a link: its stats calls stop at once, and the revocation is audited", async () => {
    expect((await aggregate({ "x-share-slug": open.slug })).statusCode).toBe(200);
    const del = await t.app.inject({ method: "DELETE", url: `${links()}/${open.id}`, headers: bearer("admin") });
    expect(del.statusCode).toBe(204);
    const after = await aggregate({ "x-share-slug": open.slug });
    expect(after.statusCode).toBe(404);
    expect(after.json().code).toBe("share_not_found");
    expect((await info(open.slug)).statusCode).toBe(404);
    const again = await t.app.inject({ method: "DELETE", url: `${links()}/${open.id}`, headers: bearer("owner") });
    expect(again.statusCode).toBe(404);
    const audit = await t.meta.audit.list({ limit: 50 });
    expect(audit.find((a) => a.action === "shared_link.delete")).toBeTruthy();
  });

  it("lets other sites frame only the page of a live link without a password", async () => {
    const csp = (r: { headers: Record<string, unknown> }) => String(r.headers["content-security-policy"]);
    const r = await create({ name: "Embed" });
    const embeddable = r.json().slug as string;
    for (const q of ["", "?embed=true"]) {
      const page = await t.app.inject({ url: `/share/${embeddable}${q}` });
      expect(csp(page)).toContain("frame-ancestors *");
      expect(csp(page)).not.toContain("frame-ancestors 'none'");
      expect(page.headers["x-frame-options"]).toBeUndefined();
      expect(csp(page)).toContain("script-src 'self'");
    }
    const refused = [
      `/share/${locked.slug}?embed=true`,
      `/share/${open.slug}?embed=true`, // revoked above
      "/share/unknown-slug-0000000000",
      "/dashboard",
      "/",
      `/api/v1/share/${embeddable}`,
      `/share/${embeddable}/x`,
    ];
    for (const url of refused) {
      const page = await t.app.inject({ url });
      expect(csp(page), url).toContain("frame-ancestors 'none'");
      expect(page.headers["x-frame-options"], url).toBe("DENY");
    }
  });
});
