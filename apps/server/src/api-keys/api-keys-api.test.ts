// /api/v1/api-keys: admins list, create (the secret once) and revoke an account's keys; the list
// shows creator and last use; a revoked key stops working at once on the Stats API; other
// accounts' keys answer 403/404; each role against the matrix; a key cannot manage keys; audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

type User = Awaited<ReturnType<TestApp["user"]>>;

describe.each<Backend>(["pglite", "postgres"])("API keys on %s", (backend) => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let aliceToken: string;
  let bobToken: string;
  let site: string;
  const roleTokens: Record<string, string> = {};

  const call = (method: "GET" | "POST" | "DELETE", url: string, token: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload: payload as object } : {}),
    });
  const stats = (key: string) =>
    call("GET", `/api/v1/stats/aggregate?property_id=${site}&period=custom&date=2024-03-05,2024-03-07`, key);

  beforeAll(async () => {
    t = await createTestApp(backend);
    alice = await t.user("alice@example.com");
    bob = await t.user("bob@example.com");
    await t.meta.users.setName(alice.id, "Alice Admin");
    site = await t.property(alice.accountId, "https://alice.test");
    await t.property(bob.accountId, "https://bob.test");
    aliceToken = (await t.login(alice.email, alice.password)).token;
    bobToken = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor", "admin", "owner"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      roleTokens[role] = (await t.login(u.email, u.password)).token;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates a key whose secret is shown once, stored hashed, listed with its creator", async () => {
    const r = await call("POST", "/api/v1/api-keys", aliceToken, { accountId: alice.accountId, name: "  CI export  " });
    expect(r.statusCode).toBe(201);
    const created = r.json();
    expect(created).toMatchObject({
      name: "CI export",
      account_id: alice.accountId,
      last_used_at: null,
      creator: { id: alice.id, name: "Alice Admin", email: alice.email },
    });
    expect(created.key).toMatch(/^lk_[\w-]{40,}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const row = await t.meta.db.selectFrom("api_keys").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(created.key);
    const list = await call("GET", `/api/v1/api-keys?accountId=${alice.accountId}`, aliceToken);
    expect(list.statusCode).toBe(200);
    const listed = list.json().find((k: { id: string }) => k.id === created.id);
    expect(listed).toEqual({ ...created, key: undefined, created_at: created.created_at });
    expect(JSON.stringify(list.json())).not.toContain(created.key);
    const audit = await t.meta.audit.list({ userId: alice.id });
    expect(audit.some((a) => a.action === "api_key.create" && a.account_id === alice.accountId)).toBe(true);
  });

  it("works on the Stats API, records its last use, and stops at once when revoked", async () => {
    const created = (await call("POST", "/api/v1/api-keys", aliceToken, { accountId: alice.accountId, name: "script" })).json();
    expect((await stats(created.key)).statusCode).toBe(200);
    const used = (await call("GET", `/api/v1/api-keys?accountId=${alice.accountId}`, aliceToken))
      .json()
      .find((k: { id: string }) => k.id === created.id);
    expect(used.last_used_at).not.toBeNull();
    expect(Date.now() - Date.parse(used.last_used_at)).toBeLessThan(60_000);
    // A second use within the minute writes nothing.
    await stats(created.key);
    const again = await t.meta.db.selectFrom("api_keys").select("last_used_at").where("id", "=", created.id).executeTakeFirst();
    expect(again?.last_used_at?.toISOString()).toBe(used.last_used_at);

    const del = await call("DELETE", `/api/v1/api-keys/${created.id}`, aliceToken);
    expect(del.statusCode).toBe(204);
    expect((await stats(created.key)).statusCode).toBe(401);
    const list = (await call("GET", `/api/v1/api-keys?accountId=${alice.accountId}`, aliceToken)).json();
    expect(list.map((k: { id: string }) => k.id)).not.toContain(created.id);
    // Revoking twice: the key is no longer there.
    expect((await call("DELETE", `/api/v1/api-keys/${created.id}`, aliceToken)).statusCode).toBe(404);
    const audit = await t.meta.audit.list({ userId: alice.id });
    expect(audit.some((a) => a.action === "api_key.revoke" && a.detail.api_key_id === created.id)).toBe(true);
  });

  it("refuses bad input per field", async () => {
    const cases: [unknown, string][] = [
      [{ accountId: alice.accountId }, "name"],
      [{ accountId: alice.accountId, name: "   " }, "name"],
      [{ accountId: alice.accountId, name: "x".repeat(101) }, "name"],
      [{ accountId: alice.accountId, name: "a\u0000b" }, "name"],
      [{ name: "ok" }, "accountId"],
      [{ accountId: "not-an-account", name: "ok" }, "accountId"],
    ];
    for (const [payload, field] of cases) {
      const r = await call("POST", "/api/v1/api-keys", aliceToken, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().details.map((d: { path: string }) => d.path)).toContain(field);
    }
    const q = await call("GET", "/api/v1/api-keys?accountId=nope", aliceToken);
    expect(q.statusCode).toBe(400);
    expect(q.json().message).toContain("accountId");
    expect((await call("DELETE", "/api/v1/api-keys/not-a-uuid", aliceToken)).statusCode).toBe(400);
  });

  it("answers 403 for another account and 404 for another account's key (user A against B)", async () => {
    expect((await call("GET", `/api/v1/api-keys?accountId=${bob.accountId}`, aliceToken)).statusCode).toBe(403);
    expect((await call("POST", "/api/v1/api-keys", aliceToken, { accountId: bob.accountId, name: "x" })).statusCode).toBe(403);
    const bobKey = (await call("POST", "/api/v1/api-keys", bobToken, { accountId: bob.accountId, name: "bob's" })).json();
    const foreign = await call("DELETE", `/api/v1/api-keys/${bobKey.id}`, aliceToken);
    const unknown = await call("DELETE", "/api/v1/api-keys/00000000-0000-4000-8000-000000000000", aliceToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await call("GET", "/api/v1/stats/aggregate?property_id=x", bobKey.key)).statusCode).not.toBe(401);
  });

  it("lets admins and owners manage keys, and refuses viewers and editors (403)", async () => {
    const victim = (await call("POST", "/api/v1/api-keys", aliceToken, { accountId: alice.accountId, name: "victim" })).json();
    for (const [role, allowed] of [
      ["viewer", false],
      ["editor", false],
      ["admin", true],
      ["owner", true],
    ] as const) {
      const token = roleTokens[role] ?? "";
      const list = await call("GET", `/api/v1/api-keys?accountId=${alice.accountId}`, token);
      const create = await call("POST", "/api/v1/api-keys", token, { accountId: alice.accountId, name: `by ${role}` });
      expect(list.statusCode, role).toBe(allowed ? 200 : 403);
      expect(create.statusCode, role).toBe(allowed ? 201 : 403);
      if (!allowed) expect((await call("DELETE", `/api/v1/api-keys/${victim.id}`, token)).statusCode, role).toBe(403);
      else expect((await call("DELETE", `/api/v1/api-keys/${create.json().id}`, token)).statusCode, role).toBe(204);
    }
    // The victim survived the viewer's and editor's attempts.
    expect((await stats(victim.key)).statusCode).toBe(200);
  });

  it("does not let a key manage keys or the user's settings, even the key of an owner", async () => {
    const key = (await call("POST", "/api/v1/api-keys", aliceToken, { accountId: alice.accountId, name: "robot" })).json();
    expect((await call("GET", `/api/v1/api-keys?accountId=${alice.accountId}`, key.key)).statusCode).toBe(403);
    expect((await call("POST", "/api/v1/api-keys", key.key, { accountId: alice.accountId, name: "child" })).statusCode).toBe(403);
    expect((await call("DELETE", `/api/v1/api-keys/${key.id}`, key.key)).statusCode).toBe(403);
    expect((await call("GET", "/api/v1/me/sessions", key.key)).statusCode).toBe(403);
    const rename = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/accounts/${alice.accountId}`,
      headers: { authorization: `Bearer ${key.key}` },
      payload: { name: "pwned" },
    });
    expect(rename.statusCode).toBe(403);
    expect((await stats(key.key)).statusCode).toBe(200);
  });
});
