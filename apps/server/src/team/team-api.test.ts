// The Team API on PGlite and PostgreSQL, rule by rule: invitations (e-mailed link, preview,
// accept as a new user, as a signed-in user, with an existing address's password; expired, used,
// revoked, foreign-address and unknown links; throttles), members (admin vs owner, one's own role,
// the last owner, transfer, removal refusing the next call), the user's accounts (list, create,
// switch, login opening the last used) and the activity pages.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

type Who = "owner" | "admin" | "editor" | "viewer" | "stranger";
type Method = "GET" | "POST" | "PATCH" | "DELETE";

describe.each<Backend>(["pglite", "postgres"])("team API on %s", (backend) => {
  let t: TestApp;
  let acc: string;
  const ids: Partial<Record<Who, string>> = {};
  const tokens: Partial<Record<Who, string>> = {};
  let strangerAcc: string;

  beforeAll(async () => {
    t = await createTestApp(backend, { env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" } });
    const owner = await t.user(`owner-${backend}@example.com`);
    acc = owner.accountId;
    ids.owner = owner.id;
    tokens.owner = (await t.login(owner.email, owner.password)).token;
    for (const role of ["admin", "editor", "viewer"] as const) {
      const u = await t.user(`${role}-${backend}@example.com`);
      await t.meta.accounts.addMember(acc, u.id, role);
      ids[role] = u.id;
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const s = await t.user(`stranger-${backend}@example.com`);
    ids.stranger = s.id;
    strangerAcc = s.accountId;
    tokens.stranger = (await t.login(s.email, s.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: Method, url: string, who: Who | string | null = "owner", payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: who === null ? {} : { authorization: `Bearer ${who in tokens ? tokens[who as Who] : who}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const base = () => `/api/v1/accounts/${acc}`;
  /** The token of the newest invitation e-mail to `email` (the outbox keeps what would be sent). */
  const tokenFor = (email: string): string => {
    const mail = [...t.mail].reverse().find((m) => m.includes(`to=${email}`));
    const m = mail && /https:\/\/stats\.example\.com\/invite\/([A-Za-z0-9_-]+)/.exec(mail);
    if (!m?.[1]) throw new Error(`no invitation mail to ${email}`);
    return m[1];
  };
  const invite = async (email: string, role = "viewer", who: Who = "owner") => {
    const r = await call("POST", `${base()}/invitations`, who, { email, role });
    expect(r.statusCode, r.body).toBe(201);
    return { id: r.json()[0].id as string, token: tokenFor(email) };
  };

  it("invites by e-mail with a 72-hour single-use link, lists it and previews it publicly", async () => {
    const email = `New.Person-${backend}@example.com`;
    const before = Date.now();
    const r = await call("POST", `${base()}/invitations`, "admin", { email, role: "editor" });
    expect(r.statusCode, r.body).toBe(201);
    const [inv] = r.json();
    expect(inv).toMatchObject({ email, role: "editor", invited_by: { id: ids.admin }, expired: false });
    const ttl = Date.parse(inv.expires_at) - before;
    expect(ttl).toBeGreaterThan(72 * 3_600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(72 * 3_600_000 + 60_000);
    const token = tokenFor(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored hashed: the token appears nowhere in the table.
    const rows = await t.meta.db.selectFrom("invitations").selectAll().where("id", "=", inv.id).execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    const list = await call("GET", `${base()}/invitations`, "admin");
    expect(list.json().map((i: { id: string }) => i.id)).toContain(inv.id);
    expect(list.body).not.toContain(token);

    const preview = await call("GET", `/api/v1/invitations/${token}`, null);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ email, role: "editor", state: "valid" });
    expect((await call("GET", `/api/v1/invitations/${"x".repeat(43)}`, null)).json()).toMatchObject({
      code: "invitation_not_found",
    });
  });

  it("a new user sets a name and password, joins with the role and is signed in there", async () => {
    const email = `fresh-${backend}@example.com`;
    const { token } = await invite(email, "editor");
    const r = await call("POST", "/api/v1/invitations/accept", null, {
      token,
      name: "Fresh Person",
      password: "a-long-password-1",
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ accountId: acc, role: "editor", email });
    expect(r.cookies.map((c) => c.name)).toContain("lookout_session");
    const session = r.json().token as string;
    expect((await call("GET", `${base()}/members`, session)).statusCode).toBe(200);
    const members = (await call("GET", `${base()}/members`)).json();
    expect(members.find((m: { email: string }) => m.email === email)).toMatchObject({ name: "Fresh Person", role: "editor" });
    // Their next sign-in opens the account they joined.
    expect((await t.login(email, "a-long-password-1")).accountId).toBe(acc);
    // Single use: the link now says so, plainly.
    const again = await call("POST", "/api/v1/invitations/accept", null, { token, name: "X", password: "a-long-password-1" });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe("invitation_used");
    expect((await call("GET", `/api/v1/invitations/${token}`, null)).json().state).toBe("used");
  });

  it("says plainly when a link expired or was revoked, and a resend replaces the link", async () => {
    const expired = await invite(`late-${backend}@example.com`);
    await t.meta.db
      .updateTable("invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", expired.id)
      .execute();
    expect((await call("GET", `/api/v1/invitations/${expired.token}`, null)).json().state).toBe("expired");
    const late = await call("POST", "/api/v1/invitations/accept", null, {
      token: expired.token,
      name: "L",
      password: "a-long-password-1",
    });
    expect([late.statusCode, late.json().code]).toEqual([410, "invitation_expired"]);
    expect((await call("GET", `${base()}/invitations`)).json().find((i: { id: string }) => i.id === expired.id).expired).toBe(
      true,
    );

    // Resending gives a new link valid again; the old one stops working.
    const resent = await call("POST", `${base()}/invitations/${expired.id}/resend`, "admin");
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().expired).toBe(false);
    const fresh = tokenFor(`late-${backend}@example.com`);
    expect(fresh).not.toBe(expired.token);
    expect((await call("GET", `/api/v1/invitations/${expired.token}`, null)).statusCode).toBe(404);
    expect((await call("GET", `/api/v1/invitations/${fresh}`, null)).json().state).toBe("valid");

    const revoked = await invite(`gone-${backend}@example.com`);
    expect((await call("DELETE", `${base()}/invitations/${revoked.id}`, "admin")).statusCode).toBe(204);
    expect((await call("GET", `/api/v1/invitations/${revoked.token}`, null)).json().state).toBe("revoked");
    const r = await call("POST", "/api/v1/invitations/accept", null, {
      token: revoked.token,
      name: "G",
      password: "a-long-password-1",
    });
    expect([r.statusCode, r.json().code]).toEqual([410, "invitation_revoked"]);
    expect((await call("GET", `${base()}/invitations`)).json().map((i: { id: string }) => i.id)).not.toContain(revoked.id);
    // Another account's invitation id answers like an unknown one.
    expect((await call("DELETE", `/api/v1/accounts/${strangerAcc}/invitations/${revoked.id}`, "stranger")).statusCode).toBe(404);
  });

  it("refuses an invitation for another address to a signed-in user; the invited user accepts signed in", async () => {
    const carol = await t.user(`carol-${backend}@example.com`);
    const carolToken = (await t.login(carol.email, carol.password)).token;
    const { token } = await invite(carol.email, "viewer");
    const wrong = await call("POST", "/api/v1/invitations/accept", "stranger", { token });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: "invitation_email_mismatch" });
    expect(wrong.json().message).toContain(carol.email);
    expect(await t.meta.accounts.roleOf(ids.stranger!, acc)).toBeNull();

    const ok = await call("POST", "/api/v1/invitations/accept", carolToken, { token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ accountId: acc, account_name: expect.any(String), role: "viewer" });
    expect(await t.meta.accounts.roleOf(carol.id, acc)).toBe("viewer");
    // Carol's own account is still hers.
    expect(await t.meta.accounts.roleOf(carol.id, carol.accountId)).toBe("owner");
  });

  it("an existing address not signed in: asks to sign in, or its own password signs in and joins", async () => {
    const dave = await t.user(`dave-${backend}@example.com`);
    const { token } = await invite(dave.email, "admin", "owner");
    const bare = await call("POST", "/api/v1/invitations/accept", null, { token });
    expect([bare.statusCode, bare.json().code]).toEqual([401, "invitation_sign_in_required"]);
    const bad = await call("POST", "/api/v1/invitations/accept", null, { token, name: "D", password: "not-daves-password" });
    expect([bad.statusCode, bad.json().code]).toEqual([401, "invalid_credentials"]);
    expect(await t.meta.accounts.roleOf(dave.id, acc)).toBeNull();
    const good = await call("POST", "/api/v1/invitations/accept", null, { token, password: dave.password });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ accountId: acc, role: "admin", accountId2: dave.id });
    // Dave's name is untouched: an invitation never renames an existing user.
    expect((await t.meta.users.findById(dave.id))?.name).toBe("");
  });

  it("answers 400 naming the field for bad invitation input, and never 500", async () => {
    for (const body of [
      { email: "nope", role: "viewer" },
      { email: "a@b.test", role: "god" },
      { emails: [], role: "viewer" },
    ]) {
      const r = await call("POST", `${base()}/invitations`, "owner", body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    const r = await call("POST", "/api/v1/invitations/accept", null, { token: "a\u0000b".repeat(10) });
    expect(r.statusCode).toBe(400);
    const short = await call("POST", "/api/v1/invitations/accept", null, {
      token: "x".repeat(43),
      name: "N",
      password: "short",
    });
    expect(short.statusCode).toBe(400);
  });

  it("lets admins manage members below owner only, and owners everyone", async () => {
    const u = await t.user(`member-${backend}@example.com`);
    await t.meta.accounts.addMember(acc, u.id, "viewer");
    const member = (id: string) => `${base()}/members/${id}`;
    const promote = await call("PATCH", member(u.id), "admin", { role: "editor" });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(promote.json()).toMatchObject({ user_id: u.id, role: "editor" });
    // Admins cannot make owners, nor change or remove an owner, nor invite owners.
    expect((await call("PATCH", member(u.id), "admin", { role: "owner" })).statusCode).toBe(403);
    expect((await call("PATCH", member(ids.owner!), "admin", { role: "viewer" })).statusCode).toBe(403);
    expect((await call("DELETE", member(ids.owner!), "admin")).statusCode).toBe(403);
    expect((await call("POST", `${base()}/invitations`, "admin", { email: "o@x.test", role: "owner" })).statusCode).toBe(403);
    // Editors and viewers manage nobody.
    expect((await call("PATCH", member(u.id), "editor", { role: "viewer" })).statusCode).toBe(403);
    expect((await call("DELETE", member(u.id), "viewer")).statusCode).toBe(403);
    // Nobody changes their own role this way.
    const self = await call("PATCH", member(ids.admin!), "admin", { role: "owner" });
    expect(self.statusCode).toBe(403);
    expect((await call("PATCH", member(ids.owner!), "owner", { role: "admin" })).statusCode).toBe(403);
    // Owners may make owners; unknown and foreign member ids are 404 and 403.
    expect((await call("PATCH", member(u.id), "owner", { role: "owner" })).json().role).toBe("owner");
    expect((await call("PATCH", member(u.id), "owner", { role: "viewer" })).json().role).toBe("viewer");
    expect((await call("PATCH", member(ids.stranger!), "owner", { role: "viewer" })).statusCode).toBe(404);
    expect((await call("PATCH", `/api/v1/accounts/${strangerAcc}/members/${u.id}`, "owner", { role: "viewer" })).statusCode).toBe(
      403,
    );
    const audit = await t.meta.audit.list({ limit: 20 });
    expect(audit.filter((a) => a.action === "member.role_change").length).toBeGreaterThanOrEqual(3);
  });

  it("keeps at least one owner: the last owner cannot leave, be removed or demoted (409)", async () => {
    const solo = await t.user(`solo-${backend}@example.com`);
    const soloToken = (await t.login(solo.email, solo.password)).token;
    const soloBase = `/api/v1/accounts/${solo.accountId}`;
    const leave = await call("POST", `${soloBase}/leave`, soloToken);
    expect([leave.statusCode, leave.json().code]).toEqual([409, "last_owner"]);
    const selfRemove = await call("DELETE", `${soloBase}/members/${solo.id}`, soloToken);
    expect(selfRemove.statusCode).toBe(409);
    expect(await t.meta.members.changeRole(solo.accountId, solo.id, "admin")).toBe("last_owner");
    expect(await t.meta.members.remove(solo.accountId, solo.id)).toBe("last_owner");

    // With a second owner, the first may leave; the second is then the last.
    const co = await t.user(`co-${backend}@example.com`);
    const coToken = (await t.login(co.email, co.password)).token;
    await t.meta.accounts.addMember(solo.accountId, co.id, "viewer");
    expect((await call("PATCH", `${soloBase}/members/${co.id}`, soloToken, { role: "owner" })).statusCode).toBe(200);
    expect((await call("POST", `${soloBase}/leave`, soloToken)).statusCode).toBe(204);
    expect(await t.meta.accounts.roleOf(solo.id, solo.accountId)).toBeNull();
    expect((await call("POST", `${soloBase}/leave`, coToken)).statusCode).toBe(409);
    expect((await call("GET", `${soloBase}/members`, soloToken)).statusCode).toBe(403);
  });

  it("transfers ownership (owners only): the member becomes an owner, the caller an admin", async () => {
    const boss = await t.user(`boss-${backend}@example.com`);
    const bossToken = (await t.login(boss.email, boss.password)).token;
    const heir = await t.user(`heir-${backend}@example.com`);
    const heirToken = (await t.login(heir.email, heir.password)).token;
    await t.meta.accounts.addMember(boss.accountId, heir.id, "admin");
    const url = `/api/v1/accounts/${boss.accountId}/transfer-ownership`;
    expect((await call("POST", url, heirToken, { user_id: boss.id })).statusCode).toBe(403);
    expect((await call("POST", url, bossToken, { user_id: ids.stranger })).statusCode).toBe(404);
    const r = await call("POST", url, bossToken, { user_id: heir.id });
    expect(r.statusCode, r.body).toBe(200);
    const roles = Object.fromEntries(r.json().map((m: { user_id: string; role: string }) => [m.user_id, m.role]));
    expect(roles).toEqual({ [boss.id]: "admin", [heir.id]: "owner" });
    expect((await t.meta.audit.list({ limit: 5 })).some((a) => a.action === "account.transfer_ownership")).toBe(true);
  });

  it("a removed member's next call for the account is refused; their own account is untouched", async () => {
    const gone = await t.user(`removed-${backend}@example.com`);
    const goneToken = (await t.login(gone.email, gone.password)).token;
    await t.meta.accounts.addMember(acc, gone.id, "editor");
    expect((await call("GET", `${base()}/members`, goneToken)).statusCode).toBe(200);
    expect((await call("DELETE", `${base()}/members/${gone.id}`, "admin")).statusCode).toBe(204);
    expect((await call("GET", `${base()}/members`, goneToken)).statusCode).toBe(403);
    expect((await call("GET", `/api/v1/accounts/${gone.accountId}/members`, goneToken)).statusCode).toBe(200);
    expect((await call("GET", "/api/v1/accounts", goneToken)).json()).toEqual([
      { id: gone.accountId, name: expect.any(String), role: "owner" },
    ]);
  });

  it("lists, creates and switches the user's accounts; login opens the last used one", async () => {
    const pat = await t.user(`pat-${backend}@example.com`);
    const patToken = (await t.login(pat.email, pat.password)).token;
    await t.meta.accounts.addMember(acc, pat.id, "viewer");
    const list = await call("GET", "/api/v1/accounts", patToken);
    expect(list.json()).toEqual([
      { id: pat.accountId, name: expect.any(String), role: "owner" },
      { id: acc, name: expect.any(String), role: "viewer" },
    ]);
    expect((await t.login(pat.email, pat.password)).accountId).toBe(pat.accountId);
    expect((await call("POST", `${base()}/switch`, patToken)).statusCode).toBe(204);
    expect((await t.login(pat.email, pat.password)).accountId).toBe(acc);
    // Switching to an account one is not in is refused.
    expect((await call("POST", `/api/v1/accounts/${strangerAcc}/switch`, patToken)).statusCode).toBe(403);

    const created = await call("POST", "/api/v1/accounts", patToken, { name: "Side project" });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: "Side project", role: "owner" });
    expect((await t.login(pat.email, pat.password)).accountId).toBe(created.json().id);
    expect((await call("GET", "/api/v1/accounts", patToken)).json()).toHaveLength(3);
    expect((await call("POST", "/api/v1/accounts", patToken, { name: "" })).statusCode).toBe(400);
  });

  it("an API key only reads its one account: no writes, no other account named", async () => {
    const key = (await t.meta.apiKeys.create({ userId: ids.viewer!, accountId: acc, name: "k" })).key;
    const me = await call("GET", "/api/auth/me", key);
    expect(me.statusCode).toBe(200);
    expect(me.json().accounts.map((a: { id: string }) => a.id)).toEqual([acc]);
    expect((await call("GET", "/api/v1/accounts", key)).json().map((a: { id: string }) => a.id)).toEqual([acc]);
    expect((await call("GET", `${base()}/members`, key)).statusCode).toBe(200);
    for (const [method, url] of [
      ["POST", `${base()}/leave`],
      ["POST", `${base()}/switch`],
      ["POST", "/api/v1/accounts"],
    ] as const) {
      expect(
        (await call(method, url, key, method === "POST" && url.endsWith("accounts") ? { name: "x" } : undefined)).statusCode,
      ).toBe(403);
    }
    expect(await t.meta.accounts.roleOf(ids.viewer!, acc)).toBe("viewer");
  });

  it("pages through the account's activity, newest first, for admins", async () => {
    const toggler = await t.user(`toggle-${backend}@example.com`);
    await t.meta.accounts.addMember(acc, toggler.id, "viewer");
    // Enough lines for two pages, whatever ran before.
    for (let i = 0; i < 26; i++) {
      const role = i % 2 === 0 ? "editor" : "viewer";
      expect((await call("PATCH", `${base()}/members/${toggler.id}`, "admin", { role })).statusCode).toBe(200);
    }
    const first = await call("GET", `${base()}/activity`, "admin");
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page.results.length).toBe(25);
    expect(page.next_cursor).toMatch(/^\d+$/);
    expect(page.results[0].created_at >= page.results[24].created_at).toBe(true);
    const descriptions = page.results.map((r: { description: string }) => r.description).join("\n");
    expect(descriptions).toMatch(/changed .* role from|removed |invited /);
    const second = (await call("GET", `${base()}/activity?cursor=${page.next_cursor}`, "admin")).json();
    expect(Number(second.results[0].id)).toBeLessThan(Number(page.results[24].id));
    expect((await call("GET", `${base()}/activity`, "viewer")).statusCode).toBe(403);
    expect((await call("GET", `${base()}/activity?cursor=abc`, "admin")).statusCode).toBe(400);
    expect((await call("GET", `/api/v1/accounts/${strangerAcc}/activity`, "admin")).statusCode).toBe(403);
  });

  it("throttles invitations per inviter (a batch over the limit sends nothing)", async () => {
    const inviter = await t.user(`busy-${backend}@example.com`);
    const token = (await t.login(inviter.email, inviter.password)).token;
    const batch = (n: number) => Array.from({ length: 20 }, (_, i) => `b${n}-${i}-${backend}@example.com`);
    const url = `/api/v1/accounts/${inviter.accountId}/invitations`;
    expect((await call("POST", url, token, { emails: batch(1), role: "viewer" })).statusCode).toBe(201);
    expect((await call("POST", url, token, { emails: batch(2), role: "viewer" })).statusCode).toBe(201);
    const before = t.mail.length;
    const r = await call("POST", url, token, { emails: batch(3), role: "viewer" });
    expect(r.statusCode).toBe(429);
    expect(r.headers["retry-after"]).toBeDefined();
    expect(t.mail.length).toBe(before);
  });
});

describe.each<Backend>(["pglite", "postgres"])("team on %s: a removed member's sockets", (backend) => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const open = (token: string, accountId: string) =>
    new Promise<{ ws: WebSocket; closed: Promise<number> }>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
      ws.on("message", (d) => {
        if (JSON.parse(String(d)).type === "initial_customers") resolve({ ws, closed });
      });
      ws.on("open", () => ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: accountId } })));
      ws.on("error", reject);
    });

  it("close within 5 s of the removal; their socket on their own account stays open", async () => {
    const owner = await t.user("sock-owner@example.com");
    const ownerToken = (await t.login(owner.email, owner.password)).token;
    const m = await t.user("sock-member@example.com");
    await t.meta.accounts.addMember(owner.accountId, m.id, "viewer");
    const mToken = (await t.login(m.email, m.password)).token;
    const team = await open(mToken, owner.accountId);
    const own = await open(mToken, m.accountId);
    const removed = Date.now();
    const r = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/accounts/${owner.accountId}/members/${m.id}`,
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(r.statusCode).toBe(204);
    expect(await team.closed).toBe(4403);
    expect(Date.now() - removed).toBeLessThan(5000);
    expect(own.ws.readyState).toBe(WebSocket.OPEN);
    own.ws.close();
  });
});
