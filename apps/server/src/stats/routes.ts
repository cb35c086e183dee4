// The Stats API (README "Stats API"): aggregate, timeseries, breakdown and realtime visitors for
// a property the caller may read. Each handler: parse the query into a QuerySpec, authorize the
// property with the one policy, run it through runStats, respond.
import { QueryError } from "@lookout/query";
import type { QueryKind } from "@lookout/schema";
import { QueryTimeoutError, runStats } from "@lookout/storage";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { authenticate } from "../http/authenticate.js";
import { HttpError, tooMany } from "../http/errors.js";
import { authorizeProperty } from "../http/policy.js";
import { FairQueue, QueueFullError } from "./fair-queue.js";
import { registerApiDocs } from "./openapi.js";
import { propertyId, specFromQuery } from "./params.js";

const FIRST_EVENT_TTL_MS = 60_000;

/**
 * Stats requests of one account that run at once; the others wait their turn (fair-queue.ts).
 * Below the DuckDB store's 4 readers, so one account never holds them all.
 */
export const STATS_CONCURRENCY_PER_ACCOUNT = 2;
/** Stats requests of one account that may wait; past it, 429 (a dashboard sends about a dozen). */
export const STATS_WAITING_PER_ACCOUNT = 60;

export function registerStatsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { meta, events, presence } = deps;
  const fair = new FairQueue(STATS_CONCURRENCY_PER_ACCOUNT, STATS_WAITING_PER_ACCOUNT);
  // all_time starts at a property's first event; remembered briefly (it rarely moves).
  const firstEvent = new Map<string, { at: number; ts: Date | undefined }>();
  async function earliest(property: string, created: Date): Promise<Date> {
    const hit = firstEvent.get(property);
    if (hit && Date.now() - hit.at < FIRST_EVENT_TTL_MS) return hit.ts ?? created;
    const [first] = await events.events(property, { limit: 1 });
    firstEvent.set(property, { at: Date.now(), ts: first?.ts });
    if (firstEvent.size > 10_000) firstEvent.delete(firstEvent.keys().next().value as string);
    return first && first.ts < created ? first.ts : created;
  }

  const stats = (kind: QueryKind) => async (req: FastifyRequest) => {
    const actor = await authenticate(meta, req);
    const q = req.query as Record<string, unknown>;
    const property = await authorizeProperty(meta, actor, propertyId(q), "read");
    const spec = specFromQuery(kind, q);
    try {
      const results = await fair.run(property.account_id, async () =>
        runStats(events, spec, {
          timezone: property.timezone,
          earliest: await earliest(property.unique_id, property.created_at),
        }),
      );
      return { results };
    } catch (err) {
      if (err instanceof QueryError) throw new HttpError(400, err.code, `${err.param}: ${err.message}`, { param: err.param });
      if (err instanceof QueueFullError)
        throw tooMany(5_000, "This account has too many queries running; try again in a few seconds.");
      // The store cancelled it at its time limit (EventStore.query).
      if (QueryTimeoutError.from(err)) {
        throw new HttpError(
          503,
          "query_timeout",
          "This query took too long and was cancelled: narrow the filters or the date range, or try again later.",
        );
      }
      throw err;
    }
  };

  app.get("/api/v1/stats/aggregate", stats("aggregate"));
  app.get("/api/v1/stats/timeseries", stats("timeseries"));
  app.get("/api/v1/stats/breakdown", stats("breakdown"));
  app.get("/api/v1/stats/realtime/visitors", async (req) => {
    const actor = await authenticate(meta, req);
    const property = await authorizeProperty(meta, actor, propertyId(req.query as Record<string, unknown>), "read");
    return presence.count(property.unique_id);
  });
  registerApiDocs(app);
}
