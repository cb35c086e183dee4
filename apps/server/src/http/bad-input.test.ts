// Bad input never yields a 500, a stack trace or SQL: each gets a clear 4xx {message, code},
// every response carries the security headers, and the server keeps serving afterwards.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp("pglite");
  await t.user("survivor@example.com", "survivor-password");
});
afterAll(async () => {
  await t?.close();
});

const LOGIN = "/wp-json/custom/v1/login";

const cases: { name: string; url: string; contentType?: string; payload: string; status: number; code: string }[] = [
  { name: "malformed JSON", url: LOGIN, contentType: "application/json", payload: "{bad", status: 400, code: "invalid_json" },
  { name: "empty JSON body", url: LOGIN, contentType: "application/json", payload: "", status: 400, code: "invalid_json" },
  {
    name: "wrong content type",
    url: LOGIN,
    contentType: "application/xml",
    payload: "<a/>",
    status: 415,
    code: "unsupported_media_type",
  },
  { name: "missing fields", url: LOGIN, contentType: "application/json", payload: "{}", status: 400, code: "invalid_request" },
  { name: "array body", url: LOGIN, contentType: "application/json", payload: "[1,2]", status: 400, code: "invalid_request" },
  {
    name: "wrong field types",
    url: LOGIN,
    contentType: "application/json",
    payload: '{"username":1,"password":true}',
    status: 400,
    code: "invalid_request",
  },
  {
    name: "over-long password",
    url: LOGIN,
    contentType: "application/json",
    payload: JSON.stringify({ username: "a@b.c", password: "x".repeat(300) }),
    status: 400,
    code: "invalid_request",
  },
  {
    name: "oversized body",
    url: LOGIN,
    contentType: "application/json",
    payload: JSON.stringify({ username: "a", password: "x".repeat(70_000) }),
    status: 413,
    code: "payload_too_large",
  },
  {
    name: "recover without e-mail",
    url: "/wp-json/custom/v1/recover-password",
    contentType: "application/json",
    payload: '{"user_email":""}',
    status: 400,
    code: "invalid_request",
  },
  {
    name: "reset with a junk token",
    url: "/api/auth/reset-password",
    contentType: "application/json",
    payload: '{"token":"x","password":"long-enough-pw"}',
    status: 400,
    code: "invalid_request",
  },
  {
    name: "SQL in the e-mail",
    url: LOGIN,
    contentType: "application/json",
    payload: JSON.stringify({ username: "' or 1=1; drop table users; --", password: "x" }),
    status: 401,
    code: "invalid_credentials",
  },
  { name: "unknown API route", url: "/api/nope", contentType: "application/json", payload: "{}", status: 404, code: "not_found" },
];

describe("bad input table", () => {
  it.each(cases)("$name -> $status $code", async (c) => {
    const r = await t.app.inject({
      method: "POST",
      url: c.url,
      headers: c.contentType ? { "content-type": c.contentType } : {},
      payload: c.payload,
    });
    expect(r.statusCode).toBe(c.status);
    const body = r.json();
    expect(body).toMatchObject({ code: c.code, message: expect.any(String) });
    expect(r.body).not.toMatch(/at \w+ \(|node_modules|select |insert into/i);
    expect(r.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(r.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(r.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("lets pages open sockets to the app's own origin only (connect-src)", async () => {
    const r = await t.app.inject({ url: "/login", headers: { host: "stats.example.com:8443" } });
    const connect = String(r.headers["content-security-policy"])
      .split("; ")
      .find((d) => d.startsWith("connect-src"));
    expect(connect).toBe("connect-src 'self' ws://stats.example.com:8443 wss://stats.example.com:8443");
    const forged = await t.app.inject({ url: "/login", headers: { host: "a b;script-src *" } });
    expect(String(forged.headers["content-security-policy"])).toContain("connect-src 'self'; ");
    expect(String(forged.headers["content-security-policy"])).not.toContain("script-src *");
  });

  it("survives 2 000 generated hostile bodies and still signs in", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify({ username: v, password: v })),
        ),
        async (payload) => {
          const r = await t.app.inject({
            method: "POST",
            url: LOGIN,
            headers: { "content-type": "application/json" },
            payload,
            remoteAddress: "10.1.2.3",
          });
          expect(r.statusCode).toBeGreaterThanOrEqual(400);
          expect(r.statusCode).toBeLessThan(500);
        },
      ),
      { numRuns: 2000 },
    );
    const ok = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: { username: "survivor@example.com", password: "survivor-password" },
    });
    expect(ok.statusCode).toBe(200);
  });
});
