// The reports domain: a property's weekly and monthly schedules (GET/PUT), "send now" previews,
// one recipient's report for one period (used by the job, report-job.ts), and unsubscribing.
// No HTTP here: routes.ts has authorized the actor already.

import type {
  PutReportScheduleSchema,
  ReportFrequency,
  ReportSchedule,
  ReportSchedulesAnswer,
  SendReportNow,
  SendReportNowAnswer,
} from "@lookout/schema";
import { type MetaStore, type PropertyRow, type ReportScheduleRow, reportSchedulesRepo } from "@lookout/storage";
import type { z } from "zod";
import type { BillingService } from "../billing/service.js";
import type { AuthService } from "../auth/auth-service.js";
import type { Config } from "../config/config.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import type { Mailer } from "../mail/mailer.js";
import type { createStatsService } from "../stats/service.js";
import { visitorsChartPng } from "./chart.js";
import { type ReportContent, reportContent } from "./content.js";
import { lastComplete, nextDue, type ReportPeriod } from "./periods.js";
import { renderReport } from "./render.js";
import { unsubscribeTokens } from "./unsubscribe-token.js";

export const DEFAULT_SEND_HOUR = 9;

/** Where a report without links says why (the job's logger, a request's logger). */
export interface ReportLog {
  warn(obj: object, msg: string): void;
}

export const NO_LINKS_LOG =
  "report e-mail: sent without its dashboard and unsubscribe links, because LOOKOUT_PUBLIC_URL is not set and the owner " +
  "has not signed in yet (links never use a request's Host header). Set LOOKOUT_PUBLIC_URL, or sign in once as the owner.";

const stderrLog: ReportLog = {
  warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
};

export interface ReportDeps {
  config: Config;
  meta: MetaStore;
  mailer: Mailer;
  /** The one rule for e-mailed links (auth-service.ts linkBase). */
  auth: Pick<AuthService, "linkBase">;
  stats: ReturnType<typeof createStatsService>;
  /** A report is a dashboard read: none for an account locked over its quota (issue #24 §3). */
  billing: Pick<BillingService, "assertReadable">;
  /** Where a report sent without links says why; a call may give its own (default: standard error). */
  log?: ReportLog;
  /** The clock (tests move it). */
  now?: () => Date;
}

export function createReportService(deps: ReportDeps) {
  const { meta, mailer } = deps;
  const schedules = reportSchedulesRepo(meta.db);
  const tokens = unsubscribeTokens(meta);
  const now = deps.now ?? (() => new Date());

  /**
   * Where e-mailed links point, by the auth service's one rule: LOOKOUT_PUBLIC_URL, else the
   * address the owner first signed in from; with neither, undefined: the mail goes without links.
   */
  async function baseUrl(): Promise<string | undefined> {
    return (await deps.auth.linkBase(deps.config.publicUrl))?.replace(/\/+$/, "");
  }

  function toSchedule(row: ReportScheduleRow, timezone: string): ReportSchedule {
    const next = nextDue(row.frequency, now(), timezone, row.send_hour);
    return {
      id: row.id,
      frequency: row.frequency,
      recipients: row.recipients,
      send_hour: row.send_hour,
      last_sent_period: row.last_sent_period,
      last_sent_at: row.last_sent_at ? row.last_sent_at.toISOString() : null,
      next_period: next.id,
      next_send_at: next.dueAt.toISOString(),
    };
  }

  async function list(property: PropertyRow): Promise<ReportSchedulesAnswer> {
    const rows = await schedules.listForProperty(property.id);
    const of = (f: ReportFrequency) => {
      const row = rows.find((r) => r.frequency === f);
      return row ? toSchedule(row, property.timezone) : null;
    };
    return { timezone: property.timezone, weekly: of("weekly"), monthly: of("monthly") };
  }

  /** The mails of one period to `recipients` (a schedule's, with their unsubscribe links). */
  async function mails(
    property: PropertyRow,
    frequency: ReportFrequency,
    period: Pick<ReportPeriod, "id" | "from" | "to">,
    recipients: readonly string[],
    schedule: ReportScheduleRow | undefined,
    log: ReportLog,
  ) {
    // The route declares readsStats too; this also holds for the scheduled job's mails.
    await deps.billing.assertReadable(property.account_id);
    const content: ReportContent = await reportContent({ stats: deps.stats }, property, period);
    const chartPng = await visitorsChartPng(content.daily);
    const base = await baseUrl();
    if (!base) log.warn({ unique_id: property.unique_id, frequency, period: period.id }, NO_LINKS_LOG);
    const listed = new Set(schedule?.recipients.map((r) => r.toLowerCase()) ?? []);
    return Promise.all(
      recipients.map(async (to) => {
        const unsubscribeUrl =
          base && schedule && listed.has(to.toLowerCase())
            ? `${base}/api/v1/reports/unsubscribe?token=${encodeURIComponent(await tokens.sign(schedule.id, to))}`
            : undefined;
        return renderReport(to, {
          frequency,
          propertyName: property.name,
          content,
          ...(base ? { dashboardUrl: `${base}/dashboard` } : {}),
          ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
          chartPng,
        });
      }),
    );
  }

  return {
    schedules,
    tokens,
    list,

    async put(actor: Actor, property: PropertyRow, body: z.output<typeof PutReportScheduleSchema>) {
      const { frequency, recipients } = body;
      let action: string;
      if (frequency === "off" || recipients.length === 0) {
        const which = frequency === "off" ? body.schedule : frequency;
        await schedules.remove(property.id, which);
        action = "report_schedule.delete";
      } else {
        const existing = (await schedules.listForProperty(property.id)).find((r) => r.frequency === frequency);
        await schedules.upsert({
          propertyId: property.id,
          frequency,
          recipients,
          sendHour: body.send_hour ?? existing?.send_hour ?? DEFAULT_SEND_HOUR,
        });
        action = "report_schedule.update";
      }
      await meta.audit.record({
        action,
        userId: actor.userId,
        accountId: property.account_id,
        detail: {
          unique_id: property.unique_id,
          frequency,
          ...(body.schedule ? { schedule: body.schedule } : {}),
          recipients: recipients.length,
        },
      });
      return list(property);
    },

    /** The last complete period's report, now, as a preview: the period is not marked sent. */
    async sendNow(
      actor: Actor,
      property: PropertyRow,
      body: SendReportNow,
      log: ReportLog = deps.log ?? stderrLog,
    ): Promise<SendReportNowAnswer> {
      const schedule = (await schedules.listForProperty(property.id)).find((r) => r.frequency === body.frequency);
      const recipients = body.recipients?.length ? body.recipients : (schedule?.recipients ?? []);
      if (recipients.length === 0) {
        throw new DomainError("invalid_parameter", "recipients: give at least one, or set up this report first", {
          param: "recipients",
        });
      }
      const period = lastComplete(body.frequency, now(), property.timezone);
      for (const mail of await mails(property, body.frequency, period, recipients, schedule, log)) await mailer.send(mail);
      await meta.audit.record({
        action: "report.send_now",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, frequency: body.frequency, period: period.id, recipients: recipients.length },
      });
      return { period: period.id, from: period.from, to: period.to, sent: [...recipients] };
    },

    /** One scheduled mail (the job's work): the report of `period` for `recipient`. */
    async scheduledMail(
      schedule: ReportScheduleRow,
      property: PropertyRow,
      period: Pick<ReportPeriod, "id" | "from" | "to">,
      to: string,
    ) {
      const [mail] = await mails(property, schedule.frequency, period, [to], schedule, deps.log ?? stderrLog);
      return mail as NonNullable<typeof mail>;
    },

    /** Removes the token's recipient from its schedule; what it did, for the page. */
    async unsubscribe(token: string): Promise<{ ok: boolean; recipient?: string; report?: string }> {
      const found = await tokens.verify(token);
      if (!found) return { ok: false };
      const schedule = await schedules.get(found.scheduleId);
      if (!schedule) return { ok: true, recipient: found.recipient };
      const removed = await schedules.removeRecipient(schedule.id, found.recipient);
      const property = await meta.db
        .selectFrom("properties")
        .select(["name", "unique_id", "account_id"])
        .where("id", "=", schedule.property_id)
        .executeTakeFirst();
      if (removed) {
        await meta.audit.record({
          action: "report_schedule.unsubscribe",
          accountId: property?.account_id ?? null,
          detail: { unique_id: property?.unique_id, frequency: schedule.frequency },
        });
      }
      return {
        ok: true,
        recipient: found.recipient,
        report: `${schedule.frequency} report for ${property?.name ?? "this site"}`,
      };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
