// /api/v1/me: name and e-mail (a new e-mail needs the current password, unique case-insensitively),
// password change (current password, the rules of reset, signs out the other sessions only),
// sessions (device, address, last seen, this one marked; revoking one, only one's own), each
// throttled where a password is checked, audited, and closed to API keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

type User = Awaited<ReturnType<TestApp["user"]>>;

const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0";

describe.each<Backend>(["pglite", "postgres"])("me on %s", (backend) => {
  let t: TestApp;
  let n = 0;
  let user: User;
  let token: string;

  const call = (method: "GET" | "PATCH" | "POST" | "DELETE", url: string, tok: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tok}` },
      ...(payload ? { payload: payload as object } : {}),
    });

  /** Signs in with a browser's user agent from an address (the socket's peer, no proxy trusted). */
  async function loginFrom(email: string, password: string, ua: string, ip: string): Promise<string> {
    const r = await t.app.inject({
      method: "POST",
      url: "/wp-json/custom/v1/login",
      headers: { "user-agent": ua },
      remoteAddress: ip,
      payload: { username: email, password },
    });
    expect(r.statusCode).toBe(200);
    return r.json().token;
  }

  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  beforeEach(async () => {
    n += 1;
    user = await t.user(`user${n}@example.com`);
    token = await loginFrom(user.email, user.password, CHROME_MAC, "203.0.113.7");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("changes the name without a password, and shows it in /api/auth/me", async () => {
    const r = await call("PATCH", "/api/v1/me", token, { name: "  Ada Lovelace " });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ id: user.id, email: user.email, name: "Ada Lovelace" });
    expect((await call("GET", "/api/auth/me", token)).json().user.name).toBe("Ada Lovelace");
    const audit = await t.meta.audit.list({ userId: user.id });
    expect(audit.some((a) => a.action === "user.update")).toBe(true);
  });

  it("changes the e-mail only with the current password; the new one signs in", async () => {
    const without = await call("PATCH", "/api/v1/me", token, { email: `new${n}@example.com` });
    expect(without.statusCode).toBe(400);
    expect(without.json().details[0].path).toBe("current_password");
    const wrong = await call("PATCH", "/api/v1/me", token, {
      email: `new${n}@example.com`,
      current_password: "not-the-password",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: "wrong_password", details: [{ path: "current_password" }] });
    expect((await t.meta.users.findById(user.id))?.email).toBe(user.email);
    const resetLink = await t.meta.resets.create(user.id);
    const ok = await call("PATCH", "/api/v1/me", token, { email: ` New${n}@Example.com `, current_password: user.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe(`New${n}@Example.com`);
    // A reset link mailed to the old address no longer works.
    expect(await t.meta.resets.consume(resetLink)).toBeNull();
    await loginFrom(`new${n}@example.com`, user.password, CHROME_MAC, "203.0.113.7");
    const old = await t.app.inject({
      method: "POST",
      url: "/wp-json/custom/v1/login",
      payload: { username: user.email, password: user.password },
    });
    expect(old.statusCode).toBe(401);
    // The same address in other letters is no change of identity: no password needed.
    const recase = await call("PATCH", "/api/v1/me", token, { email: `new${n}@example.com` });
    expect(recase.statusCode).toBe(200);
  });

  it("answers 409 for an e-mail another user has, in any letter case", async () => {
    const other = await t.user(`taken${n}@example.com`);
    const r = await call("PATCH", "/api/v1/me", token, { email: other.email.toUpperCase(), current_password: user.password });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: "email_taken", details: [{ path: "email" }] });
  });

  it("refuses bad input per field", async () => {
    const cases: [string, unknown, string][] = [
      ["PATCH", { email: "not an e-mail", current_password: "x" }, "email"],
      ["PATCH", { name: "x".repeat(101) }, "name"],
      ["PATCH", { name: "a\u0000b" }, "name"],
      ["PATCH", {}, "name"],
      ["PATCH", { email: "a@b.test", current_password: "" }, "current_password"],
      ["POST", { new_password: "a-good-long-password-2" }, "current_password"],
      ["POST", { current_password: "x", new_password: "short" }, "new_password"],
      ["POST", { current_password: "x", new_password: "y".repeat(257) }, "new_password"],
      ["POST", { current_password: "x" }, "new_password"],
    ];
    for (const [method, payload, field] of cases) {
      const url = method === "PATCH" ? "/api/v1/me" : "/api/v1/me/password";
      const r = await call(method as "PATCH" | "POST", url, token, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        r.json().details.map((d: { path: string }) => d.path),
        JSON.stringify(payload),
      ).toContain(field);
    }
    expect((await call("DELETE", "/api/v1/me/sessions/not-an-id", token)).statusCode).toBe(400);
  });

  it("changes the password: the other sessions end, this one stays, the new password signs in", async () => {
    const other = await loginFrom(user.email, user.password, FIREFOX_WIN, "198.51.100.9");
    const wrong = await call("POST", "/api/v1/me/password", token, {
      current_password: "wrong-password",
      new_password: "a-brand-new-password",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("wrong_password");
    expect((await call("GET", "/api/v1/me/sessions", other)).statusCode).toBe(200);

    const r = await call("POST", "/api/v1/me/password", token, {
      current_password: user.password,
      new_password: "a-brand-new-password",
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().revoked_sessions).toBe(1);
    expect((await call("GET", "/api/v1/me/sessions", other)).statusCode).toBe(401);
    expect((await call("GET", "/api/v1/me/sessions", token)).statusCode).toBe(200);
    const oldLogin = await t.app.inject({
      method: "POST",
      url: "/wp-json/custom/v1/login",
      payload: { username: user.email, password: user.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    await loginFrom(user.email, "a-brand-new-password", CHROME_MAC, "203.0.113.7");
    const audit = await t.meta.audit.list({ userId: user.id });
    expect(audit.some((a) => a.action === "password.change")).toBe(true);
  });

  it("throttles wrong current passwords per user (429), and a right one is then refused too", async () => {
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await call("POST", "/api/v1/me/password", token, { current_password: `wrong-${i}`, new_password: "a-brand-new-password" })
      ).statusCode;
    }
    expect(last).toBe(429);
    const right = await call("POST", "/api/v1/me/password", token, {
      current_password: user.password,
      new_password: "a-brand-new-password",
    });
    expect(right.statusCode).toBe(429);
    expect(right.headers["retry-after"]).toBeDefined();
  });

  it("lists live sessions with device, address and last seen, marking this one", async () => {
    await loginFrom(user.email, user.password, FIREFOX_WIN, "198.51.100.9");
    const dead = await loginFrom(user.email, user.password, "curl/8.4.0", "192.0.2.1");
    await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { authorization: `Bearer ${dead}` } });
    const r = await call("GET", "/api/v1/me/sessions", token);
    expect(r.statusCode).toBe(200);
    const list = r.json() as { device: string; address: string; current: boolean; last_seen_at: string }[];
    expect(list).toHaveLength(2);
    const mine = list.find((s) => s.current);
    expect(mine).toMatchObject({ device: "Chrome on macOS", address: "203.0.113.7" });
    expect(Date.now() - Date.parse(mine?.last_seen_at ?? "")).toBeLessThan(60_000);
    expect(list.find((s) => !s.current)).toMatchObject({ device: "Firefox on Windows", address: "198.51.100.9", current: false });
    // Another user's sessions are not in the list.
    const other = await t.user(`lister${n}@example.com`);
    await loginFrom(other.email, other.password, FIREFOX_WIN, "192.0.2.50");
    expect((await call("GET", "/api/v1/me/sessions", token)).json()).toHaveLength(2);
  });

  it("revokes one of one's own sessions (its token then answers 401), and 404s another user's", async () => {
    const other = await loginFrom(user.email, user.password, FIREFOX_WIN, "198.51.100.9");
    const list = (await call("GET", "/api/v1/me/sessions", token)).json() as { id: string; current: boolean }[];
    const target = list.find((s) => !s.current)?.id ?? "";
    const stranger = await t.user(`stranger${n}@example.com`);
    const strangerToken = await loginFrom(stranger.email, stranger.password, CHROME_MAC, "192.0.2.77");
    const foreign = await call("DELETE", `/api/v1/me/sessions/${target}`, strangerToken);
    const unknown = await call("DELETE", "/api/v1/me/sessions/00000000-0000-4000-8000-000000000000", strangerToken);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await call("GET", "/api/v1/me/sessions", other)).statusCode).toBe(200);

    expect((await call("DELETE", `/api/v1/me/sessions/${target}`, token)).statusCode).toBe(204);
    expect((await call("GET", "/api/v1/me/sessions", other)).statusCode).toBe(401);
    expect((await call("GET", "/api/auth/me", other)).statusCode).toBe(401);
    expect((await call("GET", "/api/v1/me/sessions", token)).statusCode).toBe(200);
    expect((await call("DELETE", `/api/v1/me/sessions/${target}`, token)).statusCode).toBe(404);
    const audit = await t.meta.audit.list({ userId: user.id });
    expect(audit.some((a) => a.action === "session.revoke" && a.detail.session_id === target)).toBe(true);
  });

  it("needs the XSRF header with the session cookie, and refuses API keys", async () => {
    const s = await t.login(user.email, user.password);
    const noXsrf = await t.app.inject({ method: "PATCH", url: "/api/v1/me", cookies: s.cookies, payload: { name: "x" } });
    expect(noXsrf.statusCode).toBe(403);
    const withXsrf = await t.app.inject({
      method: "PATCH",
      url: "/api/v1/me",
      cookies: s.cookies,
      headers: { "x-xsrf-token": s.cookies["XSRF-TOKEN"] ?? "" },
      payload: { name: "Cookie" },
    });
    expect(withXsrf.statusCode).toBe(200);
    const { key } = await t.meta.apiKeys.create({ userId: user.id, accountId: user.accountId, name: "k" });
    expect((await call("PATCH", "/api/v1/me", key, { name: "robot" })).statusCode).toBe(403);
    expect(
      (await call("POST", "/api/v1/me/password", key, { current_password: user.password, new_password: "a-brand-new-password" }))
        .statusCode,
    ).toBe(403);
    expect((await call("GET", "/api/v1/me/sessions", key)).statusCode).toBe(403);
    expect((await call("DELETE", "/api/v1/me/sessions/00000000-0000-4000-8000-000000000000", key)).statusCode).toBe(403);
    expect((await call("GET", "/api/v1/me/sessions", "")).statusCode).toBe(401);
  });
});
