// Which billing notice the app shows its members (issue #24 point 3), as pure rules: the locked
// account first, then the grace period, then the current period's usage at 100 %, 90 % or 80 % of
// the plan's limit (the priority of Plausible's banners, research/peers.md §5.1). Usage notices are
// dismissible, each threshold of each period once: dismissing the 80 % notice does not hide the
// 90 % one, and the next period starts afresh. Locked and grace notices stay: they ask for action.

export type NoticeKind = "locked" | "grace" | "usage-100" | "usage-90" | "usage-80";
export type BillingStatus = "active" | "grace" | "locked" | "self_hosted";

export interface NoticeInput {
  accountId: string;
  status: BillingStatus;
  /** When the grace period ends (ISO), when there is one. */
  graceEndsAt: string | null;
  /** The plan's events per period; null when unlimited (self-hosted). */
  limit: number | null;
  /** Billable events so far in the current period. */
  events: number;
  /** The current period's first day (ISO): a dismissal lasts one period. */
  periodStart: string;
}

export interface Notice {
  kind: NoticeKind;
  tone: "danger" | "warning" | "info";
  /** The threshold reached, for usage notices. */
  percent: number | null;
  /** Where a dismissal is remembered; null when the notice cannot be dismissed. */
  dismissKey: string | null;
}

/** The thresholds that raise a notice, highest first. */
export const THRESHOLDS = [100, 90, 80] as const;

/** The highest threshold the usage has reached, or null below 80 % (or with no limit). */
export function thresholdReached(events: number, limit: number | null): (typeof THRESHOLDS)[number] | null {
  if (limit === null || limit <= 0) return null;
  // Compared as events × 100 ≥ limit × threshold: exact in integers, no rounding at the edge.
  return THRESHOLDS.find((t) => events * 100 >= limit * t) ?? null;
}

/** The one notice to show, or null. */
export function noticeFor(input: NoticeInput): Notice | null {
  if (input.status === "locked") return { kind: "locked", tone: "danger", percent: null, dismissKey: null };
  if (input.status === "grace") return { kind: "grace", tone: "danger", percent: null, dismissKey: null };
  if (input.status === "self_hosted") return null;
  const t = thresholdReached(input.events, input.limit);
  if (t === null) return null;
  return {
    kind: `usage-${t}`,
    tone: t === 100 ? "danger" : t === 90 ? "warning" : "info",
    percent: t,
    dismissKey: `${input.accountId}:${input.periodStart.slice(0, 10)}:${t}`,
  };
}

/** The dismissed notices' keys are kept in this browser under one key, most recent last. */
export const DISMISSED_KEY = "lookoutDismissedNotices";
/** Old periods' keys are of no use; the list keeps the most recent ones. */
const KEEP = 50;

export function readDismissed(storage: Pick<Storage, "getItem"> | null): string[] {
  try {
    const raw = storage?.getItem(DISMISSED_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((k): k is string => typeof k === "string") : [];
  } catch {
    // Storage blocked or a value written by hand: nothing dismissed.
    return [];
  }
}

export function withDismissed(list: readonly string[], key: string): string[] {
  return [...list.filter((k) => k !== key), key].slice(-KEEP);
}
