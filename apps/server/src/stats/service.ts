// The Stats API's service: runs a parsed QuerySpec for an authorized property, fairly across
// accounts (fair-queue.ts), and counts the live visitors. Throws domain errors only.
import { QueryError } from "@lookout/query";
import type { QuerySpec } from "@lookout/schema";
import {
  type EventStore,
  type MetaStore,
  type PropertyRow,
  QueryTimeoutError,
  runStats,
  type StatsResult,
} from "@lookout/storage";
import { LRUCache } from "lru-cache";
import { specGoals } from "../goals/service.js";
import { DomainError, type DomainErrorCode } from "../http/domain-errors.js";
import type { Presence } from "../live/presence.js";
import { FairQueue, QueueFullError } from "./fair-queue.js";

const FIRST_EVENT_TTL_MS = 60_000;

/**
 * Stats requests of one account that run at once; the others wait their turn (fair-queue.ts).
 * Below the DuckDB store's 4 readers, so one account never holds them all.
 */
export const STATS_CONCURRENCY_PER_ACCOUNT = 2;
/** Stats requests of one account that may wait; past it, 429 (a dashboard sends about a dozen). */
export const STATS_WAITING_PER_ACCOUNT = 60;

export function createStatsService({
  events,
  presence,
  meta,
}: {
  events: EventStore;
  presence: Presence;
  /** Where a goals query's goals come from; without it, a goals query counts none. */
  meta?: MetaStore;
}) {
  const fair = new FairQueue(STATS_CONCURRENCY_PER_ACCOUNT, STATS_WAITING_PER_ACCOUNT);
  // all_time starts at a property's first event; remembered briefly (it rarely moves).
  const firstEvent = new LRUCache<string, { ts: Date | null }>({ max: 10_000, ttl: FIRST_EVENT_TTL_MS });
  async function earliest(property: string, created: Date): Promise<Date> {
    let hit = firstEvent.get(property);
    if (!hit) {
      const [first] = await events.events(property, { limit: 1 });
      hit = { ts: first?.ts ?? null };
      firstEvent.set(property, hit);
    }
    return hit.ts && hit.ts < created ? hit.ts : created;
  }

  return {
    /** The results of `spec` for `property`, shaped per kind (storage's shapeResults). */
    async run(property: PropertyRow, spec: QuerySpec): Promise<StatsResult> {
      // A goals query (breakdown by goal) counts the property's own goals, loaded here: a caller
      // never names the patterns the compiler prints.
      if (spec.kind === "goals") spec = { ...spec, goals: meta ? await specGoals(meta, property) : [] };
      try {
        return await fair.run(property.account_id, async () =>
          runStats(events, spec, {
            timezone: property.timezone,
            earliest: await earliest(property.unique_id, property.created_at),
          }),
        );
      } catch (err) {
        // The compiler's codes (packages/query) are 400s naming the parameter to change.
        if (err instanceof QueryError) {
          throw new DomainError(err.code as DomainErrorCode, `${err.param}: ${err.message}`, { param: err.param });
        }
        if (err instanceof QueueFullError) {
          throw new DomainError(
            "rate_limited",
            "This account has too many queries running; try again in a few seconds.",
            undefined,
            5_000,
          );
        }
        // The store cancelled it at its time limit (EventStore.query).
        if (QueryTimeoutError.from(err)) {
          throw new DomainError(
            "query_timeout",
            "This query took too long and was cancelled: narrow the filters or the date range, or try again later.",
          );
        }
        throw err;
      }
    },

    /** Visitors live on the property now (seen in the last 60 s, with a known country). */
    liveVisitors(property: PropertyRow): number {
      return presence.count(property.unique_id);
    },
  };
}
