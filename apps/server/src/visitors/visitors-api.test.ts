// Visitors (DESIGN.md §5, issue #21) on PGlite and PostgreSQL metadata with DuckDB events, and on
// PGlite with ClickHouse events (the test run's server): exact figures on a hand-built history
// (visits, engaged time from pings, revenue, two client ids of one person merged, their profiles
// folded from upserts), the history by visit with cursor paging (no gaps, no repeats), event and
// date filters, the list (search, order, identified filter, paging, CSV with formula escaping), the
// 404 table (unknown and foreign alike), roles (viewers read; deleting and exporting need admin),
// bad cursors, export, and deletion making the Stats API's numbers drop by exactly that visitor.
import { type EventRow, eventRow, type Role } from "@lookout/schema";
import { clickHouseTestDatabase, requireClickHouse } from "@lookout/storage/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";

const ch = await requireClickHouse();
/** Metadata backend x event engine: DuckDB on both metadata backends, ClickHouse on PGlite. */
const SETUPS: { name: string; backend: Backend; skip?: string; env: () => Record<string, string> }[] = [
  { name: "pglite + duckdb", backend: "pglite", env: () => ({}) },
  { name: "postgres + duckdb", backend: "postgres", env: () => ({}) },
  {
    name: "pglite + clickhouse",
    backend: "pglite",
    ...("skip" in ch ? { skip: ch.skip } : {}),
    env: (): Record<string, string> => ("url" in ch ? { CLICKHOUSE_URL: `${ch.url}/${clickHouseTestDatabase("visitors")}` } : {}),
  },
];

const DAY = 86_400_000;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
/** Midnight UTC `n` days ago: the history lies in the last week, inside the 12-month calendar. */
const dayAgo = (n: number) => Math.floor(Date.now() / DAY) * DAY - n * DAY;
const at = (days: number, hms: string) => {
  const [h, m, s] = hms.split(":").map(Number);
  return new Date(dayAgo(days) + ((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)) * 1000);
};
const dateOf = (days: number) => new Date(dayAgo(days)).toISOString().slice(0, 10);

describe.each(SETUPS)("visitors API on $name", ({ backend, skip, env }) => {
  let t: TestApp;
  let site: string;
  let bobSite: string;
  const tokens: Partial<Record<Role | "bob", string>> = {};

  const ev = (client: string, session: string, ts: Date, o: Partial<EventRow> = {}): EventRow =>
    eventRow({
      property: site,
      ts,
      visitor_id: client,
      client_id: client,
      session_id: session,
      hostname: "shop.test",
      url: `https://shop.test${o.path ?? "/"}`,
      ...o,
    });

  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(backend, { env: env() });
    const alice = await t.user("alice@example.com");
    const bob = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    bobSite = await t.property(bob.accountId, "https://bob.test");
    tokens.owner = (await t.login(alice.email, alice.password)).token;
    tokens.bob = (await t.login(bob.email, bob.password)).token;
    for (const role of ["viewer", "editor", "admin"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      tokens[role] = (await t.login(u.email, u.password)).token;
    }
    const laptop = {
      device: "desktop",
      browser: "Firefox",
      os: "Linux",
      country: "DE",
      city: "Berlin",
      screen: "desktop",
      language: "de",
    };
    const phone = {
      device: "mobile",
      browser: "Safari",
      os: "iOS",
      country: "FR",
      region: "IDF",
      city: "Paris",
      screen: "mobile",
      language: "fr",
    };
    await t.events.append([
      // alice-laptop, visit l1: two pageviews with engagement pings, a purchase; 120 s.
      ev("alice-laptop", "l1", at(5, "10:00:00"), {
        ...laptop,
        referrer: "https://www.google.com/",
        referrer_source: "Google",
        channel: "search",
        utm_source: "news",
        utm_campaign: "autumn",
      }),
      ev("alice-laptop", "l1", at(5, "10:00:30"), { ...laptop, name: "engagement", engaged_ms: 20_000 }),
      ev("alice-laptop", "l1", at(5, "10:01:00"), { ...laptop, path: "/pricing" }),
      ev("alice-laptop", "l1", at(5, "10:01:40"), { ...laptop, name: "engagement", path: "/pricing", engaged_ms: 30_000 }),
      ev("alice-laptop", "l1", at(5, "10:02:00"), {
        ...laptop,
        name: "purchase",
        path: "/pricing",
        revenue: 49.5,
        revenue_currency: "EUR",
        props: { plan: "<b>pro</b>" },
      }),
      // alice-laptop, visit l2: one pageview; 0 s.
      ev("alice-laptop", "l2", at(4, "09:00:00"), { ...laptop, path: "/docs" }),
      // alice-phone (the same e-mail), visit p1: a pageview and a signup; 300 s.
      ev("alice-phone", "p1", at(3, "08:00:00"), phone),
      ev("alice-phone", "p1", at(3, "08:05:00"), { ...phone, name: "signup" }),
      // An anonymous visitor with a short server-side id.
      ev("user-42", "u1", at(2, "12:00:00"), { country: "US" }),
    ]);
    await t.events.upsertVisitors([
      {
        property: site,
        client_id: "alice-laptop",
        email: "alice@example.com",
        name: "Alice",
        traits: { plan: "pro" },
        first_seen: at(5, "10:00:00"),
        last_seen: at(5, "10:00:00"),
      },
      {
        property: site,
        client_id: "alice-phone",
        email: "ALICE@example.com",
        name: "=1+1",
        traits: { plan: "free", phone: "yes" },
        first_seen: at(3, "08:00:00"),
        last_seen: at(3, "08:00:00"),
      },
    ]);
    await t.events.append([
      eventRow({ property: bobSite, ts: at(2, "10:00:00"), visitor_id: "bob-1", client_id: "bob-1", session_id: "b1" }),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: "GET" | "DELETE", url: string, who: keyof typeof tokens = "owner") =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` } });
  const url = (client?: string, rest = "", p = site) =>
    `/api/v1/properties/${p}/visitors${client === undefined ? "" : `/${encodeURIComponent(client)}`}${rest}`;

  it.skipIf(skip !== undefined)("answers a person's figures merged over the client ids of one e-mail", async () => {
    const r = await call("GET", url("alice-laptop"), "viewer");
    expect(r.statusCode).toBe(200);
    const v = r.json();
    expect(v).toMatchObject({
      client_id: "alice-laptop",
      email: "alice@example.com",
      name: "Alice",
      identified: true,
      traits: { plan: "pro", phone: "yes" },
      first_seen: at(5, "10:00:00").toISOString(),
      last_seen: at(3, "08:05:00").toISOString(),
      visits: 3,
      pageviews: 4,
      events: 2,
      engaged_seconds: 50,
      avg_visit_seconds: 140,
      revenue: 49.5,
      revenue_currency: "EUR",
      country: "FR",
      region: "IDF",
      city: "Paris",
      online: false,
    });
    expect(v.devices).toEqual([
      { value: "desktop", visits: 2 },
      { value: "mobile", visits: 1 },
    ]);
    expect(v.browsers.map((b: { value: string }) => b.value)).toEqual(["Firefox", "Safari"]);
    expect(v.first_source).toMatchObject({
      source: "Google",
      channel: "search",
      landing_page: "/",
      utm_source: "news",
      utm_campaign: "autumn",
    });
    expect(v.also_seen_as).toEqual([
      { client_id: "alice-phone", device: "mobile", browser: "Safari", os: "iOS", last_seen: at(3, "08:05:00").toISOString() },
    ]);
    expect(v.active_days).toEqual([
      { date: dateOf(5), events: 3 },
      { date: dateOf(4), events: 1 },
      { date: dateOf(3), events: 2 },
    ]);
    expect(v.top_pages).toEqual([
      { path: "/", pageviews: 2 },
      { path: "/docs", pageviews: 1 },
      { path: "/pricing", pageviews: 1 },
    ]);
    expect(v.top_events).toEqual([
      { name: "purchase", events: 1, revenue: 49.5, revenue_currency: "EUR" },
      { name: "signup", events: 1, revenue: 0, revenue_currency: "" },
    ]);
    // The phone's page is the same person, seen from the phone.
    const phone = (await call("GET", url("alice-phone"))).json();
    expect(phone).toMatchObject({ client_id: "alice-phone", visits: 3, traits: { plan: "free", phone: "yes" } });
    expect(phone.also_seen_as.map((a: { client_id: string }) => a.client_id)).toEqual(["alice-laptop"]);
  });

  it.skipIf(skip !== undefined)(
    "answers an anonymous visitor with a short id, and says who is online from live presence",
    async () => {
      const r = await call("GET", url("user-42"));
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({
        client_id: "user-42",
        identified: false,
        email: "",
        visits: 1,
        pageviews: 1,
        also_seen_as: [],
        online: false,
      });
      t.presence.apply({
        kind: "seen",
        s: {
          clientid: "user-42",
          propertyId: site,
          country: "US",
          page: "/",
          title: "",
          source: "",
          referrer: "",
          device: "desktop",
          browser: "",
          os: "",
          ts: Date.now(),
          pageKey: "/",
          pageview: true,
        },
      });
      expect((await call("GET", url("user-42"))).json().online).toBe(true);
    },
  );

  it.skipIf(skip !== undefined)(
    "takes a server-side sender's short id and identify, and shows the e-mail on the visitor page",
    async () => {
      const send = (body: Record<string, unknown>) =>
        t.app.inject({
          method: "POST",
          url: "/api/event",
          headers: { "content-type": "text/plain", "user-agent": CHROME },
          payload: JSON.stringify({ p: site, u: "https://shop.test/app", ...body }),
        });
      expect((await send({ n: "pageview", c: "u/7" })).statusCode).toBe(202);
      expect(
        (await send({ n: "identify", c: "u/7", e: "seven@example.com", t: { name: "Seven", tier: "gold" } })).statusCode,
      ).toBe(202);
      expect((await send({ n: "pageview", c: "has space" })).statusCode).toBe(400);
      await t.events.sync();
      const r = await call("GET", url("u/7"));
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({
        client_id: "u/7",
        email: "seven@example.com",
        name: "Seven",
        identified: true,
        traits: { tier: "gold" },
        pageviews: 1,
      });
      // Gone again, so that the list tests below see the hand-built visitors only.
      expect((await call("DELETE", url("u/7"))).json()).toEqual({ deleted_events: 2 });
    },
  );

  it.skipIf(skip !== undefined)("pages through the merged history newest visit first without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call("GET", url("alice-laptop", `/events?limit=1${cursor ? `&cursor=${cursor}` : ""}`), "viewer");
      expect(r.statusCode).toBe(200);
      const body = r.json();
      expect(body.results.length).toBeLessThanOrEqual(1);
      seen.push(...body.results.map((v: { session_id: string }) => v.session_id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(["p1", "l2", "l1"]);

    const all = (await call("GET", url("alice-laptop", "/events"))).json();
    const l1 = all.results.find((v: { session_id: string }) => v.session_id === "l1");
    expect(l1).toMatchObject({
      client_id: "alice-laptop",
      start: at(5, "10:00:00").toISOString(),
      duration_seconds: 120,
      engaged_seconds: 50,
      pageviews: 2,
      entry_page: "/",
      entry_source: "Google",
      device: "desktop",
      city: "Berlin",
      events_total: 3,
    });
    expect(
      l1.events.map((e: { name: string; path: string; time_on_page_seconds: number | null }) => [
        e.name,
        e.path,
        e.time_on_page_seconds,
      ]),
    ).toEqual([
      ["pageview", "/", 20],
      ["pageview", "/pricing", 30],
      ["purchase", "/pricing", null],
    ]);
    expect(l1.events[2]).toMatchObject({
      revenue: 49.5,
      revenue_currency: "EUR",
      props: { plan: "<b>pro</b>" },
      session_id: "l1",
    });
    expect(all.results[0]).toMatchObject({ session_id: "p1", client_id: "alice-phone", duration_seconds: 300 });
    expect(all.next_cursor).toBeNull();
  });

  it.skipIf(skip !== undefined)(
    "shows a long visit's first 200 events with each one's time on page, and says how many it has",
    async () => {
      // 250 pageviews 10 s apart, each followed by a ping of 4 s (the 250th's of 9 s): events and
      // pings come from one read that takes up to VISITOR_LIMITS.pingsPerVisit of each kind.
      const t0 = at(1, "06:00:00").getTime();
      const rows: EventRow[] = [];
      for (let i = 0; i < 250; i++) {
        rows.push(ev("long-1", "v", new Date(t0 + i * 10_000), { path: `/p${i}` }));
        rows.push(
          ev("long-1", "v", new Date(t0 + i * 10_000 + 5_000), { name: "engagement", engaged_ms: i === 249 ? 9_000 : 4_000 }),
        );
      }
      await t.events.append(rows);
      await t.events.sync();
      const [visit] = (await call("GET", url("long-1", "/events"))).json().results;
      expect(visit).toMatchObject({ events_total: 250, pageviews: 250, engaged_seconds: 1005 });
      expect(visit.events).toHaveLength(200);
      expect(visit.events[199]).toMatchObject({ path: "/p199", time_on_page_seconds: 4 });
      expect(visit.events.every((e: { time_on_page_seconds: number }) => e.time_on_page_seconds === 4)).toBe(true);
      // The pings themselves, when asked for: shown (at most 200) and summed alike.
      const [pings] = (await call("GET", url("long-1", "/events?event=engagement"))).json().results;
      expect(pings.events_total).toBe(250);
      expect(pings.events).toHaveLength(200);
      expect(pings.events[0]).toMatchObject({ name: "engagement", ts: new Date(t0 + 5_000).toISOString() });
      // Gone again, so that the list tests below see the hand-built visitors only.
      expect((await call("DELETE", url("long-1"))).json()).toEqual({ deleted_events: 500 });
    },
  );

  it.skipIf(skip !== undefined)("filters the history by event name and by days", async () => {
    const buys = (await call("GET", url("alice-laptop", "/events?event=purchase"))).json();
    expect(buys.results.map((v: { session_id: string }) => v.session_id)).toEqual(["l1"]);
    expect(buys.results[0].events.map((e: { name: string }) => e.name)).toEqual(["purchase"]);
    const days = (await call("GET", url("alice-laptop", `/events?from=${dateOf(4)}&to=${dateOf(3)}`))).json();
    expect(days.results.map((v: { session_id: string }) => v.session_id)).toEqual(["p1", "l2"]);
    const none = (await call("GET", url("alice-laptop", "/events?event=nothing"))).json();
    expect(none).toEqual({ results: [], next_cursor: null });
  });

  it.each([
    ["cursor=abc", "cursor"],
    [`cursor=${Buffer.from(JSON.stringify({ k: "h", ts: -1, session_id: "x" })).toString("base64url")}`, "cursor"],
    [
      `cursor=${Buffer.from(JSON.stringify({ k: "l", order: "visits", key: 1, client_id: "x" })).toString("base64url")}`,
      "cursor",
    ],
    ["cursor=%27%3B--", "cursor"],
    ["from=2024-02-30", "from"],
    [`from=${dateOf(1)}&to=${dateOf(3)}`, "to"],
    ["limit=0", "limit"],
    ["event=a%00b", "event"],
  ])("answers 400 for a bad history query: %s", async (q, param) => {
    const r = await call("GET", url("alice-laptop", `/events?${q}`));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(r.json())).toContain(param);
  });

  it.skipIf(skip !== undefined)(
    "lists visitors: order, search by e-mail, name or id, the identified filter, and paging",
    async () => {
      const ids = async (q: string) => {
        const r = await call("GET", url(undefined, `?${q}`), "viewer");
        expect(r.statusCode).toBe(200);
        return r.json().results.map((v: { client_id: string }) => v.client_id);
      };
      expect(await ids("")).toEqual(["user-42", "alice-phone", "alice-laptop"]);
      expect(await ids("order=visits")).toEqual(["alice-laptop", "user-42", "alice-phone"]);
      expect(await ids("order=first_seen")).toEqual(["user-42", "alice-phone", "alice-laptop"]);
      expect(await ids("order=events")).toEqual(["alice-phone", "alice-laptop", "user-42"]);
      expect(await ids("search=ALICE%40")).toEqual(["alice-phone", "alice-laptop"]);
      expect(await ids("search=%3D1")).toEqual(["alice-phone"]);
      expect(await ids("search=user-")).toEqual(["user-42"]);
      expect(await ids("search=%25")).toEqual([]);
      expect(await ids("identified=anonymous")).toEqual(["user-42"]);
      expect(await ids("identified=identified&order=visits")).toEqual(["alice-laptop", "alice-phone"]);
      const first = (await call("GET", url(undefined, "?limit=1"))).json();
      expect(first.results[0]).toMatchObject({ client_id: "user-42", identified: false, country: "US", visits: 1, pageviews: 1 });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const body: { results: { client_id: string }[]; next_cursor: string | null } = (
          await call("GET", url(undefined, `?limit=2&order=visits${cursor ? `&cursor=${cursor}` : ""}`))
        ).json();
        seen.push(...body.results.map((v: { client_id: string }) => v.client_id));
        cursor = body.next_cursor;
      } while (cursor && seen.length < 10);
      expect(seen).toEqual(["alice-laptop", "user-42", "alice-phone"]);
      // A cursor of another order is refused, not misread.
      const byVisits = (await call("GET", url(undefined, "?limit=1&order=visits"))).json().next_cursor;
      expect((await call("GET", url(undefined, `?cursor=${byVisits}`))).statusCode).toBe(400);
    },
  );

  it.skipIf(skip !== undefined)("exports the list as CSV with formula cells escaped", async () => {
    const r = await call("GET", url(undefined, ".csv?order=visits"), "viewer");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toContain("text/csv");
    const lines = r.body.trim().split("\r\n");
    expect(lines[0]).toBe("client_id,email,name,country,region,city,first_seen,last_seen,visits,pageviews,events,revenue");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^alice-laptop,alice@example.com,Alice,DE,,Berlin,/);
    expect(lines[3]).toMatch(/^alice-phone,ALICE@example.com,'=1\+1,FR,IDF,Paris,/);
  });

  it.skipIf(skip !== undefined)("answers 404 alike for unknown ids, another account's visitors and properties", async () => {
    for (const [u, who] of [
      [url("nobody"), "owner"],
      [url("nobody", "/events"), "owner"],
      [url("bob-1"), "owner"],
      [url("bob-1", "", bobSite), "owner"],
      [url("alice-laptop", "", bobSite), "owner"],
      [url("alice-laptop"), "bob"],
      [url("alice-laptop", "/events"), "bob"],
      [url(undefined, "", bobSite), "owner"],
      [url("alice-laptop", "", "no-such-site"), "owner"],
    ] as const) {
      const r = await call("GET", u, who);
      expect(r.statusCode, u).toBe(404);
      expect(r.json()).toMatchObject({ code: expect.stringMatching(/not_found/), message: expect.any(String) });
    }
    expect((await call("DELETE", url("nobody"))).statusCode).toBe(404);
    expect((await call("GET", url("nobody", "/export"))).statusCode).toBe(404);
    expect((await call("DELETE", url("alice-laptop"), "bob")).statusCode).toBe(404);
    // Not a client id at all (a space, too long, not ASCII): 400.
    for (const bad of ["a b", "x".repeat(129), "é"]) expect((await call("GET", url(bad))).statusCode).toBe(400);
    // The longest id, every character encoded, is an id (unknown here), not a 414.
    expect((await call("GET", url("%".repeat(128)))).statusCode).toBe(404);
  });

  it.each<[Role, number]>([
    ["viewer", 404],
    ["editor", 404],
    ["admin", 200],
    ["owner", 200],
  ])("%s exports a visitor: %i (audited)", async (role, status) => {
    const r = await call("GET", url("alice-laptop", "/export"), role);
    expect(r.statusCode).toBe(status);
    if (status !== 200) return;
    expect(r.headers["content-disposition"]).toContain("attachment");
    const body = r.json();
    expect(body).toMatchObject({
      client_id: "alice-laptop",
      property: site,
      truncated: false,
      profile: { email: "alice@example.com" },
    });
    // This client id's events only, engagement pings included; not the phone's.
    expect(body.events).toHaveLength(6);
    expect(body.events[4]).toMatchObject({ name: "purchase", props: { plan: "<b>pro</b>" }, revenue: 49.5 });
    const audit = await t.meta.audit.list({ limit: 50 });
    expect(audit.some((a) => a.action === "visitor.export" && JSON.stringify(a.detail).includes("alice-laptop"))).toBe(true);
  });

  it.skipIf(skip !== undefined)(
    "deletes one client id (admins and up): the Stats API's numbers drop by exactly its share",
    async () => {
      const stats = async () => {
        const q = `property_id=${site}&period=custom&date=${dateOf(6)},${dateOf(0)}&metrics=visitors,visits,pageviews,events`;
        const r = await call("GET", `/api/v1/stats/aggregate?${q}`, "viewer");
        expect(r.statusCode).toBe(200);
        const res = r.json().results;
        return Object.fromEntries(Object.entries(res).map(([k, v]) => [k, (v as { value: number }).value]));
      };
      expect(await stats()).toEqual({ visitors: 3, visits: 4, pageviews: 5, events: 2 });
      expect((await call("DELETE", url("alice-laptop"), "viewer")).statusCode).toBe(404);
      expect((await call("DELETE", url("alice-laptop"), "editor")).statusCode).toBe(404);
      const r = await call("DELETE", url("alice-laptop"), "admin");
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ deleted_events: 6 });
      await t.events.sync();
      // alice-laptop had 1 visitor, 2 visits, 3 pageviews, 1 custom event.
      expect(await stats()).toEqual({ visitors: 2, visits: 2, pageviews: 2, events: 1 });
      expect((await call("GET", url("alice-laptop"))).statusCode).toBe(404);
      // The phone stays, now alone.
      const phone = (await call("GET", url("alice-phone"))).json();
      expect(phone).toMatchObject({ visits: 1, also_seen_as: [] });
      const audit = await t.meta.audit.list({ limit: 50 });
      expect(audit.some((a) => a.action === "visitor.delete" && JSON.stringify(a.detail).includes("alice-laptop"))).toBe(true);
    },
  );
  it.skipIf(skip !== undefined)("folds later upserts into the profile by the merge rules", async () => {
    // An empty e-mail or name keeps the stored one; traits merge key by key, newer values win
    // (ClickHouse keeps a row per upsert and folds them on read).
    await t.events.upsertVisitors([
      {
        property: site,
        client_id: "alice-phone",
        email: "",
        name: "",
        traits: { plan: "team" },
        first_seen: at(6, "08:00:00"),
        last_seen: at(1, "08:00:00"),
      },
      {
        property: site,
        client_id: "alice-phone",
        email: "",
        name: "Ally",
        traits: { plan: "gold", seats: "3" },
        first_seen: at(2, "08:00:00"),
        last_seen: at(2, "08:00:00"),
      },
    ]);
    await t.events.sync();
    const r = await call("GET", url("alice-phone"));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      client_id: "alice-phone",
      email: "ALICE@example.com",
      name: "Ally",
      traits: { plan: "gold", phone: "yes", seats: "3" },
    });
    const found = (await call("GET", url(undefined, "?search=ally"))).json();
    expect(found.results.map((v: { client_id: string }) => v.client_id)).toEqual(["alice-phone"]);
  });
});
