// Hardening of the sign-in and recovery calls, end to end on PGlite and PostgreSQL: e-mailed links
// never follow a request's Host, reset links die together, cross-site posts are refused (login
// CSRF), and a stranger's failed guesses never lock the owner out.
import { hashSecret, newId, newSecret } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

// The per-e-mail limit is 1000 failures: the flood that reaches it answers fast instead of
// spending argon2 work on each guess (switched on only around that flood).
const fast = vi.hoisted(() => ({ failEveryPassword: false }));
vi.mock("./passwords.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("./passwords.js")>();
  return {
    ...real,
    verifyPassword: (hash: string, password: string) =>
      fast.failEveryPassword ? Promise.resolve(false) : real.verifyPassword(hash, password),
  };
});

const LOGIN = "/wp-json/custom/v1/login";
const RECOVER = "/wp-json/custom/v1/recover-password";
const RESET = "/api/auth/reset-password";
const LINK = /(\S+)\/reset-password\?token=([\w-]+)/;

function lastLink(t: TestApp, since: number): { base: string; token: string } | undefined {
  const m = LINK.exec(t.mail.slice(since).join("\n"));
  return m?.[1] && m[2] ? { base: m[1], token: m[2] } : undefined;
}

describe.each<Backend>(["pglite", "postgres"])("auth hardening on %s", (backend) => {
  // One app at a time: two PostgreSQL test schemas open at once confuse the migrator, which looks
  // for its lock table in every schema.
  describe("without LOOKOUT_PUBLIC_URL (the default)", () => {
    let plain: TestApp;
    beforeAll(async () => {
      plain = await createTestApp(backend);
    });
    afterAll(async () => {
      await plain?.close();
    });

    describe("e-mailed links never come from the request's Host", () => {
      it("without a public URL and before the owner signed in, sends no link at all", async () => {
        const u = await plain.user("owner@example.com");
        const before = plain.mail.length;
        const r = await plain.app.inject({
          method: "POST",
          url: RECOVER,
          headers: { host: "evil.example" },
          payload: { user_email: u.email },
        });
        expect(r.statusCode).toBe(200);
        expect(r.json().message).toMatch(/If an account exists/);
        expect(plain.mail.slice(before).join("\n")).not.toContain("evil.example");
        expect(lastLink(plain, before)).toBeUndefined();
        expect(await plain.meta.db.selectFrom("password_resets").select("id").where("user_id", "=", u.id).execute()).toEqual([]);
      });

      it("records the address of the owner's first sign-in and mails links to it, whatever Host asks", async () => {
        const u = await plain.user("owner2@example.com");
        // The first owner signs in (all test users share the default password).
        const first = await plain.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "stats.local:8080" },
          payload: { username: "owner@example.com", password: u.password },
        });
        expect(first.statusCode).toBe(200);
        // A later sign-in from elsewhere does not move it.
        const later = await plain.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "other.example" },
          payload: { username: u.email, password: u.password },
        });
        expect(later.statusCode).toBe(200);

        const before = plain.mail.length;
        const r = await plain.app.inject({
          method: "POST",
          url: RECOVER,
          headers: { host: "evil.example", "x-forwarded-host": "evil2.example" },
          payload: { user_email: u.email },
        });
        expect(r.statusCode).toBe(200);
        const sent = plain.mail.slice(before).join("\n");
        expect(sent).not.toContain("evil");
        expect(lastLink(plain, before)?.base).toBe("http://stats.local:8080");
      });
    });

    describe("cross-site posts to the sign-in calls (login CSRF)", () => {
      it("refuses a login from a foreign Origin with 403 and sets no cookie", async () => {
        const u = await plain.user("csrf@example.com");
        const r = await plain.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "stats.local:8080", origin: "https://evil.example" },
          payload: { username: u.email, password: u.password },
        });
        expect(r.statusCode).toBe(403);
        expect(r.json()).toEqual({ message: expect.any(String), code: "cross_site_request" });
        expect(r.cookies).toEqual([]);
        expect(r.headers["set-cookie"]).toBeUndefined();
      });

      it("refuses Sec-Fetch-Site: cross-site and Origin: null", async () => {
        const u = await plain.user("csrf2@example.com");
        for (const headers of [
          { "sec-fetch-site": "cross-site" },
          { origin: "null" },
          { origin: "http://localhost", "sec-fetch-site": "cross-site" },
        ]) {
          const r = await plain.app.inject({
            method: "POST",
            url: LOGIN,
            headers,
            payload: { username: u.email, password: u.password },
          });
          expect(r.statusCode).toBe(403);
          expect(r.cookies).toEqual([]);
        }
      });

      it("refuses cross-site recovery and reset calls", async () => {
        const u = await plain.user("csrf3@example.com");
        const before = plain.mail.length;
        const headers = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
        const rec = await plain.app.inject({ method: "POST", url: RECOVER, headers, payload: { user_email: u.email } });
        expect(rec.statusCode).toBe(403);
        expect(rec.json().code).toBe("cross_site_request");
        expect(plain.mail.length).toBe(before);
        const res = await plain.app.inject({
          method: "POST",
          url: RESET,
          headers,
          payload: { token: "x".repeat(43), password: "brand-new-password" },
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe("cross_site_request");
      });

      it("lets same-origin posts and posts without Origin (API clients) through", async () => {
        const u = await plain.user("same@example.com");
        const payload = { username: u.email, password: u.password };
        const same = await plain.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "stats.local:8080", origin: "http://stats.local:8080", "sec-fetch-site": "same-origin" },
          payload,
        });
        expect(same.statusCode).toBe(200);
        expect(same.cookies.find((c) => c.name === "lookout_session")).toBeDefined();
        const defaultPort = await plain.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "stats.local:80", origin: "http://stats.local" },
          payload,
        });
        expect(defaultPort.statusCode).toBe(200);
        expect((await plain.app.inject({ method: "POST", url: LOGIN, payload })).statusCode).toBe(200);
        const userNav = await plain.app.inject({ method: "POST", url: LOGIN, headers: { "sec-fetch-site": "none" }, payload });
        expect(userNav.statusCode).toBe(200);
      });
    });
  });

  describe("with LOOKOUT_PUBLIC_URL", () => {
    let pub: TestApp;
    beforeAll(async () => {
      pub = await createTestApp(backend, { env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com/" } });
    });
    afterAll(async () => {
      await pub?.close();
    });

    it("uses LOOKOUT_PUBLIC_URL when it is set", async () => {
      const u = await pub.user("pub-owner@example.com");
      const before = pub.mail.length;
      await pub.app.inject({ method: "POST", url: RECOVER, headers: { host: "evil.example" }, payload: { user_email: u.email } });
      expect(lastLink(pub, before)?.base).toBe("https://stats.example.com");
      expect(pub.mail.slice(before).join("\n")).not.toContain("evil.example");
    });

    describe("reset links", () => {
      async function requestLink(t: TestApp, email: string): Promise<string> {
        const before = t.mail.length;
        const r = await t.app.inject({ method: "POST", url: RECOVER, payload: { user_email: email } });
        expect(r.statusCode).toBe(200);
        const token = lastLink(t, before)?.token;
        expect(token).toBeDefined();
        return token ?? "";
      }
      const reset = (t: TestApp, token: string, password: string) =>
        t.app.inject({ method: "POST", url: RESET, payload: { token, password } });

      it("asking for a new link voids the earlier ones", async () => {
        const u = await pub.user("relink@example.com");
        const first = await requestLink(pub, u.email);
        const second = await requestLink(pub, u.email);
        const old = await reset(pub, first, "brand-new-password-1");
        expect(old.statusCode).toBe(400);
        expect(old.json().code).toBe("invalid_token");
        expect((await reset(pub, second, "brand-new-password-2")).statusCode).toBe(200);
        await pub.login(u.email, "brand-new-password-2");
      });

      it("a reset voids every other outstanding link of the user", async () => {
        const u = await pub.user("outstanding@example.com");
        const other = await pub.user("bystander@example.com");
        const mailed = await requestLink(pub, u.email);
        // Links outstanding beside it (as before this fix, or issued by an older server).
        const extra = newSecret();
        await pub.meta.db
          .insertInto("password_resets")
          .values({ id: newId(), token_hash: hashSecret(extra), user_id: u.id, expires_at: new Date(Date.now() + 3_600_000) })
          .execute();
        const bystander = await requestLink(pub, other.email);
        expect(await pub.meta.resets.isUsable(extra)).toBe(true);

        expect((await reset(pub, mailed, "brand-new-password-3")).statusCode).toBe(200);
        const late = await reset(pub, extra, "brand-new-password-4");
        expect(late.statusCode).toBe(400);
        expect(late.json().code).toBe("invalid_token");
        await pub.login(u.email, "brand-new-password-3");
        // Another user's link is untouched.
        expect((await reset(pub, bystander, "brand-new-password-5")).statusCode).toBe(200);
      });

      it("a password change (sign-out everywhere) voids outstanding links", async () => {
        const u = await pub.user("changed@example.com");
        const token = await requestLink(pub, u.email);
        // What `lookout user:reset-password` and the reset call do after setting the password.
        await pub.meta.tokens.revokeAllForUser(u.id);
        expect(await pub.meta.resets.isUsable(token)).toBe(false);
        expect((await reset(pub, token, "brand-new-password-6")).statusCode).toBe(400);
      });
    });

    describe("cross-site posts to the sign-in calls (login CSRF)", () => {
      it("with LOOKOUT_PUBLIC_URL, compares Origin with its host, not the request's", async () => {
        const u = await pub.user("pub-same@example.com");
        const payload = { username: u.email, password: u.password };
        const behindProxy = await pub.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "127.0.0.1:3000", origin: "https://stats.example.com" },
          payload,
        });
        expect(behindProxy.statusCode).toBe(200);
        const forgedHost = await pub.app.inject({
          method: "POST",
          url: LOGIN,
          headers: { host: "evil.example", origin: "https://evil.example" },
          payload,
        });
        expect(forgedHost.statusCode).toBe(403);
      });
    });

    describe("a stranger cannot lock the owner out", () => {
      const attempt = (t: TestApp, email: string, password: string, remoteAddress: string) =>
        t.app.inject({ method: "POST", url: LOGIN, remoteAddress, payload: { username: email, password } });

      it("a stranger's failures from one address do not block the owner's login from another", async () => {
        const u = await pub.user("victim@example.com");
        const tries = [];
        for (let i = 0; i < 12; i++) tries.push(await attempt(pub, u.email, "wrong-password-x", "203.0.113.7"));
        expect(tries.slice(0, 10).every((r) => r.statusCode === 401)).toBe(true);
        expect(tries[10]?.statusCode).toBe(429);
        expect(Number(tries[10]?.headers["retry-after"])).toBeGreaterThan(0);
        // The stranger's address stays throttled even with the right password ...
        expect((await attempt(pub, u.email, u.password, "203.0.113.7")).statusCode).toBe(429);
        // ... while the owner signs in from theirs, over IPv4 and IPv6.
        expect((await attempt(pub, u.email, u.password, "198.51.100.20")).statusCode).toBe(200);
        expect((await attempt(pub, u.email, u.password, "2001:db8:1:2::20")).statusCode).toBe(200);
      });

      it("an IPv6 guesser cannot escape the limit by rotating through its /64", async () => {
        const u = await pub.user("v6@example.com");
        const codes = [];
        for (let i = 0; i < 11; i++)
          codes.push((await attempt(pub, u.email, "wrong-password-x", `2001:db8:9:9::${i + 1}`)).statusCode);
        expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
        expect(codes[10]).toBe(429);
      });

      it("a flood from many addresses hits the per-e-mail limit, which spares the owner's usual address", async () => {
        const u = await pub.user("flooded@example.com");
        // The owner signed in before from their usual address.
        expect((await attempt(pub, u.email, u.password, "198.51.100.99")).statusCode).toBe(200);
        fast.failEveryPassword = true;
        try {
          let limited = 0;
          for (let a = 0; a < 100; a++) {
            for (let i = 0; i < 10; i++) {
              const r = await attempt(pub, u.email, "wrong-password-x", `10.200.${a}.1`);
              if (r.statusCode === 429) limited++;
            }
          }
          expect(limited).toBe(0); // 1000 failures: no address alone reached a limit
          expect((await attempt(pub, u.email, "wrong-password-x", "10.201.0.1")).statusCode).toBe(429);
        } finally {
          fast.failEveryPassword = false;
        }
        // A new address is refused while the flood lasts; the owner's usual one is not.
        expect((await attempt(pub, u.email, u.password, "10.202.0.1")).statusCode).toBe(429);
        expect((await attempt(pub, u.email, u.password, "198.51.100.99")).statusCode).toBe(200);
      }, 120_000);
    });
  });
});
