// POST /static-api/get-properties: bearer and cookie auth, expiry, revocation, cross-account 403.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

const PROPS = "/static-api/get-properties";

describe.each<Backend>(["pglite", "postgres"])("get-properties on %s", (backend) => {
  let t: TestApp;
  let alice: Awaited<ReturnType<TestApp["user"]>>;
  let bob: Awaited<ReturnType<TestApp["user"]>>;
  let aliceToken: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    alice = await t.user("alice@example.com");
    bob = await t.user("bob@example.com");
    await t.meta.properties.create({
      accountId: alice.accountId,
      websiteUrl: "https://alice.test",
      name: "Alice",
      timezone: "Europe/Berlin",
    });
    await t.meta.properties.create({ accountId: alice.accountId, websiteUrl: "", name: "Blank", timezone: "UTC" });
    await t.meta.properties.create({ accountId: bob.accountId, websiteUrl: "https://bob.test", name: "Bob", timezone: "UTC" });
    aliceToken = (await t.login(alice.email, alice.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (headers: Record<string, string>, payload: string, contentType = "application/x-www-form-urlencoded") =>
    t.app.inject({ method: "POST", url: PROPS, headers: { "content-type": contentType, ...headers }, payload });

  it("lists the account's properties for a member, form-encoded", async () => {
    const r = await call({ authorization: `Bearer ${aliceToken}` }, `accountId=${alice.accountId}`);
    expect(r.statusCode).toBe(200);
    const list = r.json();
    expect(list.map((p: { name: string }) => p.name)).toEqual(["Alice", "Blank"]);
    expect(list[0]).toMatchObject({
      unique_id: expect.stringMatching(/^[\w-]{16}$/),
      website_url: "https://alice.test",
      timezone: "Europe/Berlin",
    });
    expect(list[1].website_url).toBe("");
  });

  it("answers 403 for another user's account (user A against B's ids)", async () => {
    const r = await call({ authorization: `Bearer ${aliceToken}` }, `accountId=${bob.accountId}`);
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBeTypeOf("string");
    const unknown = await call({ authorization: `Bearer ${aliceToken}` }, "accountId=00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toEqual(r.json());
    // An id of another shape is no account at all: a 400 naming the field, before any query.
    const malformed = await call({ authorization: `Bearer ${aliceToken}` }, "accountId=does-not-exist");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "invalid_request", message: expect.stringContaining("accountId") });
  });

  it("answers 401 {message} without a token, with a bad one, and with an expired one", async () => {
    const none = await call({}, `accountId=${alice.accountId}`);
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toBe("Authentication token is missing.");
    const bad = await call({ authorization: "Bearer not-a-real-token" }, `accountId=${alice.accountId}`);
    expect(bad.statusCode).toBe(401);
    const s = await t.login(alice.email, alice.password);
    await t.meta.db
      .updateTable("auth_tokens")
      .set({ expires_at: new Date(Date.now() - 1) })
      .where("revoked_at", "is", null)
      .where("user_id", "=", alice.id)
      .execute();
    const expired = await call({ authorization: `Bearer ${s.token}` }, `accountId=${alice.accountId}`);
    expect(expired.statusCode).toBe(401);
    aliceToken = (await t.login(alice.email, alice.password)).token;
  });

  it("needs the X-XSRF-TOKEN header when authenticated by the session cookie", async () => {
    const s = await t.login(bob.email, bob.password);
    const cookie = `lookout_session=${s.cookies.lookout_session}; XSRF-TOKEN=${s.cookies["XSRF-TOKEN"]}`;
    const without = await call({ cookie }, `accountId=${bob.accountId}`);
    expect(without.statusCode).toBe(403);
    expect(without.json().code).toBe("xsrf_failed");
    const wrong = await call({ cookie, "x-xsrf-token": "forged" }, `accountId=${bob.accountId}`);
    expect(wrong.statusCode).toBe(403);
    const ok = await call({ cookie, "x-xsrf-token": s.cookies["XSRF-TOKEN"] ?? "" }, `accountId=${bob.accountId}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(1);
  });

  it("rejects a missing accountId with 400 naming the field", async () => {
    const r = await call({ authorization: `Bearer ${aliceToken}` }, "");
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: "invalid_request", message: expect.stringContaining("accountId") });
  });

  it("accepts JSON bodies too", async () => {
    const r = await call(
      { authorization: `Bearer ${aliceToken}` },
      JSON.stringify({ accountId: alice.accountId }),
      "application/json",
    );
    expect(r.statusCode).toBe(200);
  });
});
