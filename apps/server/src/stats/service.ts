// The Stats API's service: runs a parsed QuerySpec for an authorized property, through the
// account's fair share of the event store (event-reads/), and counts the live visitors. Throws
// domain errors only.
import { QueryError } from "@lookout/query";
import type { QuerySpec } from "@lookout/schema";
import { type MetaStore, type PropertyRow, runStats, type StatsResult } from "@lookout/storage";
import { LRUCache } from "lru-cache";
import { type EventReads, queryTimeoutAsDomainError } from "../event-reads/fair-reads.js";
import { specGoals } from "../goals/service.js";
import { DomainError, type DomainErrorCode } from "../http/domain-errors.js";
import type { Presence } from "../live/presence.js";

const FIRST_EVENT_TTL_MS = 60_000;

export function createStatsService({
  reads,
  presence,
  meta,
}: {
  reads: EventReads;
  presence: Presence;
  /** Where a goals query's goals come from; without it, a goals query counts none. */
  meta?: MetaStore;
}) {
  // all_time starts at a property's first event; remembered briefly (it rarely moves).
  const firstEvent = new LRUCache<string, { ts: Date | null }>({ max: 10_000, ttl: FIRST_EVENT_TTL_MS });
  async function earliest(property: PropertyRow): Promise<Date> {
    let hit = firstEvent.get(property.unique_id);
    if (!hit) {
      const [first] = await reads.of(property).events(property.unique_id, { limit: 1 });
      hit = { ts: first?.ts ?? null };
      firstEvent.set(property.unique_id, hit);
    }
    return hit.ts && hit.ts < property.created_at ? hit.ts : property.created_at;
  }

  return {
    /** The results of `spec` for `property`, shaped per kind (storage's shapeResults). */
    async run(property: PropertyRow, spec: QuerySpec): Promise<StatsResult> {
      // A goals query (breakdown by goal) counts the property's own goals, loaded here: a caller
      // never names the patterns the compiler prints.
      if (spec.kind === "goals") spec = { ...spec, goals: meta ? await specGoals(meta, property) : [] };
      try {
        return await runStats(reads.of(property), spec, {
          timezone: property.timezone,
          earliest: await earliest(property),
        });
      } catch (err) {
        // The compiler's codes (packages/query) are 400s naming the parameter to change.
        if (err instanceof QueryError) {
          throw new DomainError(err.code as DomainErrorCode, `${err.param}: ${err.message}`, { param: err.param });
        }
        // The store cancelled it at its time limit (EventStore.query): 503.
        throw queryTimeoutAsDomainError(err);
      }
    },

    /** Visitors live on the property now (seen in the last 60 s, with a known country). */
    liveVisitors(property: PropertyRow): number {
      return presence.count(property.unique_id);
    },
  };
}
