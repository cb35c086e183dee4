// Which billing notices a member may dismiss, and how a dismissal is remembered in this browser.
// The server decides which notice an account has (GET …/billing/notice: locked, grace, a failed
// payment, usage over or near the limit, a property or member limit reached; issue #24 point 3).
// Notices that ask for action now (locked, grace, a failed payment) stay; the others are dismissed
// once per kind and billing period: dismissing the 80 % notice does not hide the 90 % one, and the
// next period starts afresh.
import type { BillingNoticeKind } from "@lookout/schema";

const STAYS: ReadonlySet<BillingNoticeKind> = new Set(["locked", "grace", "payment_failed"]);

export function isDismissible(kind: BillingNoticeKind): boolean {
  return !STAYS.has(kind);
}

/**
 * Where a dismissal of `kind` is remembered, or null when it cannot be dismissed. Keyed by account
 * and period (its first day), when the answer gives the period.
 */
export function dismissKey(accountId: string, kind: BillingNoticeKind, periodStart: string | null | undefined): string | null {
  if (!isDismissible(kind)) return null;
  return `${accountId}:${periodStart ? periodStart.slice(0, 10) : "-"}:${kind}`;
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
