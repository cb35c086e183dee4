// Scheduled reports end to end against a real in-process SMTP server (smtp-server) on PostgreSQL:
// the mail's content against the Stats API's numbers, the New York DST week, two job runners on
// one database sending each recipient exactly one mail, a retry after the SMTP server refused the
// first attempt, and the mail's own unsubscribe link.
import type { AddressInfo } from "node:net";
import { type EventRow, eventRow } from "@lookout/schema";
import { createJobQueue, type MetaStore, openMetaStore, reportSchedulesRepo } from "@lookout/storage";
import { requirePostgres } from "@lookout/storage/test-services";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import { smtpMailer } from "../mail/mailer.js";
import { createStatsService } from "../stats/service.js";
import { createTestApp, type TestApp } from "../test-support.js";
import { createReportRunner, enqueueDueReports, type ReportJobs } from "./report-job.js";
import { createReportService } from "./service.js";

const inbox: ParsedMail[] = [];
let refuse = 0;
let server: SMTPServer;
let smtpUrl: string;
let t: TestApp;
let token: string;
let site: string;
let other: MetaStore;

// The property is in New York; the week of 26 Oct – 1 Nov 2026 ends on the day DST ends, and its
// report is due Monday 2 Nov 09:00 EST = 14:00 UTC (the week before's was at 13:00 UTC).
const DUE = new Date("2026-11-02T14:00:00Z");
const AFTER = new Date("2026-11-02T14:00:30Z");

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (refuse > 0) {
          refuse--;
          const err = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
          return done(err);
        }
        inbox.push(await simpleParser(Buffer.concat(chunks), { keepCidLinks: true }));
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  t = await createTestApp("postgres", {
    mailer: smtpMailer(smtpUrl, "Lookout <reports@lookout.test>"),
    env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" },
  });
  const alice = await t.user("alice@example.com");
  site = await t.property(alice.accountId, "https://shop.test", { name: "Shop", timezone: "America/New_York" });
  token = (await t.login(alice.email, alice.password)).token;
  const ev = (ts: string, v: string, o: Partial<EventRow> = {}): EventRow =>
    eventRow({
      property: site,
      ts: new Date(ts),
      visitor_id: v,
      client_id: v,
      session_id: `s-${v}`,
      hostname: "shop.test",
      country: "US",
      browser: "Firefox",
      os: "Linux",
      device: "desktop",
      ...o,
      url: `https://shop.test${o.path ?? "/"}`,
    });
  const google = { referrer_source: "Google", channel: "search" } as const;
  await t.events.append([
    // The week before (19–25 Oct): two visitors.
    ev("2026-10-20T15:00:00Z", "p1"),
    ev("2026-10-21T15:00:00Z", "p2", google),
    // The week: v1 two pages and a signup, v2 direct, v3 from a source with markup, v4 at 22:00 on
    // 1 Nov in New York (03:00 UTC on 2 Nov), v5 after the week.
    ev("2026-10-27T15:00:00Z", "v1", google),
    ev("2026-10-27T15:01:00Z", "v1", { ...google, path: "/pricing" }),
    ev("2026-10-27T15:02:00Z", "v1", { ...google, path: "/pricing", name: "signup" }),
    ev("2026-10-28T16:00:00Z", "v2"),
    ev("2026-11-01T20:00:00Z", "v3", { referrer_source: "News <Site>", channel: "referral", path: "/<b>x</b>" }),
    ev("2026-11-02T03:00:00Z", "v4", { ...google, path: "/blog" }),
    ev("2026-11-02T06:00:00Z", "v5"),
  ]);
  for (const goal of [
    { kind: "event", match: "signup", display_name: "Signups" },
    { kind: "page", match: "/pric*" },
  ]) {
    const r = await t.app.inject({
      method: "POST",
      url: `/api/v1/properties/${site}/goals`,
      headers: { authorization: `Bearer ${token}` },
      payload: goal,
    });
    expect(r.statusCode, r.body).toBe(201);
  }
  // A second metadata store on the same PostgreSQL schema: a second server.
  const schema = (await t.meta.db.selectNoFrom((eb) => eb.fn<string>("current_schema").as("s")).executeTakeFirstOrThrow()).s;
  other = await openMetaStore({ kind: "postgres", url: await requirePostgres(), schema });
}, 90_000);

afterAll(async () => {
  await other?.close();
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const api = async (path: string) => {
  const r = await t.app.inject({ url: path, headers: { authorization: `Bearer ${token}` } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().results;
};

function runnerOn(meta: MetaStore, now: Date, name: string) {
  const config = loadConfig({ LOOKOUT_DATA_DIR: "/tmp", LOOKOUT_PUBLIC_URL: "https://stats.example.com" });
  const mailer = smtpMailer(smtpUrl, "Lookout <reports@lookout.test>");
  const reports = createReportService({
    config,
    meta,
    mailer,
    auth: t.auth,
    billing: t.billing,
    stats: createStatsService({ reads: t.reads, presence: t.presence, meta }),
    now: () => now,
  });
  const runner = createReportRunner({
    meta,
    billing: t.billing,
    mailer,
    reports,
    queue: createJobQueue<ReportJobs>(meta.db, { backoff: { baseMs: 100, maxMs: 200 } }),
    now: () => now,
    pollMs: 20,
    scheduleEveryMs: 30,
    workerId: name,
    logger: { info() {}, warn() {}, error() {} },
  });
  return { runner, mailer };
}

async function waitFor(check: () => Promise<boolean> | boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

const byRecipient = (to: string) => inbox.filter((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === to);

describe("scheduled reports over SMTP", () => {
  it("are due at 09:00 EST after the DST change, and two runners on one database send each recipient one mail", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/v1/properties/${site}/reports`,
      headers: { authorization: `Bearer ${token}` },
      payload: { frequency: "weekly", recipients: ["ann@example.com", "ben@example.com"] },
    });
    expect(put.statusCode).toBe(200);
    const scheduleId = put.json().weekly.id as string;
    // Created after the week before's report went out (26 Oct 13:00 UTC).
    await t.meta.db
      .updateTable("report_schedules")
      .set({ created_at: "2026-10-30T00:00:00Z" } as never)
      .where("id", "=", scheduleId)
      .execute();

    const queue = createJobQueue<ReportJobs>(t.meta.db);
    expect(await enqueueDueReports(t.meta, queue, new Date(DUE.getTime() - 60_000))).toBe(0);

    const a = runnerOn(t.meta, AFTER, "server-a");
    const b = runnerOn(other, AFTER, "server-b");
    a.runner.start();
    b.runner.start();
    try {
      await waitFor(async () => (await reportSchedulesRepo(t.meta.db).get(scheduleId))?.last_sent_period === "2026-W44");
      // Both keep ticking the same due schedule for a while: nothing more is sent.
      await new Promise((r) => setTimeout(r, 600));
    } finally {
      await Promise.all([a.runner.stop(), b.runner.stop()]);
      await Promise.all([a.mailer.close(), b.mailer.close()]);
    }
    expect(byRecipient("ann@example.com")).toHaveLength(1);
    expect(byRecipient("ben@example.com")).toHaveLength(1);
    const jobs = await t.meta.db
      .withTables<{ lookout_jobs: { key: string; state: string; attempts: number } }>()
      .selectFrom("lookout_jobs")
      .select(["key", "state", "attempts"])
      .where("key", "like", `report:${scheduleId}:%`)
      .orderBy("key")
      .execute();
    expect(jobs).toEqual([
      { key: `report:${scheduleId}:2026-W44:ann@example.com`, state: "done", attempts: 1 },
      { key: `report:${scheduleId}:2026-W44:ben@example.com`, state: "done", attempts: 1 },
    ]);
    const schedule = await reportSchedulesRepo(t.meta.db).get(scheduleId);
    expect(schedule?.last_sent_at).not.toBeNull();
  }, 60_000);

  it("says what the Stats API says for the week, with the chart inline, a text part and an unsubscribe link", async () => {
    const mail = byRecipient("ann@example.com")[0] as ParsedMail;
    expect(mail.subject).toBe("Weekly report for Shop");
    const range = "period=custom&date=2026-10-26,2026-11-01";
    const agg = await api(
      `/api/v1/stats/aggregate?property_id=${site}&${range}&metrics=visitors,pageviews,bounce_rate,visit_duration&compare=previous_period`,
    );
    expect(agg.visitors).toEqual({ value: 4, comparison: 2, change: 100 });
    const text = mail.text ?? "";
    expect(text).toContain("2026-10-26 – 2026-11-01");
    expect(text).toContain(`Unique visitors: ${agg.visitors.value} (+${agg.visitors.change}% vs previous period)`);
    expect(text).toContain(`Pageviews: ${agg.pageviews.value} (`);
    expect(text).toContain(`Bounce rate: ${agg.bounce_rate.value}% (`);
    const sources = (await api(`/api/v1/stats/breakdown?property_id=${site}&${range}&dimension=source&metrics=visitors`)) as {
      source: string;
      visitors: number;
    }[];
    // Direct traffic (the empty source) is left out.
    expect(sources.map((s) => s.source).sort()).toEqual(["", "Google", "News <Site>"]);
    for (const s of sources.filter((s) => s.source !== "")) expect(text).toContain(`  ${s.source} — ${s.visitors}`);
    expect(text).toMatch(/Top sources:\n {2}Google — 2\n {2}News <Site> — 1\n\n/);
    const pages = (await api(`/api/v1/stats/breakdown?property_id=${site}&${range}&dimension=page&metrics=visitors`)) as {
      page: string;
      visitors: number;
    }[];
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const p of pages.slice(0, 5)) expect(text).toContain(`  ${p.page} — ${p.visitors}`);
    const conv = await api(`/api/v1/stats/aggregate?property_id=${site}&${range}&metrics=conversions&goal=signup`);
    expect(text).toContain(`Signups — ${conv.conversions.value} (25%)`);
    // A pageview goal: v1 viewed /pricing, one of the week's four visitors.
    expect(text).toContain("Visit /pric* — 1 (25%)");

    // The HTML part escapes tracked text and shows the chart from its cid part.
    const html = String(mail.html);
    expect(html).toContain("News &lt;Site&gt;");
    expect(html).toContain("/&lt;b&gt;x&lt;/b&gt;");
    expect(html).not.toContain("<b>x</b>");
    const chart = mail.attachments.find((a) => a.contentType === "image/png");
    expect(chart?.cid).toBe("visitors-chart@lookout");
    expect(chart?.content.subarray(1, 4).toString()).toBe("PNG");
    expect(html).toContain(`src="cid:${chart?.cid}"`);

    // Each copy has its recipient's own link, also in List-Unsubscribe.
    const link = /https:\/\/stats\.example\.com(\/api\/v1\/reports\/unsubscribe\?token=\S+)/.exec(text)?.[1] as string;
    const header = mail.headerLines.find((h) => h.key === "list-unsubscribe")?.line.replace(/\r?\n\s+/g, " ");
    expect(header).toBe(`List-Unsubscribe: <https://stats.example.com${link}>`);
    expect(mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    const benLink = /\/api\/v1\/reports\/unsubscribe\?token=\S+/.exec(byRecipient("ben@example.com")[0]?.text ?? "")?.[0];
    expect(benLink).not.toBe(link);
    const r = await t.app.inject({ url: link });
    expect(r.body).toContain("You will no longer receive the weekly report for Shop at ann@example.com");
    const after = await t.app.inject({
      url: `/api/v1/properties/${site}/reports`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.json().weekly.recipients).toEqual(["ben@example.com"]);
  });

  it("retries with backoff when the SMTP server refuses the first attempt, and sends once", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/v1/properties/${site}/reports`,
      headers: { authorization: `Bearer ${token}` },
      payload: { frequency: "monthly", recipients: ["cat@example.com"] },
    });
    const scheduleId = put.json().monthly.id as string;
    await t.meta.db
      .updateTable("report_schedules")
      .set({ created_at: "2026-10-15T00:00:00Z" } as never)
      .where("id", "=", scheduleId)
      .execute();
    refuse = 1;
    // 1 Nov 09:00 EST: October's report.
    const { runner, mailer } = runnerOn(t.meta, new Date("2026-11-01T14:00:05Z"), "server-c");
    runner.start();
    try {
      await waitFor(async () => (await reportSchedulesRepo(t.meta.db).get(scheduleId))?.last_sent_period === "2026-10");
    } finally {
      await runner.stop();
      await mailer.close();
    }
    expect(refuse).toBe(0);
    const mails = byRecipient("cat@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("October report for Shop");
    const job = await t.meta.db
      .withTables<{ lookout_jobs: { key: string; attempts: number; state: string; last_error: string | null } }>()
      .selectFrom("lookout_jobs")
      .select(["attempts", "state", "last_error"])
      .where("key", "=", `report:${scheduleId}:2026-10:cat@example.com`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 2, state: "done" });
    expect(job.last_error).toContain("Mailbox busy");
  }, 60_000);
});
