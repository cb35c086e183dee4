// Billing periods (issue #24 §2): monthly, starting at the account's billing anchor — the same
// day of the month and time of day (UTC) as the anchor, on the month's last day when the month is
// shorter (an anchor on the 31st starts February's period on the 28th or 29th). Pure.

/** The start of period `k` counted from the anchor's own (period 0), in epoch ms. */
export function periodStart(anchor: Date, k: number): number {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + k;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return Date.UTC(y, m, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds());
}

/** The index of the period that holds `now` (negative before the anchor). */
export function periodIndex(anchor: Date, now: Date): number {
  const t = now.getTime();
  let k = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  while (periodStart(anchor, k) > t) k--;
  while (periodStart(anchor, k + 1) <= t) k++;
  return k;
}

export interface Periods {
  /** Boundaries, ascending: `past` complete periods and the current one ([b[i], b[i+1])). */
  boundaries: number[];
  /** The current period's start and (exclusive) end. */
  current: { start: number; end: number };
}

/** The current period and the `past` complete ones before it. */
export function periodsAround(anchor: Date, now: Date, past: number): Periods {
  const k = periodIndex(anchor, now);
  const boundaries: number[] = [];
  for (let i = k - past; i <= k + 1; i++) boundaries.push(periodStart(anchor, i));
  return { boundaries, current: { start: periodStart(anchor, k), end: periodStart(anchor, k + 1) } };
}

/** An anchor in whole seconds (Stripe's billing_cycle_anchor is in seconds; SQL binds seconds). */
export function wholeSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}
