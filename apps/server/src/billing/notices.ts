// The banner texts of the quota ladder (issue #24 §3): one sentence per notice kind with the
// numbers in it, and how it looks (info, warning, danger). The web app shows `message` as text.
import type { BillingNotice, BillingNoticeKind, Plan } from "@lookout/schema";
import type { Grace } from "./ladder.js";
import type { AccountUsage } from "./usage.js";

const fmt = (n: number) => n.toLocaleString("en-US");
const day = (d: Date) => d.toISOString().slice(0, 10);

const LEVEL: Record<BillingNoticeKind, BillingNotice["level"]> = {
  locked: "danger",
  grace: "warning",
  payment_failed: "warning",
  sustained: "warning",
  exceeded_last_period: "warning",
  reached_100: "warning",
  approaching_90: "info",
  approaching_80: "info",
  property_and_member_limit: "info",
  property_limit: "info",
  member_limit: "info",
};

export function noticeMessage(
  kind: BillingNoticeKind,
  plan: Plan,
  usage: AccountUsage,
  counts: { properties: number; members: number },
  grace: Grace | null,
): BillingNotice {
  const limit = plan.limits.events ?? 0;
  const used = `${fmt(usage.current.events)} of ${fmt(limit)} billable events`;
  const graceEnd = grace ? day(grace.endsAt) : "";
  const text: Record<BillingNoticeKind, () => string> = {
    locked: () =>
      `Dashboards are locked: traffic has been over the ${plan.name} plan's ${fmt(limit)} events for two billing periods. Events are still collected; upgrade to unlock at once.`,
    grace: () =>
      `Traffic has been over the ${plan.name} plan's limit for two billing periods. Upgrade by ${graceEnd} or the dashboards lock (events are still collected).`,
    payment_failed: () => `The last payment failed. Update the card in the billing portal by ${graceEnd} or the dashboards lock.`,
    sustained: () =>
      `Traffic was over the ${plan.name} plan's ${fmt(limit)} events in each of the last two billing periods. Consider upgrading.`,
    exceeded_last_period: () => `Traffic was over the ${plan.name} plan's ${fmt(limit)} events last billing period.`,
    reached_100: () => `This billing period has reached its limit: ${used}. Nothing is dropped; consider upgrading.`,
    approaching_90: () => `This billing period is at 90 % of its limit: ${used}.`,
    approaching_80: () => `This billing period is at 80 % of its limit: ${used}.`,
    property_and_member_limit: () =>
      `The ${plan.name} plan's limits are reached: ${counts.properties} properties and ${counts.members} members.`,
    property_limit: () => `The ${plan.name} plan's limit of ${fmt(plan.limits.properties ?? 0)} properties is reached.`,
    member_limit: () => `The ${plan.name} plan's limit of ${fmt(plan.limits.members ?? 0)} members is reached.`,
  };
  return { kind, level: LEVEL[kind], message: text[kind]() };
}
