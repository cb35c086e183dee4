// E-mailed reports and exports (DESIGN.md §5 "reports", "exports"; issue #18 §8): the schedule
// PUT body (binding shape `{frequency, recipients[]}`), the schedules a property has, send-now.
import { z } from "zod";
import { text } from "./strings.js";

export const REPORT_FREQUENCIES = ["weekly", "monthly"] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
export const MAX_REPORT_RECIPIENTS = 50;

/** One address: zod's e-mail check, trimmed; kept as typed (deduplicated case-insensitively). */
export const ReportRecipientSchema = text().trim().max(254).pipe(z.email("is not an e-mail address"));

/** Recipients: each an e-mail, duplicates (ignoring case) dropped, at most 50. */
export const ReportRecipientsSchema = z
  .array(ReportRecipientSchema)
  .max(MAX_REPORT_RECIPIENTS * 4)
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((r) => {
      const k = r.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  })
  .refine((list) => list.length <= MAX_REPORT_RECIPIENTS, `at most ${MAX_REPORT_RECIPIENTS} recipients`);

/**
 * PUT …/reports. `frequency` weekly|monthly creates or replaces that schedule (its recipients and
 * send hour; an empty recipient list removes it); "off" removes the schedule named by `schedule`,
 * or both when `schedule` is left out.
 */
export const PutReportScheduleSchema = z
  .object({
    frequency: z.enum(["weekly", "monthly", "off"]),
    recipients: ReportRecipientsSchema.default([]),
    /** The local hour (0–23, the property's timezone) it goes out; 9 unless told. */
    send_hour: z.number().int().min(0).max(23).optional(),
    /** With frequency "off": which schedule to turn off (both when absent). */
    schedule: z.enum(REPORT_FREQUENCIES).optional(),
  })
  .strict();
export type PutReportSchedule = z.input<typeof PutReportScheduleSchema>;

export const ReportScheduleSchema = z.object({
  id: z.string(),
  frequency: z.enum(REPORT_FREQUENCIES),
  recipients: z.array(z.string()),
  send_hour: z.number().int(),
  /** e.g. "2026-W47" (ISO week) or "2026-11": the last period sent to every recipient. */
  last_sent_period: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  /** The period the next report covers and when it goes out (ISO instant). */
  next_period: z.string(),
  next_send_at: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const ReportSchedulesAnswerSchema = z.object({
  /** The property's timezone, in which send hours and periods are read. */
  timezone: z.string(),
  weekly: ReportScheduleSchema.nullable(),
  monthly: ReportScheduleSchema.nullable(),
});
export type ReportSchedulesAnswer = z.infer<typeof ReportSchedulesAnswerSchema>;

/** POST …/reports/send-now: the last complete period's report, to these or all recipients. */
export const SendReportNowSchema = z
  .object({
    frequency: z.enum(REPORT_FREQUENCIES),
    recipients: ReportRecipientsSchema.optional(),
  })
  .strict();
export type SendReportNow = z.input<typeof SendReportNowSchema>;

export const SendReportNowAnswerSchema = z.object({
  period: z.string(),
  /** The period's first and last day (YYYY-MM-DD, the property's timezone). */
  from: z.string(),
  to: z.string(),
  sent: z.array(z.string()),
});
export type SendReportNowAnswer = z.infer<typeof SendReportNowAnswerSchema>;

/** The export's file names in Plausible's format (research/peers.md §6.1), in the order written. */
export const EXPORT_TABLES = [
  "imported_visitors",
  "imported_sources",
  "imported_pages",
  "imported_entry_pages",
  "imported_exit_pages",
  "imported_custom_events",
  "imported_locations",
  "imported_devices",
  "imported_browsers",
  "imported_operating_systems",
] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];
