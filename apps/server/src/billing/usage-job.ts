// The usage check (issue #24 §3) on the job runner: every hour each server's schedule enqueues one
// `billing.check` job per account under the key `billing:<account>:<hour>`, so N servers enqueue
// it once and one claims it. The job asks the ladder (which starts, ends and locks grace
// periods, service.ts) and e-mails the account's owners once per kind and billing period: each
// usage threshold (80, 90, 100 %), the start of a grace period (over the limit, or a failed
// payment) and the lock. The e-mail is claimed in billing_mails before it goes out; a send that
// fails gives the claim back and the job is retried with the queue's backoff.
import { createJobQueue, type JobHandlers, type JobLogger, type JobQueue, JobRunner, type MetaStore } from "@lookout/storage";
import type { AppDeps } from "../app-deps.js";
import type { Mail, Mailer } from "../mail/mailer.js";
import type { BillingService, BillingState } from "./service.js";

export interface BillingJobs {
  "billing.check": { accountId: string };
}

const HOUR = 3_600_000;
const fmt = (n: number) => n.toLocaleString("en-US");
const day = (d: Date) => d.toISOString().slice(0, 10);

export interface UsageCheckDeps {
  meta: MetaStore;
  mailer: Mailer;
  billing: BillingService;
}

/** The e-mails an account's state calls for, by kind (the claim's key within the period). */
function mailsFor(s: BillingState, name: string, link: string): { kind: string; subject: string; text: string }[] {
  const limit = s.plan.limits.events ?? 0;
  const used = `${fmt(s.usage.current.events)} of ${fmt(limit)} billable events (pageviews and custom events)`;
  const out = s.ladder.thresholds.map((t) => ({
    kind: `threshold_${t}`,
    subject: t === 100 ? `${name} has reached its Lookout plan's limit` : `${name} is at ${t}% of its Lookout plan's limit`,
    text:
      `"${name}" has used ${used} this billing period on the ${s.plan.name} plan (${t}% or more).\n\n` +
      "Nothing is dropped: events are still collected. The dashboards lock only after two billing periods at or over 110% of the limit, with a week's notice.\n\n" +
      `See usage and plans: ${link}\n`,
  }));
  const grace = s.ladder.grace;
  if (s.ladder.status === "grace" && grace) {
    out.push(
      grace.reason === "payment"
        ? {
            kind: "grace_payment",
            subject: `Payment failed for ${name} on Lookout`,
            text: `The last payment for "${name}" failed. Update the card in the billing portal by ${day(grace.endsAt)}, or the dashboards lock (events are still collected).\n\n${link}\n`,
          }
        : {
            kind: "grace_usage",
            subject: `${name} is over its Lookout plan: upgrade within 7 days`,
            text:
              `"${name}" was at or over 110% of the ${s.plan.name} plan's ${fmt(limit)} events in each of the last two billing periods.\n\n` +
              `Upgrade by ${day(grace.endsAt)}, or the dashboards lock until you do or a billing period ends under the limit. Events are still collected and nothing is lost.\n\n${link}\n`,
          },
    );
  }
  if (s.ladder.status === "locked") {
    out.push({
      kind: "locked",
      subject: `${name}'s Lookout dashboards are locked`,
      text:
        `The dashboards and Stats API of "${name}" are locked: its traffic stayed over the plan's limit past the grace period.\n\n` +
        `Events are still collected, and settings and exports stay open. Upgrading unlocks at once: ${link}\n`,
    });
  }
  return out;
}

/** Checks one account now: stores what the ladder changes and sends the e-mails not sent yet. Returns their kinds. */
export async function checkAccount(deps: UsageCheckDeps, accountId: string, now = new Date()): Promise<string[]> {
  if (deps.billing.mode === "off") return [];
  const account = await deps.meta.accounts.findById(accountId);
  if (!account) return [];
  const s = await deps.billing.state(accountId, now);
  const link = await deps.billing.billingLink();
  const owners = (await deps.meta.members.list(accountId)).filter((m) => m.role === "owner");
  const period = new Date(s.usage.current.start);
  const sent: string[] = [];
  for (const m of mailsFor(s, account.name, link)) {
    if (!(await deps.meta.billing.claimMail(accountId, period, m.kind))) continue;
    try {
      for (const o of owners) {
        const mail: Mail = { to: o.email, subject: m.subject, text: m.text };
        await deps.mailer.send(mail);
      }
    } catch (err) {
      await deps.meta.billing.releaseMail(accountId, period, m.kind);
      throw err;
    }
    sent.push(m.kind);
  }
  return sent;
}

/** Enqueues this hour's check of every account (idempotent per hour). Returns how many jobs were new. */
export async function enqueueUsageChecks(meta: MetaStore, queue: JobQueue<BillingJobs>, now: Date): Promise<number> {
  const hour = new Date(Math.floor(now.getTime() / HOUR) * HOUR).toISOString().slice(0, 13);
  let created = 0;
  for (const accountId of await meta.billing.accountIds()) {
    const r = await queue.enqueue({
      name: "billing.check",
      key: `billing:${accountId}:${hour}`,
      payload: { accountId },
      maxAttempts: 5,
    });
    if (r.created) created++;
  }
  return created;
}

export function usageJobHandlers(deps: UsageCheckDeps): JobHandlers<BillingJobs> {
  return {
    "billing.check": async (job) => {
      await checkAccount(deps, job.payload.accountId);
    },
  };
}

/** The server's usage-check runner (main.ts starts it with LOOKOUT_BILLING=stripe; the CLI never does). */
export function startUsageRunner(services: AppDeps, logger: JobLogger): JobRunner<BillingJobs> | null {
  if (services.billing.mode === "off") return null;
  const deps: UsageCheckDeps = services;
  const runner = new JobRunner<BillingJobs>({
    queue: createJobQueue<BillingJobs>(services.meta.db),
    handlers: usageJobHandlers(deps),
    schedule: (queue, now) => enqueueUsageChecks(services.meta, queue, now).then(() => {}),
    scheduleEveryMs: 10 * 60_000,
    logger,
  });
  runner.start();
  return runner;
}
