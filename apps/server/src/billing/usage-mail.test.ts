// The usage check's e-mails through a real in-process SMTP server (smtp-server), on PostgreSQL:
// one e-mail to the owners per threshold (80, 90, 100 %) and billing period, never twice, a new
// period starting afresh; the grace e-mail once; a refused send retried by the next check; the
// hourly job enqueued once per account and hour; and a period back under the margin unlocking.
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow } from "@lookout/schema";
import { createJobQueue } from "@lookout/storage";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Mailer, smtpMailer } from "../mail/mailer.js";
import { createTestApp, type TestApp } from "../test-support.js";
import { TEST_PLANS } from "./test-plans.js";
import { type BillingJobs, checkAccount, enqueueUsageChecks } from "./usage-job.js";

const inbox: ParsedMail[] = [];
let refuse = 0;
let server: SMTPServer;
let t: TestApp;
let mailer: Mailer;
let acc: string;
let site: string;
const DAY = 86_400_000;
const ANCHOR = new Date("2026-01-05T00:00:00Z");
const NOW = new Date("2026-06-20T12:00:00Z"); // period 2026-06-05 .. 2026-07-05

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
          return done(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }));
        }
        inbox.push(await simpleParser(Buffer.concat(chunks)));
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), "lookout-plans-"));
  writeFileSync(join(dir, "plans.json"), JSON.stringify(TEST_PLANS));
  t = await createTestApp("postgres", {
    mailer: (mailer = smtpMailer(smtpUrl, "Lookout <billing@lookout.test>")),
    env: {
      LOOKOUT_BILLING: "stripe",
      LOOKOUT_BILLING_PLANS: join(dir, "plans.json"),
      STRIPE_SECRET_KEY: "sk_test_unused",
      STRIPE_WEBHOOK_SECRET: "whsec_unused",
      LOOKOUT_PUBLIC_URL: "https://stats.example.com",
    },
  });
  const alice = await t.user("alice@example.com");
  const viewer = await t.user("viewer@example.com");
  acc = alice.accountId;
  await t.meta.accounts.addMember(acc, viewer.id, "viewer");
  await t.meta.billing.upsertSubscription(acc, "free", { anchor: ANCHOR });
  site = await t.property(acc, "https://shop.test", { name: "Shop" });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const deps = () => ({ meta: t.meta, mailer, billing: t.billing });
const append = (n: number, from: number, name = "pageview") =>
  t.events.append(Array.from({ length: n }, (_, i) => eventRow({ property: site, ts: new Date(from + i * 1000), name })));

describe("usage e-mails", () => {
  it("sends each threshold once per period, to owners only", async () => {
    const cur = Date.parse("2026-06-05T00:00:00Z");
    await append(79, cur);
    await append(30, cur, "engagement");
    expect(await checkAccount(deps(), acc, NOW)).toEqual([]);
    await append(1, cur + DAY);
    expect(await checkAccount(deps(), acc, NOW)).toEqual(["threshold_80"]);
    expect(await checkAccount(deps(), acc, NOW)).toEqual([]);
    await append(25, cur + 2 * DAY);
    expect(await checkAccount(deps(), acc, NOW)).toEqual(["threshold_90", "threshold_100"]);
    const name = "alice@example.com's sites";
    expect(inbox.map((m) => [m.to && "text" in m.to ? m.to.text : "", m.subject])).toEqual([
      ["alice@example.com", `${name} is at 80% of its Lookout plan's limit`],
      ["alice@example.com", `${name} is at 90% of its Lookout plan's limit`],
      ["alice@example.com", `${name} has reached its Lookout plan's limit`],
    ]);
    expect(inbox[0]?.text).toContain("80 of 100 billable events");
    expect(inbox[0]?.text).toContain("https://stats.example.com/billing");
  });

  it("starts afresh in the next period; a refused send is retried by the next check", async () => {
    const next = Date.parse("2026-07-05T00:00:00Z");
    const later = new Date(next + 3 * DAY);
    await append(85, next);
    inbox.length = 0;
    refuse = 1;
    await expect(checkAccount(deps(), acc, later)).rejects.toThrow();
    expect(await checkAccount(deps(), acc, later)).toEqual(["threshold_80"]);
    expect(inbox).toHaveLength(1);
  });

  it("e-mails the grace period once when two periods end over the margin, and a period back under ends it", async () => {
    // June had 105; July gets 111 + 85 = 196 by its end; in August both are complete: 105 < 110, no grace.
    await append(111, Date.parse("2026-07-20T00:00:00Z"));
    const aug = new Date("2026-08-10T00:00:00Z");
    expect(await checkAccount(deps(), acc, aug)).toEqual([]);
    // June over the margin too (late events): forget the stored count, as a recount would.
    await append(10, Date.parse("2026-06-25T00:00:00Z"));
    await t.meta.billing.forgetUsage(acc);
    inbox.length = 0;
    expect(await checkAccount(deps(), acc, aug)).toEqual(["grace_usage"]);
    expect(await checkAccount(deps(), acc, aug)).toEqual([]);
    expect(inbox[0]?.subject).toMatch(/upgrade within 7 days/);
    // Locked a week later, with its e-mail.
    const locked = new Date(aug.getTime() + 8 * DAY);
    expect(await checkAccount(deps(), acc, locked)).toEqual(["locked"]);
    expect((await t.billing.state(acc, locked)).ladder.status).toBe("locked");
    // September: August (0 events) is the last complete period, back under the margin: unlocked at once.
    const sep = new Date("2026-09-06T00:00:00Z");
    const s = await t.billing.state(acc, sep);
    expect([s.ladder.status, s.ladder.grace]).toEqual(["active", null]);
    expect((await t.meta.billing.subscription(acc))?.grace_ends_at).toBeNull();
  });

  it("enqueues one check per account and hour, however many servers ask", async () => {
    const queue = createJobQueue<BillingJobs>(t.meta.db);
    const accounts = (await t.meta.billing.accountIds()).length;
    expect(await enqueueUsageChecks(t.meta, queue, NOW)).toBe(accounts);
    expect(await enqueueUsageChecks(t.meta, queue, new Date(NOW.getTime() + 60_000))).toBe(0);
    expect(await enqueueUsageChecks(t.meta, queue, new Date(NOW.getTime() + 3_600_000))).toBe(accounts);
  });
});
