// The Stats API (README "Stats API"): aggregate, timeseries, breakdown and realtime visitors for
// a property the caller may read. Each route: the query parsed into a QuerySpec by params.ts, the
// property authorized by the one policy, the spec run by the service (service.ts).
import {
  AggregateAnswerSchema,
  type AggregateResult,
  BreakdownAnswerSchema,
  type BreakdownRow,
  RealtimeVisitorsAnswerSchema,
  TimeseriesAnswerSchema,
  type TimeseriesPoint,
} from "@lookout/schema";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, type Route } from "../http/route.js";
import { REALTIME_QUERY, STATS_QUERY, STATS_RESPONSES, type StatsCall } from "./openapi.js";
import { propertyId, specFromQuery } from "./params.js";
import { createStatsService } from "./service.js";

export function statsRoutes(deps: AppDeps): Route[] {
  const stats = createStatsService(deps);
  const query = (kind: StatsCall) => ({
    schema: STATS_QUERY[kind],
    parse: (q: Record<string, unknown>) => specFromQuery(kind, q),
  });
  // `share`: a shared page (/share/{slug}) reads its one property's stats with its link's credential.
  const base = { method: "GET", tags: ["stats"], responses: STATS_RESPONSES, share: true, readsStats: true } as const;
  return [
    defineRoute({
      ...base,
      url: "/api/v1/stats/aggregate",
      summary: "Totals over the period, with change against a comparison period.",
      query: query("aggregate"),
      access: { property: ({ query }) => query.property, action: "read" },
      answer: AggregateAnswerSchema,
      // runStats shapes its results per kind (storage's shapeResults); the answer check holds it to that.
      handle: async ({ query, property }) => ({ results: (await stats.run(property, query)) as AggregateResult }),
    }),
    defineRoute({
      ...base,
      url: "/api/v1/stats/timeseries",
      summary: "One row per interval bucket (every bucket present).",
      query: query("timeseries"),
      access: { property: ({ query }) => query.property, action: "read" },
      answer: TimeseriesAnswerSchema,
      handle: async ({ query, property }) => ({ results: (await stats.run(property, query)) as TimeseriesPoint[] }),
    }),
    defineRoute({
      ...base,
      url: "/api/v1/stats/breakdown",
      summary: "Metrics per value of one dimension.",
      query: query("breakdown"),
      access: { property: ({ query }) => query.property, action: "read" },
      answer: BreakdownAnswerSchema,
      handle: async ({ query, property }) => ({ results: (await stats.run(property, query)) as BreakdownRow[] }),
    }),
    defineRoute({
      ...base,
      url: "/api/v1/stats/realtime/visitors",
      summary: "Visitors live on the site now (seen in the last 60 s, with a known country).",
      query: { schema: REALTIME_QUERY, parse: propertyId },
      access: { property: ({ query }) => query, action: "read" },
      answer: RealtimeVisitorsAnswerSchema,
      handle: ({ property }) => stats.liveVisitors(property),
    }),
  ];
}
