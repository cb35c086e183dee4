// The stats export on PGlite and PostgreSQL: the ZIP's name, its Plausible-format files and
// columns, every number equal to the Stats API's breakdown of the same day, formula-escaped cells,
// the role matrix (admins and owners), other accounts' ids, and bad periods.
import { type EventRow, EXPORT_TABLES, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { createTestApp, type TestApp } from "../test-support.js";

function unzip(buf: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, string>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString("utf8"));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

/** RFC 4180 reading of the export's CSV (quoted cells with doubled quotes; no line breaks in cells here). */
const rows = (csv: string) =>
  csv
    .trimEnd()
    .split("\r\n")
    .map((l) =>
      [...l.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => (m[1] ?? "").replace(/^"|"$/g, "").replace(/""/g, '"')),
    );

describe.each(["pglite", "postgres"] as const)("stats export (%s)", (backend) => {
  let t: TestApp;
  let site: string;
  let owner: string;
  let bob: string;
  const byRole: Record<string, string> = {};
  const range = "period=custom&date=2026-03-02,2026-03-04";

  beforeAll(async () => {
    t = await createTestApp(backend);
    const alice = await t.user("alice@example.com");
    const b = await t.user("bob@example.com");
    site = await t.property(alice.accountId, "https://shop.example.com", { timezone: "Europe/Berlin" });
    owner = (await t.login(alice.email, alice.password)).token;
    bob = (await t.login(b.email, b.password)).token;
    for (const role of ["viewer", "editor", "admin"] as const) {
      const u = await t.user(`${role}@example.com`);
      await t.meta.accounts.addMember(alice.accountId, u.id, role);
      byRole[role] = (await t.login(u.email, u.password)).token;
    }
    const ev = (ts: string, v: string, s: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({
        property: site,
        ts: new Date(ts),
        visitor_id: v,
        client_id: v,
        session_id: s,
        hostname: "shop.example.com",
        country: "DE",
        browser: "Firefox",
        os: "Linux",
        device: "desktop",
        ...o,
        url: `https://shop.example.com${o.path ?? "/"}`,
      });
    await t.events.append([
      ev("2026-03-02T09:00:00Z", "v1", "s1", { referrer_source: "Google", channel: "search" }),
      ev("2026-03-02T09:01:00Z", "v1", "s1", { path: "/pricing", referrer_source: "Google", channel: "search" }),
      ev("2026-03-02T09:02:00Z", "v1", "s1", { name: "signup", path: "/pricing", referrer_source: "Google" }),
      ev("2026-03-02T10:00:00Z", "v2", "s2", { country: "FR", browser: "Chrome", device: "mobile" }),
      // 23:30 UTC on 3 Mar is 00:30 on 4 Mar in Berlin.
      ev("2026-03-03T23:30:00Z", "v3", "s3", { path: '=HYPERLINK("x")', os: "Windows" }),
      ev("2026-03-04T12:00:00Z", "v1", "s4", { path: "/blog" }),
      ev("2026-03-04T12:10:00Z", "v1", "s4", { path: "/blog/a" }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = (token: string, query = range, id = site) =>
    t.app.inject({ url: `/api/v1/properties/${id}/export?${query}`, headers: { authorization: `Bearer ${token}` } });
  const stats = async (path: string) =>
    (
      await t.app.inject({ url: `/api/v1/stats/${path}&property_id=${site}`, headers: { authorization: `Bearer ${owner}` } })
    ).json().results;

  it("streams a ZIP named after the site, with Plausible's files and columns, whose numbers are the Stats API's", async () => {
    const r = await get(owner);
    expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
    expect(r.headers["content-type"]).toBe("application/zip");
    expect(r.headers["content-disposition"]).toMatch(/^attachment; filename="shop_example_com_\d{8}\.zip"$/);
    const files = await unzip(r.rawPayload);
    expect([...files.keys()]).toEqual(EXPORT_TABLES.map((name) => `${name}_20260302_20260304.csv`));
    const file = (name: string) => rows(files.get(`${name}_20260302_20260304.csv`) as string);

    const visitors = file("imported_visitors");
    expect(visitors[0]).toEqual(["date", "visitors", "pageviews", "bounces", "visits", "visit_duration"]);
    const series = (await stats(
      `timeseries?${range}&interval=day&metrics=visitors,pageviews,visits,bounce_rate,visit_duration`,
    )) as Record<string, number>[];
    const expected = series
      .filter((p) => p.visitors || p.pageviews)
      .map((p) => [
        String(p.date).slice(0, 10),
        String(p.visitors),
        String(p.pageviews),
        String(Math.round(((p.bounce_rate as number) * (p.visits as number)) / 100)),
        String(p.visits),
        String(Math.round((p.visit_duration as number) * (p.visits as number))),
      ]);
    expect(visitors.slice(1)).toEqual(expected);
    expect(visitors.slice(1).map((r) => r[0])).toEqual(["2026-03-02", "2026-03-04"]);
    expect(visitors[1]?.slice(1, 5)).toEqual(["2", "3", "1", "2"]);

    // Every breakdown file: per day, the Stats API's breakdown of that day.
    const check = async (name: string, dimension: string, col: number, metricCols: Record<string, number>) => {
      const got = file(name);
      for (const day of ["2026-03-02", "2026-03-04"]) {
        const api = (await stats(
          `breakdown?period=custom&date=${day},${day}&dimension=${dimension}&metrics=${Object.keys(metricCols).join(",")}`,
        )) as Record<string, string | number>[];
        const mine = got.filter((r) => r[0] === day);
        const wanted = api.filter(
          (a) => !(dimension === "event_name" && (a[dimension] === "pageview" || a[dimension] === "engagement")),
        );
        expect(mine.length, `${name} ${day}`).toBe(wanted.length);
        for (const a of wanted) {
          const row = mine.find((r) => r[col] === String(a[dimension]).replace(/^=/, "'="));
          expect(row, `${name} ${day} ${a[dimension]}`).toBeDefined();
          for (const [metric, at] of Object.entries(metricCols)) expect(row?.[at], `${name} ${metric}`).toBe(String(a[metric]));
        }
      }
    };
    expect(file("imported_sources")[0]).toEqual([
      "date",
      "source",
      "referrer",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_content",
      "utm_term",
      "pageviews",
      "visitors",
      "visits",
      "visit_duration",
      "bounces",
    ]);
    await check("imported_sources", "source", 1, { pageviews: 8, visitors: 9, visits: 10 });
    expect(file("imported_pages")[0]).toEqual(["date", "hostname", "page", "visits", "visitors", "pageviews"]);
    await check("imported_pages", "page", 2, { visits: 3, visitors: 4, pageviews: 5 });
    expect(file("imported_pages")[1]?.[1]).toBe("shop.example.com");
    await check("imported_entry_pages", "entry_page", 1, { visitors: 2, visits: 3, pageviews: 6 });
    await check("imported_exit_pages", "exit_page", 1, { visitors: 2, visits: 4, pageviews: 6 });
    expect(file("imported_custom_events")[0]).toEqual(["date", "name", "link_url", "path", "visitors", "events"]);
    await check("imported_custom_events", "event_name", 1, { visitors: 4, events: 5 });
    expect(file("imported_custom_events").slice(1)).toEqual([["2026-03-02", "signup", "", "", "1", "1"]]);
    await check("imported_locations", "country", 1, { visitors: 4, visits: 5, pageviews: 8 });
    await check("imported_devices", "device", 1, { visitors: 2, visits: 3, pageviews: 6 });
    await check("imported_browsers", "browser", 1, { visitors: 3, visits: 4, pageviews: 7 });
    expect(file("imported_operating_systems")[0]).toEqual([
      "date",
      "operating_system",
      "operating_system_version",
      "visitors",
      "visits",
      "visit_duration",
      "bounces",
      "pageviews",
    ]);
    await check("imported_operating_systems", "os", 1, { visitors: 3, visits: 4, pageviews: 7 });
  });

  it("escapes a tracked value that a spreadsheet would run as a formula", async () => {
    const files = await unzip((await get(owner, "period=custom&date=2026-03-03,2026-03-04")).rawPayload);
    const pages = files.get("imported_pages_20260303_20260304.csv") as string;
    expect(pages).toContain(`"'=HYPERLINK(""x"")"`);
    expect(pages).not.toMatch(/,=HYPERLINK/);
  });

  it("is for admins and owners only, and answers another account's or an unknown property as unknown", async () => {
    expect((await get(byRole.viewer as string)).statusCode).toBe(404);
    expect((await get(byRole.editor as string)).statusCode).toBe(404);
    expect((await get(byRole.admin as string)).statusCode).toBe(200);
    expect((await get(bob)).statusCode).toBe(404);
    expect((await get(owner, range, "nope")).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/properties/${site}/export` })).statusCode).toBe(401);
  });

  it("refuses a bad period or date, naming it", async () => {
    for (const [query, param] of [
      ["period=fortnight", "period"],
      ["period=custom", "date"],
      ["period=custom&date=2026-03-05,2026-03-01", "date"],
      ["period=custom&date=2020-01-01,2026-03-01", "period"],
      ["period=today&date=2026-03-01,2026-03-02", "date"],
    ]) {
      const r = await get(owner, query);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().details, query).toEqual({ param });
    }
  });

  it("exports an empty range as headers only", async () => {
    const files = await unzip((await get(owner, "period=custom&date=2025-01-01,2025-01-02")).rawPayload);
    expect(files.get("imported_visitors_20250101_20250102.csv")).toBe(
      "date,visitors,pageviews,bounces,visits,visit_duration\r\n",
    );
    expect(files.size).toBe(10);
  });
});
