// Billable events per property and billing period (DESIGN.md §4), read from any EventStore with
// the statement @lookout/query prints for its dialect (billing.ts there): the same read on DuckDB
// and ClickHouse, one scan of the range per property.
import { compileBillableCounts, isBillableEvent, MAX_BILLING_PERIODS, readBillableCounts } from "@lookout/query";
import type { EventReader } from "./event-store.js";

export { isBillableEvent, MAX_BILLING_PERIODS };

/**
 * The billable events of `property` in each period [boundaries[i], boundaries[i+1]) (epoch ms,
 * ascending, whole seconds): one count per period. Reads the events table itself (no derived
 * table), so whatever an append made durable counts.
 */
export async function countBillableEvents(
  store: EventReader,
  property: string,
  boundaries: readonly number[],
): Promise<number[]> {
  const q = compileBillableCounts(store.dialect, property, boundaries);
  const rows = await store.query(q);
  return readBillableCounts(rows, boundaries.length - 1);
}
