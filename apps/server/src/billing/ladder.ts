// The quota ladder (issue #24 §3, research/peers.md §5.1, Plausible's policy), as one pure
// function of the usage and the stored grace period: warnings at 80/90/100 % of the current
// period; enforcement only when the last two complete periods were both at or over
// ceil(limit × 1.1): a grace period of 7 days, then the lock. A failed payment starts the same
// grace path. An upgrade (a higher limit) or a complete period back under the margin ends the
// grace period or the lock at once; so does a payment that goes through. Data is never dropped:
// the ladder decides what reads answer, never what collection keeps.
import { type BillingNoticeKind, GRACE_DAYS, LIMIT_MARGIN, USAGE_THRESHOLDS, type UsageThreshold } from "@lookout/schema";

export type GraceReason = "usage" | "payment";

export interface Grace {
  endsAt: Date;
  reason: GraceReason;
}

export interface LadderInput {
  /** The plan's billable events per period; null: unlimited. */
  limit: number | null;
  /** Billable events of the current period so far. */
  current: number;
  /** The last complete period's, and the one before (null: the account had no such period). */
  last: number | null;
  penultimate: number | null;
  /** The grace period stored for the account, if one runs. */
  grace: Grace | null;
  /** The provider says the last payment failed (and none went through since). */
  paymentFailed: boolean;
  /** At the plan's property / member limit (creating one more would be refused). */
  propertyLimitReached?: boolean;
  memberLimitReached?: boolean;
  now: Date;
}

export interface LadderResult {
  status: "active" | "grace" | "locked";
  /** The grace period to store (null: none runs); differs from the input's when it starts or ends. */
  grace: Grace | null;
  /** The current period's thresholds reached (% of the limit). */
  thresholds: UsageThreshold[];
  /** The most urgent banner, or null. */
  notice: BillingNoticeKind | null;
  /** Both last periods at or over the margin: enforcement holds. */
  enforced: boolean;
}

const DAY_MS = 86_400_000;

/** ceil(limit × 1.1), in integers (no floating-point edge: 10 000 -> 11 000). */
export function limitWithMargin(limit: number): number {
  return Math.ceil((limit * Math.round(LIMIT_MARGIN * 10)) / 10);
}

export function quotaLadder(i: LadderInput): LadderResult {
  const unlimited = i.limit === null;
  const limit = i.limit ?? 0;
  const margin = limitWithMargin(limit);
  const atMargin = (n: number | null) => !unlimited && n !== null && n >= margin;
  const over = (n: number | null) => !unlimited && n !== null && n > limit;
  const enforced = atMargin(i.last) && atMargin(i.penultimate);

  let grace: Grace | null = i.grace;
  if (grace) {
    const stillDue = grace.reason === "usage" ? enforced : i.paymentFailed;
    // The other cause may still hold: keep the period (and its end) running under that reason.
    if (!stillDue) grace = enforced ? { ...grace, reason: "usage" } : i.paymentFailed ? { ...grace, reason: "payment" } : null;
  }
  if (!grace && (enforced || i.paymentFailed)) {
    grace = { endsAt: new Date(i.now.getTime() + GRACE_DAYS * DAY_MS), reason: enforced ? "usage" : "payment" };
  }
  const status = !grace ? "active" : i.now.getTime() >= grace.endsAt.getTime() ? "locked" : "grace";

  // Integers only: current / limit ≥ t % <=> current × 100 ≥ limit × t.
  const thresholds = unlimited ? [] : USAGE_THRESHOLDS.filter((t) => i.current * 100 >= limit * t);
  const top = thresholds[thresholds.length - 1];
  const notice: BillingNoticeKind | null =
    status === "locked"
      ? "locked"
      : status === "grace"
        ? grace?.reason === "payment"
          ? "payment_failed"
          : "grace"
        : over(i.last) && over(i.penultimate)
          ? "sustained"
          : over(i.last)
            ? "exceeded_last_period"
            : top === 100
              ? "reached_100"
              : top === 90
                ? "approaching_90"
                : top === 80
                  ? "approaching_80"
                  : i.propertyLimitReached && i.memberLimitReached
                    ? "property_and_member_limit"
                    : i.propertyLimitReached
                      ? "property_limit"
                      : i.memberLimitReached
                        ? "member_limit"
                        : null;
  return { status, grace, thresholds, notice, enforced };
}
