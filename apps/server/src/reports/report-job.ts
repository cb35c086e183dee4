// Scheduled reports on the job runner. Every minute (and at start) the schedule callback finds
// each schedule whose latest due occurrence (periods.ts) is newer than its last sent period and
// enqueues one job per recipient under the key `report:<schedule>:<period>:<recipient>`: N
// servers on one database enqueue it once, and the queue's row locks let one runner claim it.
//
// The queue delivers at least once; the mail goes out once per recipient through
// report_deliveries: the handler renders the mail, then claims the (schedule, period, recipient)
// row ('sending'), sends, and marks it 'sent'. A retry finds 'sent' and stops. An SMTP error marks
// it 'failed' and the job is retried with the queue's backoff. The one window left: a server that
// dies after the SMTP server accepted the mail but before 'sent' was written leaves a 'sending'
// row; once it is older than the job lock (the job's own retry comes no sooner) it is sent again,
// so that recipient may get a second copy. Once every current recipient has 'sent', the schedule's
// last_sent_period moves to the period.
//
// An account locked over its plan's quota (issue #24 §3) gets no report: its numbers are what the
// lock withholds. The job ends without sending or marking the period sent; once the job row is
// cleaned up its key is free again, so an account unlocked within the period still gets it.
import {
  createJobQueue,
  type JobHandlers,
  type JobLogger,
  type JobQueue,
  JobRunner,
  type MetaStore,
  reportSchedulesRepo,
} from "@lookout/storage";
import type { AppDeps } from "../app-deps.js";
import type { BillingService } from "../billing/service.js";
import type { Mailer } from "../mail/mailer.js";
import { createStatsService } from "../stats/service.js";
import { currentDue } from "./periods.js";
import { createReportService, type ReportService } from "./service.js";

export interface ReportJobPayload {
  scheduleId: string;
  /** The property's unique_id. */
  property: string;
  period: string;
  from: string;
  to: string;
  recipient: string;
}

export interface ReportJobs {
  "report.send": ReportJobPayload;
}

/** How long a claimed job is held without a heartbeat; also when a 'sending' delivery counts as abandoned. */
export const REPORT_LOCK_MS = 5 * 60_000;
const MAX_ATTEMPTS = 8;

export interface ReportJobDeps {
  meta: MetaStore;
  billing: Pick<BillingService, "isLocked">;
  mailer: Mailer;
  reports: ReportService;
  /** The clock the schedule reads (tests move it); the runner's own otherwise. */
  now?: () => Date;
  lockMs?: number;
}

/** Enqueues every due, unsent (schedule, period, recipient). Returns how many jobs were new. */
export async function enqueueDueReports(meta: MetaStore, queue: JobQueue<ReportJobs>, now: Date): Promise<number> {
  const repo = reportSchedulesRepo(meta.db);
  let created = 0;
  for (const s of await repo.listActive()) {
    let due: ReturnType<typeof currentDue>;
    try {
      due = currentDue(s.frequency, now, s.timezone, s.send_hour);
    } catch {
      continue; // an unknown timezone: nothing can be due
    }
    // Nothing for occurrences before the schedule existed, nor for a period already sent.
    if (due.dueAt < s.created_at) continue;
    if (s.last_sent_period !== null && s.last_sent_period >= due.id) continue;
    for (const recipient of s.recipients) {
      const r = await queue.enqueue({
        name: "report.send",
        key: `report:${s.id}:${due.id}:${recipient.toLowerCase()}`,
        payload: { scheduleId: s.id, property: s.unique_id, period: due.id, from: due.from, to: due.to, recipient },
        maxAttempts: MAX_ATTEMPTS,
      });
      if (r.created) created++;
    }
  }
  return created;
}

export function reportJobHandlers(deps: ReportJobDeps): JobHandlers<ReportJobs> {
  const repo = reportSchedulesRepo(deps.meta.db);
  const lockMs = deps.lockMs ?? REPORT_LOCK_MS;

  async function completeIfAllSent(scheduleId: string, period: string): Promise<void> {
    const schedule = await repo.get(scheduleId);
    if (!schedule) return;
    const sent = new Set(await repo.deliveries.sentTo(scheduleId, period));
    if (schedule.recipients.every((r) => sent.has(r.toLowerCase()))) await repo.markPeriodSent(scheduleId, period);
  }

  return {
    "report.send": async (job) => {
      const p = job.payload;
      const schedule = await repo.get(p.scheduleId);
      // Deleted, or the recipient unsubscribed since: nothing to send.
      if (!schedule?.recipients.some((r) => r.toLowerCase() === p.recipient.toLowerCase())) return;
      const property = await deps.meta.properties.findByUniqueId(p.property);
      if (!property || property.id !== schedule.property_id) return;
      if (await deps.billing.isLocked(property.account_id)) return;
      const mail = await deps.reports.scheduledMail(schedule, property, { id: p.period, from: p.from, to: p.to }, p.recipient);
      const claim = await repo.deliveries.claim(schedule.id, p.period, p.recipient, lockMs);
      if (claim === "busy") throw new Error(`report ${p.period} for ${p.recipient} is being sent by another attempt`);
      if (claim === "claimed") {
        try {
          await deps.mailer.send(mail);
        } catch (err) {
          await repo.deliveries.finish(schedule.id, p.period, p.recipient, "failed");
          throw err;
        }
        await repo.deliveries.finish(schedule.id, p.period, p.recipient, "sent");
      }
      await completeIfAllSent(schedule.id, p.period);
    },
  };
}

/** The server's runner for report jobs (main.ts starts it; the CLI never does). */
export function createReportRunner(
  deps: ReportJobDeps & {
    queue: JobQueue<ReportJobs>;
    logger?: JobLogger;
    pollMs?: number;
    scheduleEveryMs?: number;
    workerId?: string;
  },
): JobRunner<ReportJobs> {
  return new JobRunner<ReportJobs>({
    queue: deps.queue,
    handlers: reportJobHandlers(deps),
    schedule: (queue, now) => enqueueDueReports(deps.meta, queue, deps.now?.() ?? now).then(() => {}),
    scheduleEveryMs: deps.scheduleEveryMs ?? 60_000,
    lockMs: deps.lockMs ?? REPORT_LOCK_MS,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    ...(deps.workerId ? { workerId: deps.workerId } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
}

/** Starts the server's report runner over its services; stop() it before closing them. */
export function startReportRunner(services: AppDeps, logger: JobLogger): JobRunner<ReportJobs> {
  const reports = createReportService({ ...services, stats: createStatsService(services), log: logger });
  const runner = createReportRunner({
    meta: services.meta,
    billing: services.billing,
    mailer: services.mailer,
    reports,
    queue: createJobQueue<ReportJobs>(services.meta.db),
    logger,
  });
  runner.start();
  return runner;
}
