// The reports calls on PGlite and PostgreSQL: schedules (GET/PUT), send-now into the outbox, the
// role matrix (read to see, admin to change), other accounts' ids, bad input, and unsubscribe
// tokens (a token removes its own recipient only; a forged one nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";
import { unsubscribeTokens } from "./unsubscribe-token.js";

describe.each(["pglite", "postgres"] as const)("reports API (%s)", (backend) => {
  let t: TestApp;
  let site: string;
  let bobSite: string;
  let owner: string;
  let bob: string;
  const byRole: Record<string, string> = {};
  const url = (id = site) => `/api/v1/properties/${id}/reports`;
  const call = (token: string, method: "GET" | "PUT" | "POST", path: string, payload?: object) =>
    t.app.inject({
      method,
      url: path,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });

  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    const b = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test", { name: "Shop", timezone: "Europe/Berlin" });
    bobSite = await t.property(b.accountId, "https://bob.test");
    owner = (await t.login(alice.email, alice.password)).token;
    bob = (await t.login(b.email, b.password)).token;
    for (const role of ["viewer", "editor", "admin", "owner"] as const) {
      const u = await t.user(`${role}-member@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      byRole[role] = (await t.login(u.email, u.password)).token;
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("starts with no schedules, then sets a weekly and a monthly one, each with its recipients", async () => {
    const empty = await call(owner, "GET", url());
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ timezone: "Europe/Berlin", weekly: null, monthly: null });

    const w = await call(owner, "PUT", url(), {
      frequency: "weekly",
      recipients: ["Ann@Example.com", " ann@example.com ", "ben@example.com"],
    });
    expect(w.statusCode).toBe(200);
    expect(w.json().weekly).toMatchObject({
      frequency: "weekly",
      recipients: ["Ann@Example.com", "ben@example.com"],
      send_hour: 9,
    });
    expect(w.json().weekly.last_sent_period).toBeNull();
    // The next Monday 09:00 in Berlin.
    const next = new Date(w.json().weekly.next_send_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "long", hour: "2-digit" }).format(next)).toBe(
      "Monday, 09",
    );

    const m = await call(owner, "PUT", url(), { frequency: "monthly", recipients: ["cat@example.com"], send_hour: 7 });
    expect(m.json().monthly).toMatchObject({ recipients: ["cat@example.com"], send_hour: 7 });
    expect(m.json().weekly.recipients).toEqual(["Ann@Example.com", "ben@example.com"]);
    expect(m.json().monthly.next_period).toMatch(/^\d{4}-\d{2}$/);

    const audit = await t.meta.audit.list({ limit: 5 });
    expect(audit.map((a) => a.action)).toContain("report_schedule.update");
  });

  it("turns one schedule off by name, or by an empty recipient list, leaving the other", async () => {
    const off = await call(owner, "PUT", url(), { frequency: "off", schedule: "monthly" });
    expect(off.statusCode).toBe(200);
    expect(off.json().monthly).toBeNull();
    expect(off.json().weekly).not.toBeNull();
    await call(owner, "PUT", url(), { frequency: "monthly", recipients: ["cat@example.com"] });
    const cleared = await call(owner, "PUT", url(), { frequency: "monthly", recipients: [] });
    expect(cleared.json().monthly).toBeNull();
    expect(cleared.json().weekly).not.toBeNull();
    await call(owner, "PUT", url(), { frequency: "monthly", recipients: ["cat@example.com"] });
    const both = await call(owner, "PUT", url(), { frequency: "off" });
    expect(both.json()).toMatchObject({ weekly: null, monthly: null });
    await call(owner, "PUT", url(), { frequency: "weekly", recipients: ["ann@example.com", "ben@example.com"] });
  });

  it("refuses bad input with the field named", async () => {
    const cases: [object, string][] = [
      [{ frequency: "daily", recipients: [] }, "frequency"],
      [{ frequency: "weekly", recipients: ["not-an-address"] }, "recipients"],
      [{ frequency: "weekly", recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, "recipients"],
      [{ frequency: "weekly", recipients: ["a@example.com"], send_hour: 24 }, "send_hour"],
      [{ frequency: "weekly", recipients: ["a\u0000@example.com"] }, "recipients"],
      [{ frequency: "weekly", recipients: "a@example.com" }, "recipients"],
    ];
    for (const [body, field] of cases) {
      const r = await call(owner, "PUT", url(), body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json().details ?? r.json().message)).toContain(field);
    }
    const send = await call(owner, "POST", `${url()}/send-now`, { frequency: "hourly" });
    expect(send.statusCode).toBe(400);
  });

  it("sends the last complete week now to every recipient, or to the ones given, without marking it sent", async () => {
    const before = (await t.meta.outbox.list()).length;
    const r = await call(owner, "POST", `${url()}/send-now`, { frequency: "weekly" });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ sent: ["ann@example.com", "ben@example.com"] });
    expect(r.json().period).toMatch(/^\d{4}-W\d{2}$/);
    const outbox = await t.meta.outbox.list();
    expect(outbox.length - before).toBe(2);
    expect(outbox[0]?.subject).toBe("Weekly report for Shop");
    expect(outbox[0]?.text_body).toContain("Unique visitors: 0");
    expect(outbox[0]?.html_body).toContain("cid:visitors-chart@lookout");
    const one = await call(owner, "POST", `${url()}/send-now`, { frequency: "weekly", recipients: ["preview@example.com"] });
    expect(one.json().sent).toEqual(["preview@example.com"]);
    expect((await t.meta.outbox.list())[0]?.to_addr).toBe("preview@example.com");
    // Not on the schedule: no unsubscribe link in a preview to someone else.
    expect((await t.meta.outbox.list())[0]?.text_body).not.toContain("unsubscribe");
    expect((await call(owner, "GET", url())).json().weekly.last_sent_period).toBeNull();
    // A monthly preview without a monthly schedule needs recipients.
    const none = await call(owner, "POST", `${url()}/send-now`, { frequency: "monthly" });
    expect(none.statusCode).toBe(400);
    expect(none.json().details).toEqual({ param: "recipients" });
  });

  it("lets every role read and only admins and owners change or send (404 below, as for a stranger)", async () => {
    const expected = { viewer: [200, 404, 404], editor: [200, 404, 404], admin: [200, 200, 200], owner: [200, 200, 200] };
    for (const [role, [get, put, send]] of Object.entries(expected)) {
      const token = byRole[role] as string;
      expect((await call(token, "GET", url())).statusCode, role).toBe(get);
      expect(
        (await call(token, "PUT", url(), { frequency: "weekly", recipients: ["ann@example.com", "ben@example.com"] })).statusCode,
        role,
      ).toBe(put);
      expect(
        (await call(token, "POST", `${url()}/send-now`, { frequency: "weekly", recipients: ["x@example.com"] })).statusCode,
        role,
      ).toBe(send);
    }
    expect((await t.app.inject({ method: "GET", url: url() })).statusCode).toBe(401);
  });

  it("answers another account's property as unknown (404)", async () => {
    expect((await call(bob, "GET", url())).statusCode).toBe(404);
    expect((await call(bob, "PUT", url(), { frequency: "off" })).statusCode).toBe(404);
    expect((await call(bob, "POST", `${url()}/send-now`, { frequency: "weekly" })).statusCode).toBe(404);
    expect((await call(owner, "GET", url(bobSite))).statusCode).toBe(404);
    expect((await call(owner, "GET", url("no-such-site"))).statusCode).toBe(404);
  });

  it("unsubscribes a token's own recipient only; another's or a forged token changes nothing", async () => {
    const { weekly } = (await call(owner, "GET", url())).json();
    const tokens = unsubscribeTokens(t.meta);
    const annToken = await tokens.sign(weekly.id, "ann@example.com");
    const forged = `${weekly.id}.${Buffer.from("ben@example.com").toString("base64url")}.${annToken.split(".")[2]}`;
    const bad = await t.app.inject({ method: "GET", url: `/api/v1/reports/unsubscribe?token=${encodeURIComponent(forged)}` });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toContain("not valid");
    expect((await call(owner, "GET", url())).json().weekly.recipients).toEqual(["ann@example.com", "ben@example.com"]);

    const ok = await t.app.inject({ method: "GET", url: `/api/v1/reports/unsubscribe?token=${encodeURIComponent(annToken)}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toContain("text/html");
    expect(ok.body).toContain("You will no longer receive the weekly report for Shop at ann@example.com");
    expect((await call(owner, "GET", url())).json().weekly.recipients).toEqual(["ben@example.com"]);
    // Used again: nothing more is removed.
    await t.app.inject({ method: "POST", url: `/api/v1/reports/unsubscribe?token=${encodeURIComponent(annToken)}` });
    expect((await call(owner, "GET", url())).json().weekly.recipients).toEqual(["ben@example.com"]);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/reports/unsubscribe" })).statusCode).toBe(400);
  });
});
