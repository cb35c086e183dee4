// PATCH/DELETE /api/v1/accounts/{accountId}: admins rename, the owner deletes with the account's
// name typed; deletion takes the properties with their events and every row the account held,
// leaves other accounts alone, is audited, and a member left without an account gets a fresh one
// at the next sign-in. Roles against the matrix, user A against B's ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROPPED_HEADER } from "../collect/routes.js";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

type User = Awaited<ReturnType<TestApp["user"]>>;

describe.each<Backend>(["pglite", "postgres"])("accounts on %s", (backend) => {
  let t: TestApp;
  let n = 0;

  const call = (method: "PATCH" | "DELETE" | "GET", url: string, token: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload: payload as object } : {}),
    });

  async function send(site: string, path: string): Promise<void> {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0 Safari/537.36" },
      payload: JSON.stringify({ p: site, n: "pageview", u: `https://s.test${path}` }),
    });
    expect(r.statusCode).toBe(202);
  }

  /** A user with their own account, and a team of one member per role in it. */
  async function team(): Promise<{
    owner: User;
    ownerToken: string;
    tokens: Record<string, string>;
    ids: Record<string, string>;
  }> {
    n += 1;
    const owner = await t.user(`founder${n}@example.com`);
    const ownerToken = (await t.login(owner.email, owner.password)).token;
    const tokens: Record<string, string> = {};
    const ids: Record<string, string> = {};
    for (const role of ["viewer", "editor", "admin", "owner"] as const) {
      const u = await t.user(`${role}${n}@example.com`);
      await t.meta.accounts.addMember(owner.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
      ids[role] = u.id;
    }
    return { owner, ownerToken, tokens, ids };
  }

  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("renames the account for admins and owners, refuses viewers and editors, and audits", async () => {
    const { owner, tokens } = await team();
    for (const [role, allowed] of [
      ["viewer", false],
      ["editor", false],
      ["admin", true],
      ["owner", true],
    ] as const) {
      const r = await call("PATCH", `/api/v1/accounts/${owner.accountId}`, tokens[role] ?? "", { name: ` Renamed by ${role} ` });
      expect(r.statusCode, role).toBe(allowed ? 200 : 403);
      if (allowed) expect(r.json()).toMatchObject({ id: owner.accountId, name: `Renamed by ${role}` });
    }
    expect((await t.meta.accounts.findById(owner.accountId))?.name).toBe("Renamed by owner");
    const me = (await call("GET", "/api/auth/me", tokens.viewer ?? "")).json();
    expect(me.accounts.find((a: { id: string }) => a.id === owner.accountId)?.name).toBe("Renamed by owner");
    const audit = await t.meta.audit.list({ limit: 10 });
    expect(audit.some((a) => a.action === "account.rename" && a.account_id === owner.accountId)).toBe(true);
  });

  it("refuses bad input per field, and another user's account with 403", async () => {
    const { owner, ownerToken } = await team();
    const stranger = await t.user(`stranger${n}@example.com`);
    const strangerToken = (await t.login(stranger.email, stranger.password)).token;
    for (const [payload, field] of [
      [{}, "name"],
      [{ name: "  " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "a\u0000b" }, "name"],
    ] as const) {
      const r = await call("PATCH", `/api/v1/accounts/${owner.accountId}`, ownerToken, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await call("PATCH", "/api/v1/accounts/nope", ownerToken, { name: "x" })).statusCode).toBe(400);
    const del = await call("DELETE", `/api/v1/accounts/${owner.accountId}`, ownerToken, {});
    expect(del.statusCode).toBe(400);
    expect(del.json().details[0].path).toBe("confirm");
    const foreign = await call("PATCH", `/api/v1/accounts/${owner.accountId}`, strangerToken, { name: "mine" });
    const unknown = await call("PATCH", "/api/v1/accounts/00000000-0000-4000-8000-000000000000", strangerToken, { name: "mine" });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual(unknown.json());
    const name = (await t.meta.accounts.findById(owner.accountId))?.name ?? "";
    expect((await call("DELETE", `/api/v1/accounts/${owner.accountId}`, strangerToken, { confirm: name })).statusCode).toBe(403);
    expect(await t.meta.accounts.findById(owner.accountId)).toBeDefined();
  });

  it("lets only an owner delete, and only with the account's name typed", async () => {
    const { owner, ownerToken, tokens } = await team();
    const name = (await t.meta.accounts.findById(owner.accountId))?.name ?? "";
    for (const role of ["viewer", "editor", "admin"] as const) {
      const r = await call("DELETE", `/api/v1/accounts/${owner.accountId}`, tokens[role] ?? "", { confirm: name });
      expect(r.statusCode, role).toBe(403);
    }
    const wrong = await call("DELETE", `/api/v1/accounts/${owner.accountId}`, ownerToken, { confirm: `${name}x` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: "confirmation_mismatch", details: [{ path: "confirm" }] });
    const { key } = await t.meta.apiKeys.create({ userId: owner.id, accountId: owner.accountId, name: "k" });
    expect((await call("DELETE", `/api/v1/accounts/${owner.accountId}`, key, { confirm: name })).statusCode).toBe(403);
    expect(await t.meta.accounts.findById(owner.accountId)).toBeDefined();
    // A second owner may delete it too (owners are equals).
    expect((await call("DELETE", `/api/v1/accounts/${owner.accountId}`, tokens.owner ?? "", { confirm: name })).statusCode).toBe(
      204,
    );
  });

  it("deletes the properties with their events and everything else the account held, and nothing else", async () => {
    const { owner, ownerToken, ids, tokens } = await team();
    const site = await t.property(owner.accountId, "https://s.test");
    const site2 = await t.property(owner.accountId, "https://two.s.test");
    const other = await t.user(`other${n}@example.com`);
    const otherSite = await t.property(other.accountId, "https://other.test");
    await send(site, "/a");
    await send(site2, "/b");
    await send(otherSite, "/c");
    const propId = (await t.meta.properties.findByUniqueId(site))?.id ?? "";
    await t.meta.db
      .insertInto("goals")
      .values({
        id: crypto.randomUUID(),
        property_id: propId,
        kind: "event",
        match: "Signup",
        display_name: "Signup",
        currency: null,
      })
      .execute();
    await t.meta.db
      .insertInto("shared_links")
      .values({ id: crypto.randomUUID(), property_id: propId, name: "public", slug: `slug-${n}`, created_by: owner.id })
      .execute();
    await t.meta.db
      .insertInto("report_schedules")
      .values({ id: crypto.randomUUID(), property_id: propId, frequency: "weekly", recipients: JSON.stringify(["a@b.test"]) })
      .execute();
    await t.meta.db
      .insertInto("invitations")
      .values({
        id: crypto.randomUUID(),
        account_id: owner.accountId,
        email_norm: "invitee@example.com",
        role: "viewer",
        token_hash: `h-${n}`,
        invited_by: owner.id,
        expires_at: new Date(Date.now() + 3_600_000),
      })
      .execute();
    const { key } = await t.meta.apiKeys.create({ userId: owner.id, accountId: owner.accountId, name: "k" });

    const name = (await t.meta.accounts.findById(owner.accountId))?.name ?? "";
    const r = await call("DELETE", `/api/v1/accounts/${owner.accountId}`, ownerToken, { confirm: ` ${name} ` });
    expect(r.statusCode).toBe(204);

    expect(await t.meta.accounts.findById(owner.accountId)).toBeUndefined();
    expect(await t.meta.properties.listByAccount(owner.accountId)).toEqual([]);
    expect(await t.events.events(site)).toHaveLength(0);
    expect(await t.events.events(site2)).toHaveLength(0);
    const left = async (table: "goals" | "shared_links" | "report_schedules") =>
      (await t.meta.db.selectFrom(table).select("id").where("property_id", "=", propId).execute()).length;
    expect(await left("goals")).toBe(0);
    expect(await left("shared_links")).toBe(0);
    expect(await left("report_schedules")).toBe(0);
    const rows = async (table: "memberships" | "invitations" | "api_keys" | "subscriptions") =>
      (await t.meta.db.selectFrom(table).select("account_id").where("account_id", "=", owner.accountId).execute()).length;
    expect(await rows("memberships")).toBe(0);
    expect(await rows("invitations")).toBe(0);
    expect(await rows("api_keys")).toBe(0);
    expect(await rows("subscriptions")).toBe(0);
    expect((await call("GET", `/api/v1/stats/aggregate?property_id=${site}&period=last_7_days`, key)).statusCode).toBe(401);
    // The collector refuses the deleted properties' events from now on.
    const late = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ p: site, n: "pageview", u: "https://s.test/" }),
    });
    expect(late.headers[DROPPED_HEADER]).toBe("unknown_property");
    expect(await t.events.events(site)).toHaveLength(0);
    // The members' access is gone with it.
    const props = await t.app.inject({
      method: "POST",
      url: "/static-api/get-properties",
      headers: { authorization: `Bearer ${tokens.admin}` },
      payload: { accountId: owner.accountId },
    });
    expect(props.statusCode).toBe(403);

    // Another account and its events are untouched; the members are still users.
    expect(await t.meta.properties.findByUniqueId(otherSite)).toBeDefined();
    expect(await t.events.events(otherSite)).toHaveLength(1);
    expect(await t.meta.users.findById(ids.viewer ?? "")).toBeDefined();

    const audit = await t.meta.audit.list({ userId: owner.id });
    const line = audit.find((a) => a.action === "account.delete");
    expect(line?.account_id).toBeNull();
    expect(line?.detail).toMatchObject({ account_id: owner.accountId, name, properties: expect.arrayContaining([site, site2]) });
  });

  it("gives a member left without any account a fresh empty one at the next sign-in; others keep theirs", async () => {
    const { owner, ownerToken, ids } = await team();
    const viewer = await t.meta.users.findById(ids.viewer ?? "");
    const name = (await t.meta.accounts.findById(owner.accountId))?.name ?? "";
    const ownerAccountsBefore = await t.meta.accounts.listForUser(owner.id);
    expect(ownerAccountsBefore).toHaveLength(1);
    // The viewer also belongs to an account of their own (every test user does).
    const viewerOwn = (await t.meta.accounts.listForUser(ids.viewer ?? "")).find((a) => a.role === "owner");
    expect((await call("DELETE", `/api/v1/accounts/${owner.accountId}`, ownerToken, { confirm: name })).statusCode).toBe(204);

    // The owner's session lives on, with no account: /api/auth/me says so.
    const me = await call("GET", "/api/auth/me", ownerToken);
    expect(me.statusCode).toBe(200);
    expect(me.json().accounts).toEqual([]);
    const again = await t.login(owner.email, owner.password);
    expect(again.accountId).not.toBe(owner.accountId);
    const fresh = await t.meta.accounts.listForUser(owner.id);
    expect(fresh).toEqual([{ id: again.accountId, name: `${owner.email}'s sites`, role: "owner" }]);
    expect(await t.meta.properties.listByAccount(again.accountId)).toEqual([]);

    const viewerLogin = await t.login(viewer?.email ?? "", "a-good-long-password");
    expect(viewerLogin.accountId).toBe(viewerOwn?.id);
  });
});
