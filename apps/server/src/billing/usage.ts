// An account's billable events per billing period (issue #24 §2): the current period per
// property, and the complete periods before it. A complete period is counted from the event
// store once and kept in billing_usage; after that only the current period is counted, one
// statement per property (storage's countBillableEvents), so a page view or a check costs one
// range count per property.
import { countBillableEvents, type MetaStore, type PropertyRow } from "@lookout/storage";
import type { EventReads } from "../event-reads/fair-reads.js";
import { periodIndex, periodsAround } from "./periods.js";

export interface AccountUsage {
  /** Boundaries of the complete periods and the current one (epoch ms, ascending). */
  boundaries: number[];
  /** Billable events per period (the last entry is the current period so far); null before the anchor. */
  totals: (number | null)[];
  current: { start: number; end: number; events: number };
  byProperty: { property: PropertyRow; events: number }[];
}

export async function accountUsage(
  deps: { meta: MetaStore; reads: EventReads },
  accountId: string,
  anchor: Date,
  now: Date,
  past: number,
): Promise<AccountUsage> {
  const properties = await deps.meta.properties.listByAccount(accountId);
  const { boundaries, current } = periodsAround(anchor, now, past);
  const k = periodIndex(anchor, now);
  const starts = boundaries.slice(0, past).map((b) => new Date(b));
  const stored = await deps.meta.billing.usage(accountId, starts);
  // Periods before the anchor did not exist for the account.
  const exists = (i: number) => k - past + i >= 0;
  const firstMissing = starts.findIndex((s, i) => exists(i) && !stored.has(s.getTime()));
  const from = firstMissing >= 0 ? firstMissing : past;
  const counted = await Promise.all(
    properties.map((p) => countBillableEvents(deps.reads.of(p), p.unique_id, boundaries.slice(from))),
  );
  const sumAt = (i: number) => counted.reduce((s, c) => s + (c[i - from] ?? 0), 0);
  const totals: (number | null)[] = [];
  for (let i = 0; i <= past; i++) {
    if (!exists(i)) totals.push(null);
    else if (i < from || (i < past && stored.has(starts[i]?.getTime() ?? -1)))
      totals.push(stored.get(starts[i]?.getTime() ?? -1) ?? 0);
    else totals.push(sumAt(i));
  }
  for (let i = from; i < past; i++) {
    const s = starts[i] as Date;
    if (exists(i) && !stored.has(s.getTime()))
      await deps.meta.billing.saveUsage(accountId, s, new Date(boundaries[i + 1] as number), sumAt(i));
  }
  return {
    boundaries,
    totals,
    current: { ...current, events: totals[past] ?? 0 },
    byProperty: properties.map((property, j) => ({ property, events: counted[j]?.[past - from] ?? 0 })),
  };
}
