// The sign-in calls of SPEC.md §7 end to end through the HTTP layer, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

const LOGIN = "/wp-json/custom/v1/login";
const RECOVER = "/wp-json/custom/v1/recover-password";
const RESET = "/api/auth/reset-password";
const PROPS = "/static-api/get-properties";

describe.each<Backend>(["pglite", "postgres"])("auth API on %s", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("logs in with e-mail and password, in any letter case, and sets the session and XSRF cookies", async () => {
    const u = await t.user("Login@Example.com");
    const r = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: { username: "login@EXAMPLE.com", password: u.password },
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toEqual({ token: expect.any(String), accountId: u.accountId, accountId2: u.id, email: "Login@Example.com" });
    expect(body.token.length).toBeGreaterThanOrEqual(43);
    const session = r.cookies.find((c) => c.name === "lookout_session");
    const xsrf = r.cookies.find((c) => c.name === "XSRF-TOKEN");
    expect(session).toMatchObject({ value: body.token, httpOnly: true, sameSite: "Lax", path: "/" });
    expect(xsrf?.httpOnly).toBeUndefined();
    expect(xsrf?.value.length).toBeGreaterThan(20);
  });

  it("answers wrong passwords and unknown e-mails identically with 401 {message}", async () => {
    const u = await t.user("wrong@example.com");
    const a = await t.app.inject({ method: "POST", url: LOGIN, payload: { username: u.email, password: "nope-nope-nope" } });
    const b = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: { username: "ghost@example.com", password: "nope-nope-nope" },
    });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json()).toEqual(b.json());
    expect(a.json().message).toBe("Invalid e-mail address or password.");
  });

  it("throttles sign-in per e-mail and address with 429 and Retry-After", async () => {
    const u = await t.user("throttle@example.com");
    const tries = [];
    for (let i = 0; i < 11; i++) {
      tries.push(
        await t.app.inject({
          method: "POST",
          url: LOGIN,
          remoteAddress: "10.9.0.1",
          payload: { username: u.email, password: "bad-password-x" },
        }),
      );
    }
    expect(tries.slice(0, 10).every((r) => r.statusCode === 401)).toBe(true);
    const last = tries[10]!;
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect(last.json().message).toMatch(/Too many attempts/);
    // Even the right password waits out the window from that address: the throttle runs before
    // verification. (Other addresses are not blocked: auth-hardening.test.ts.)
    const right = await t.app.inject({
      method: "POST",
      url: LOGIN,
      remoteAddress: "10.9.0.1",
      payload: { username: u.email, password: u.password },
    });
    expect(right.statusCode).toBe(429);
  });

  it("throttles sign-in per IP across e-mails", async () => {
    let status = 0;
    for (let i = 0; i < 101 && status !== 429; i++) {
      const r = await t.app.inject({
        method: "POST",
        url: LOGIN,
        remoteAddress: "10.77.0.1",
        payload: { username: `nobody${i}@example.com`, password: "x" },
      });
      status = r.statusCode;
    }
    expect(status).toBe(429);
  });

  it("sends a single-use reset link to known addresses and answers the same for unknown ones", async () => {
    const u = await t.user("reset@example.com");
    // Without LOOKOUT_PUBLIC_URL links use the address of an owner's first sign-in.
    const session = await t.login(u.email, u.password);
    const before = t.mail.length;
    const known = await t.app.inject({ method: "POST", url: RECOVER, payload: { user_email: "RESET@example.com" } });
    const unknown = await t.app.inject({ method: "POST", url: RECOVER, payload: { user_email: "nobody@example.com" } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(t.mail.length).toBe(before + 1);
    const token = /reset-password\?token=([\w-]+)/.exec(t.mail.at(-1) ?? "")?.[1];
    expect(token).toBeDefined();

    const weak = await t.app.inject({ method: "POST", url: RESET, payload: { token, password: "short" } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/at least 10/);

    const ok = await t.app.inject({ method: "POST", url: RESET, payload: { token, password: "brand-new-password" } });
    expect(ok.statusCode).toBe(200);
    const again = await t.app.inject({ method: "POST", url: RESET, payload: { token, password: "another-password-1" } });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("invalid_token");

    // Every other session of that user is revoked; the new password works, the old one does not.
    const props = await t.app.inject({
      method: "POST",
      url: PROPS,
      headers: { authorization: `Bearer ${session.token}` },
      payload: { accountId: u.accountId },
    });
    expect(props.statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "POST", url: LOGIN, payload: { username: u.email, password: u.password } })).statusCode,
    ).toBe(401);
    await t.login(u.email, "brand-new-password");
  });

  it("refuses an expired reset link", async () => {
    const u = await t.user("expired-reset@example.com");
    await t.login(u.email, u.password);
    await t.app.inject({ method: "POST", url: RECOVER, payload: { user_email: u.email } });
    const token = /reset-password\?token=([\w-]+)/.exec(t.mail.at(-1) ?? "")?.[1];
    expect(token).toBeDefined();
    await t.meta.db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", u.id)
      .execute();
    const r = await t.app.inject({ method: "POST", url: RESET, payload: { token, password: "brand-new-password" } });
    expect(r.statusCode).toBe(400);
  });

  it("POST /api/auth/logout revokes the token server-side", async () => {
    const u = await t.user("logout@example.com");
    const s = await t.login(u.email, u.password);
    const auth = { authorization: `Bearer ${s.token}` };
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: auth })).statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: auth })).statusCode).toBe(401);
  });

  it("a full-page GET /logout revokes the cookie session", async () => {
    const u = await t.user("logout-page@example.com");
    const s = await t.login(u.email, u.password);
    const r = await t.app.inject({ method: "GET", url: "/logout", cookies: { lookout_session: s.token } });
    expect(r.cookies.find((c) => c.name === "lookout_session")?.value).toBe("");
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { authorization: `Bearer ${s.token}` } });
    expect(me.statusCode).toBe(401);
  });

  it("GET /api/auth/me names the user and their accounts", async () => {
    const u = await t.user("me@example.com");
    const s = await t.login(u.email, u.password);
    const r = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { authorization: `Bearer ${s.token}` } });
    expect(r.json()).toEqual({
      user: { id: u.id, email: u.email, name: "" },
      accounts: [{ id: u.accountId, name: "me@example.com's sites", role: "owner" }],
    });
  });
});
