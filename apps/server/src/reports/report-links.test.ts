// Where a report e-mail's links point: the auth service's one rule for e-mailed links (linkBase),
// never a localhost guess. Without LOOKOUT_PUBLIC_URL and before the owner's first sign-in the
// report goes without links (no dashboard, no unsubscribe header) and a log line says why; after
// the owner signs in, links start with the address they signed in from; a configured public URL
// wins over both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.js";
import type { Actor } from "../http/authenticate.js";
import type { Mail, Mailer } from "../mail/mailer.js";
import { createStatsService } from "../stats/service.js";
import { createTestApp, type TestApp } from "../test-support.js";
import { createReportService, NO_LINKS_LOG } from "./service.js";

describe("report e-mail links", () => {
  let t: TestApp;
  let site: string;
  let owner: { id: string; accountId: string; email: string; password: string };
  const sent: Mail[] = [];
  const warnings: string[] = [];
  const mailer: Mailer = {
    send: async (m) => {
      sent.push(m);
    },
    close: async () => {},
  };
  beforeAll(async () => {
    t = await createTestApp("pglite");
    owner = await t.user("alice@example.com");
    site = await t.property(owner.accountId, "https://shop.test", { name: "Shop" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const reports = (env: Record<string, string> = {}) =>
    createReportService({
      config: loadConfig({ LOOKOUT_DATA_DIR: "/tmp", ...env }),
      meta: t.meta,
      mailer,
      auth: t.auth,
      billing: t.billing,
      stats: createStatsService({ reads: t.reads, presence: t.presence, meta: t.meta }),
      log: { warn: (_obj, msg) => warnings.push(msg) },
    });
  /** The weekly report sent now to its one scheduled recipient; the mail. */
  const sendWeekly = async (service: ReturnType<typeof reports>): Promise<Mail> => {
    const property = await t.meta.properties.findByUniqueId(site);
    if (!property) throw new Error("no property");
    const actor: Actor = { userId: owner.id, tokenId: "t", token: "t", via: "bearer" };
    await service.put(actor, property, { frequency: "weekly", recipients: ["ann@example.com"] });
    sent.length = 0;
    await service.sendNow(actor, property, { frequency: "weekly" });
    expect(sent).toHaveLength(1);
    return sent[0] as Mail;
  };
  const links = (m: Mail) => [...`${m.text}\n${m.html ?? ""}`.matchAll(/https?:\/\/[^\s"<>]+/g)].map((x) => x[0]);

  it("without a public URL or an owner's sign-in: no links at all, and a log line says why", async () => {
    warnings.length = 0;
    const mail = await sendWeekly(reports());
    expect(links(mail)).toEqual([]);
    expect(mail.text).not.toContain("localhost");
    expect(mail.text).not.toContain("Dashboard:");
    expect(mail.headers?.["List-Unsubscribe"]).toBeUndefined();
    expect(mail.subject).toBe("Weekly report for Shop");
    expect(warnings).toEqual([NO_LINKS_LOG]);
    expect(NO_LINKS_LOG).toMatch(/LOOKOUT_PUBLIC_URL/);
  });

  it("after the owner signs in: links start with the address they signed in from", async () => {
    const r = await t.app.inject({
      method: "POST",
      url: "/wp-json/custom/v1/login",
      headers: { host: "stats.first.example" },
      payload: { username: owner.email, password: owner.password },
    });
    expect(r.statusCode).toBe(200);
    warnings.length = 0;
    const mail = await sendWeekly(reports());
    expect(links(mail)).toContain("http://stats.first.example/dashboard");
    expect(mail.headers?.["List-Unsubscribe"]).toMatch(/^<http:\/\/stats\.first\.example\/api\/v1\/reports\/unsubscribe\?token=/);
    for (const link of links(mail)) expect(link).toMatch(/^http:\/\/stats\.first\.example\//);
    expect(warnings).toEqual([]);
  });

  it("a configured LOOKOUT_PUBLIC_URL wins", async () => {
    const mail = await sendWeekly(reports({ LOOKOUT_PUBLIC_URL: "https://stats.example.com" }));
    expect(links(mail)).toContain("https://stats.example.com/dashboard");
    expect(mail.headers?.["List-Unsubscribe"]).toMatch(/^<https:\/\/stats\.example\.com\/api\/v1\/reports\/unsubscribe\?token=/);
    for (const link of links(mail)) expect(link).toMatch(/^https:\/\/stats\.example\.com\//);
  });
});
