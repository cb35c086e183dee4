// The Stats API (README "Stats API"): aggregate, timeseries, breakdown and realtime visitors for
// a property the caller may read. Each handler: parse the query into a QuerySpec, authorize the
// property with the one policy, run it through runStats, respond.
import { QueryError } from "@lookout/query";
import type { QueryKind } from "@lookout/schema";
import { runStats } from "@lookout/storage";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { authenticate } from "../http/authenticate.js";
import { HttpError } from "../http/errors.js";
import { authorizeProperty } from "../http/policy.js";
import { registerApiDocs } from "./openapi.js";
import { propertyId, specFromQuery } from "./params.js";

const FIRST_EVENT_TTL_MS = 60_000;

export function registerStatsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { meta, events, presence } = deps;
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
      const results = await runStats(events, spec, {
        timezone: property.timezone,
        earliest: await earliest(property.unique_id, property.created_at),
      });
      return { results };
    } catch (err) {
      if (err instanceof QueryError) throw new HttpError(400, err.code, err.message);
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
