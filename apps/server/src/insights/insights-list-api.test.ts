// The saved-insights list and its actions (DESIGN.md §3, §5) on PGlite and PostgreSQL: search
// (name or description, LIKE characters taken literally), filters by kind, tag and creator, the
// tabs all / mine / favourites / recent (opened by the caller: views are per user), sorts, the
// filters' choices, creator names; duplicate; delete and its undo (restore, audited); bad list
// parameters answering 400 naming the parameter; roles and foreign ids as the matrix says.
import type { Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

describe.each<Backend>(["pglite", "postgres"])("saved insights list on %s", (backend) => {
  let t: TestApp;
  let site: string;
  const tokens: Partial<Record<Role | "bob", string>> = {};
  const ids: Record<string, string> = {};
  let editorId = "";
  let ownerId = "";
  const spec = { kind: "trends", period: "last_7_days", series: [{ event: "pageview" }] };

  const call = (
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    who: keyof typeof tokens = "owner",
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[who]}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const names = async (query: string, who: keyof typeof tokens = "owner") => {
    const r = await call("GET", `/api/v1/properties/${site}/insights${query}`, who);
    expect(r.statusCode).toBe(200);
    return r.json().results.map((x: { name: string }) => x.name);
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    await t.meta.users.setName(alice.id, "Alice Owner");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    await t.property(bob.accountId, "https://bob.test");
    ownerId = alice.id;
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor"] as const) {
      const u = await t.user(`${role}@example.com`);
      if (role === "editor") await t.meta.users.setName(u.id, "Editor Person");
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
      if (role === "editor") editorId = u.id;
    }
    // Created oldest first: Checkout (owner), Signups (editor), "100% club" (owner).
    const make = async (who: "owner" | "editor", body: Record<string, unknown>) => {
      const r = await call("POST", `/api/v1/properties/${site}/insights`, who, { spec, ...body });
      expect(r.statusCode).toBe(201);
      ids[body.name as string] = r.json().short_id;
    };
    await make("owner", { name: "Checkout", description: "Orders per day", tags: ["sales", "daily"] });
    await make("editor", { name: "Signups", description: "New accounts", tags: ["growth"], favourite: true });
    await make("owner", { name: "100% club", description: "", tags: ["growth", "sales"] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists every live insight, last modified first, with creator names and the filters' choices", async () => {
    const r = await call("GET", `/api/v1/properties/${site}/insights`, "viewer");
    expect(r.json().results.map((x: { name: string }) => x.name)).toEqual(["100% club", "Signups", "Checkout"]);
    expect(r.json().results[1]).toMatchObject({ created_by: editorId, created_by_name: "Editor Person", last_viewed_at: null });
    expect(r.json().tags).toEqual(["daily", "growth", "sales"]);
    expect(r.json().creators).toEqual([
      { id: ownerId, name: "Alice Owner" },
      { id: editorId, name: "Editor Person" },
    ]);
  });

  it("searches names and descriptions case-insensitively, taking % and _ literally", async () => {
    expect(await names("?search=ORDERS")).toEqual(["Checkout"]);
    expect(await names("?search=sign")).toEqual(["Signups"]);
    expect(await names("?search=100%25")).toEqual(["100% club"]);
    expect(await names("?search=%25")).toEqual(["100% club"]);
    expect(await names("?search=_")).toEqual([]);
  });

  it("filters by kind, tag and creator, combined", async () => {
    expect(await names("?kind=trends")).toHaveLength(3);
    expect(await names("?tag=sales")).toEqual(["100% club", "Checkout"]);
    expect(await names("?tag=sal")).toEqual([]);
    expect(await names(`?creator=${editorId}`)).toEqual(["Signups"]);
    expect(await names(`?creator=${ownerId}&tag=growth`)).toEqual(["100% club"]);
  });

  it("sorts by name, created and last modified", async () => {
    expect(await names("?sort=name")).toEqual(["100% club", "Checkout", "Signups"]);
    expect(await names("?sort=created")).toEqual(["100% club", "Signups", "Checkout"]);
    await call("PATCH", `/api/v1/insights/${ids.Checkout}`, "owner", { description: "Orders per day, all shops" });
    expect(await names("?sort=updated")).toEqual(["Checkout", "100% club", "Signups"]);
  });

  it("has tabs: mine, favourites, and recently viewed by the caller alone", async () => {
    expect(await names("?tab=mine", "editor")).toEqual(["Signups"]);
    expect(await names("?tab=mine", "viewer")).toEqual([]);
    expect(await names("?tab=favourites")).toEqual(["Signups"]);
    expect(await names("?tab=recent", "viewer")).toEqual([]);
    // The viewer opens Signups, then Checkout: the recent tab lists them last opened first.
    expect((await call("GET", `/api/v1/insights/${ids.Signups}`, "viewer")).statusCode).toBe(200);
    const opened = await call("GET", `/api/v1/insights/${ids.Checkout}`, "viewer");
    expect(opened.json().last_viewed_at).not.toBeNull();
    expect(await names("?tab=recent", "viewer")).toEqual(["Checkout", "Signups"]);
    expect(await names("?tab=recent", "editor")).toEqual([]);
    const list = await call("GET", `/api/v1/properties/${site}/insights?sort=viewed`, "viewer");
    const rows = list.json().results as { name: string; last_viewed_at: string | null }[];
    expect(rows.map((x) => x.name)).toEqual(["Checkout", "Signups", "100% club"]);
    expect(rows[2]?.last_viewed_at).toBeNull();
  });

  it.each([
    ["?tab=everything", "tab"],
    ["?sort=random", "sort"],
    ["?kind=pie", "kind"],
    ["?creator=not-a-user", "creator"],
    [`?search=${"x".repeat(201)}`, "search"],
    ["?search=%00", "search"],
  ])("answers 400 naming the parameter for %s", async (query, param) => {
    const r = await call("GET", `/api/v1/properties/${site}/insights${query}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toHaveProperty("code");
    expect(JSON.stringify(r.json())).toContain(param);
  });

  it("duplicates an insight for editors: a copy by the caller, not a favourite, with the same spec and tags", async () => {
    const url = `/api/v1/insights/${ids.Signups}/duplicate`;
    expect((await call("POST", url, "viewer")).statusCode).toBe(404);
    expect((await call("POST", url, "bob")).statusCode).toBe(404);
    const r = await call("POST", url, "owner");
    expect(r.statusCode).toBe(201);
    const copy = r.json();
    expect(copy).toMatchObject({ name: "Signups (copy)", favourite: false, tags: ["growth"], created_by: ownerId });
    expect(copy.short_id).not.toBe(ids.Signups);
    expect(copy.spec).toMatchObject(spec);
    expect(await names("?search=signups&sort=name")).toEqual(["Signups", "Signups (copy)"]);
    expect((await call("DELETE", `/api/v1/insights/${copy.short_id}`, "owner")).statusCode).toBe(204);
  });

  it("undoes a delete: restore brings the insight back for editors, audited; a live or foreign id is 404", async () => {
    const one = `/api/v1/insights/${ids.Checkout}`;
    expect((await call("POST", `${one}/restore`, "editor")).statusCode).toBe(404);
    expect((await call("DELETE", one, "editor")).statusCode).toBe(204);
    expect(await names("")).not.toContain("Checkout");
    expect((await call("GET", one, "viewer")).statusCode).toBe(404);
    expect((await call("POST", `${one}/restore`, "viewer")).statusCode).toBe(404);
    expect((await call("POST", `${one}/restore`, "bob")).statusCode).toBe(404);
    const back = await call("POST", `${one}/restore`, "editor");
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ short_id: ids.Checkout, name: "Checkout", tags: ["sales", "daily"] });
    expect(await names("?sort=name")).toContain("Checkout");
    expect((await call("GET", one, "viewer")).statusCode).toBe(200);
    const audit = await t.meta.audit.list({ limit: 50 });
    expect(audit.filter((a) => a.action === "insight.restore")).toHaveLength(1);
  });
});
