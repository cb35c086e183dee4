// Goals (DESIGN.md §5): list, create and delete on PGlite and PostgreSQL, with bad input (400
// naming the field), duplicates (409), another account's property and goal ids (404), each role
// against the matrix (read: every member; write: editor and up), the audit lines, and the goals
// breakdown of the Stats API (dimension=goal), which counts the property's own goals.
import { type EventRow, eventRow, type Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

describe.each<Backend>(["pglite", "postgres"])("goals API on %s", (backend) => {
  let t: TestApp;
  let site: string;
  let bobSite: string;
  const tokens: Partial<Record<Role | "bob", string>> = {};
  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    bobSite = await t.property(bob.accountId, "https://bob.test");
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor", "admin"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: "GET" | "POST" | "DELETE", url: string, who: keyof typeof tokens = "owner", payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[who]}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const goalsUrl = (p = site) => `/api/v1/properties/${p}/goals`;

  it("creates a custom-event goal with a currency and a pageview goal named 'Visit <path>', and lists them", async () => {
    const ev = await call("POST", goalsUrl(), "owner", { kind: "event", match: "purchase", currency: "eur" });
    expect(ev.statusCode).toBe(201);
    expect(ev.json()).toMatchObject({ kind: "event", match: "purchase", display_name: "purchase", currency: "EUR" });
    const pg = await call("POST", goalsUrl(), "owner", { kind: "page", match: "/pricing" });
    expect(pg.statusCode).toBe(201);
    expect(pg.json()).toMatchObject({ kind: "page", match: "/pricing", display_name: "Visit /pricing", currency: null });

    const list = await call("GET", goalsUrl());
    expect(list.statusCode).toBe(200);
    expect(list.json().goals.map((g: { display_name: string }) => g.display_name)).toEqual(["purchase", "Visit /pricing"]);
    const audit = await t.meta.audit.list({ limit: 10 });
    expect(audit.filter((a) => a.action === "goal.create")).toHaveLength(2);
  });

  it("answers 409 for the same goal twice, or a name in use", async () => {
    const again = await call("POST", goalsUrl(), "owner", { kind: "page", match: "/pricing", display_name: "Other" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "goal_exists" });
    const sameName = await call("POST", goalsUrl(), "owner", { kind: "event", match: "buy", display_name: "purchase" });
    expect(sameName.statusCode).toBe(409);
    // The same match of the other kind is another goal.
    const other = await call("POST", goalsUrl(), "owner", { kind: "event", match: "/pricing", display_name: "Odd" });
    expect(other.statusCode).toBe(201);
    expect((await call("DELETE", `${goalsUrl()}/${other.json().id}`)).statusCode).toBe(204);
  });

  it.each([
    [{ kind: "event", match: "" }, "match"],
    [{ kind: "event", match: "x".repeat(121) }, "match"],
    [{ kind: "event", match: "pageview" }, "match"],
    [{ kind: "event", match: "buy", currency: "EURO" }, "currency"],
    [{ kind: "page", match: "pricing" }, "match"],
    [{ kind: "page", match: "/a/***" }, "match"],
    [{ kind: "page", match: "/a", display_name: "x".repeat(121) }, "display_name"],
    [{ kind: "nope", match: "/a" }, "kind"],
    [{ kind: "event", match: "a\u0000b" }, "match"],
  ])("answers 400 naming the field for %j", async (body, field) => {
    const r = await call("POST", goalsUrl(), "owner", body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
  });

  it.each<[Role, number, number]>([
    ["viewer", 200, 404],
    ["editor", 200, 201],
    ["admin", 200, 201],
    ["owner", 200, 201],
  ])("%s: list %i, create %i (and delete alike)", async (role, read, write) => {
    expect((await call("GET", goalsUrl(), role)).statusCode).toBe(read);
    const created = await call("POST", goalsUrl(), role, { kind: "event", match: `by-${role}` });
    expect(created.statusCode).toBe(write);
    // The owner's goal, deleted by this role (a viewer may not: 404 like any property it may not change).
    const mine = await call("POST", goalsUrl(), "owner", { kind: "event", match: `delete-by-${role}` });
    const del = await call("DELETE", `${goalsUrl()}/${mine.json().id}`, role);
    expect(del.statusCode).toBe(write === 201 ? 204 : 404);
    if (write === 201) {
      expect((await call("DELETE", `${goalsUrl()}/${created.json().id}`, role)).statusCode).toBe(204);
    } else {
      await call("DELETE", `${goalsUrl()}/${mine.json().id}`, "owner");
    }
  });

  it("refuses user A on user B's property and B's goal ids (404), and unknown goals (404)", async () => {
    const bobGoal = await call("POST", goalsUrl(bobSite), "bob", { kind: "event", match: "bob-only" });
    expect(bobGoal.statusCode).toBe(201);
    expect((await call("GET", goalsUrl(bobSite), "owner")).statusCode).toBe(404);
    expect((await call("POST", goalsUrl(bobSite), "owner", { kind: "event", match: "x" })).statusCode).toBe(404);
    expect((await call("DELETE", `${goalsUrl(bobSite)}/${bobGoal.json().id}`, "owner")).statusCode).toBe(404);
    // B's goal id under A's own property: no such goal there.
    expect((await call("DELETE", `${goalsUrl()}/${bobGoal.json().id}`, "owner")).statusCode).toBe(404);
    expect((await call("GET", goalsUrl(bobSite), "bob")).json().goals).toHaveLength(1);
    expect((await call("DELETE", `${goalsUrl()}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await call("DELETE", `${goalsUrl()}/not-an-id`)).statusCode).toBe(400);
  });

  it("deletes a goal once, audited", async () => {
    const g = await call("POST", goalsUrl(), "editor", { kind: "page", match: "/gone/*" });
    expect((await call("DELETE", `${goalsUrl()}/${g.json().id}`, "editor")).statusCode).toBe(204);
    expect((await call("DELETE", `${goalsUrl()}/${g.json().id}`, "editor")).statusCode).toBe(404);
    const audit = await t.meta.audit.list({ limit: 50 });
    expect(audit.some((a) => a.action === "goal.delete" && JSON.stringify(a.detail).includes(g.json().id))).toBe(true);
  });

  describe("Stats API dimension=goal", () => {
    const base = eventRow({ property: "", ts: new Date(0), hostname: "shop.test", country: "US" });
    const RANGE = "period=custom&date=2024-03-05,2024-03-07";
    const stats = async (p: string, who: keyof typeof tokens = "viewer", q = "metrics=visitors,events,conversion_rate") => {
      const r = await call("GET", `/api/v1/stats/breakdown?property_id=${p}&${RANGE}&dimension=goal&${q}`, who);
      return { status: r.statusCode, body: r.json() };
    };
    beforeAll(async () => {
      const ev = (ts: string, v: string, s: string, o: Partial<EventRow> = {}): EventRow => ({
        ...base,
        property: site,
        ts: new Date(ts),
        visitor_id: v,
        client_id: v,
        session_id: s,
        ...o,
      });
      await t.events.append([
        ev("2024-03-05T10:00:00Z", "v1", "s1", { path: "/" }),
        ev("2024-03-05T10:01:00Z", "v1", "s1", { path: "/pricing" }),
        ev("2024-03-05T10:02:00Z", "v1", "s1", { name: "purchase", path: "/pricing" }),
        ev("2024-03-06T10:00:00Z", "v2", "s2", { path: "/blog/x" }),
        ev("2024-03-06T10:01:00Z", "v2", "s2", { path: "/blog/y" }),
        ev("2024-03-07T10:00:00Z", "v3", "s3", { path: "/", country: "DE" }),
      ]);
      await t.events.sync();
    });

    it("answers every goal of the property with unique and total conversions and the rate over all visitors", async () => {
      await call("POST", goalsUrl(), "owner", { kind: "page", match: "/blog/*", display_name: "Blog" });
      const r = await stats(site);
      expect(r.status).toBe(200);
      expect(r.body.results).toEqual([
        { goal: "Blog", visitors: 1, events: 2, conversion_rate: 33.3 },
        { goal: "Visit /pricing", visitors: 1, events: 1, conversion_rate: 33.3 },
        { goal: "purchase", visitors: 1, events: 1, conversion_rate: 33.3 },
      ]);
      const us = await stats(site, "viewer", `metrics=visitors,conversion_rate&filters=${encodeURIComponent("country==US")}`);
      expect(us.body.results[0]).toEqual({ goal: "Blog", visitors: 1, conversion_rate: 50 });
    });

    it("answers [] without goals, a zero row for a goal without conversions, 404 for another's, 400 for other metrics", async () => {
      const owner = await t.meta.properties.findByUniqueId(site);
      const bare = await t.property(owner?.account_id ?? "", "https://bare.test");
      expect((await stats(bare)).body.results).toEqual([]);
      const zero = await stats(bobSite, "bob");
      expect(zero.body.results).toEqual([{ goal: "bob-only", visitors: 0, events: 0, conversion_rate: 0 }]);
      expect((await stats(bobSite, "owner")).status).toBe(404);
      const bad = await stats(site, "viewer", "metrics=bounce_rate");
      expect(bad.status).toBe(400);
      expect(bad.body.details).toEqual({ param: "metrics" });
      // Goals come from the property, never from the query string.
      const injected = await stats(site, "viewer", "metrics=visitors&goals=%2F**");
      expect(injected.body.results.map((g: { goal: string }) => g.goal)).toEqual(["Blog", "Visit /pricing", "purchase"]);
    });
  });
});
