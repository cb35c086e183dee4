// POST /api/event (DESIGN.md §5), the one cross-origin endpoint: parse and validate the tracker
// body, rate-limit per client IP and per property, then hand it to the collector. 202 means the
// event is durable, or was dropped on purpose (the X-Lookout-Dropped header says why).
import { TrackerEventSchema } from "@lookout/schema";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { clientIpResolver } from "../http/client-ip.js";
import { tooMany } from "../http/errors.js";
import type { RouteDoc } from "../http/route-table.js";
import { registerBatchRoute } from "./batch-route.js";
import { TokenBuckets } from "./rate-limit.js";
import { unavailable } from "./unavailable.js";

export const EVENT_BODY_LIMIT = 16 * 1024;
export const DROPPED_HEADER = "x-lookout-dropped";

/** What a cross-origin POST needs: the page may send it and read why an event was dropped. */
const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": DROPPED_HEADER,
};
/** The preflight, for the tracker's application/json sends (sendBeacon's text/plain needs none). */
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "86400",
};

/**
 * The endpoint as the OpenAPI document shows it (http/openapi.ts). Only in the route's config,
 * which costs nothing per request: the handler parses with TrackerEventSchema itself, and no
 * hook or Fastify schema is added to this hot path.
 */
const EVENT_DOC: RouteDoc = {
  summary: "Collects one tracker event (sendBeacon's text/plain JSON, or application/json). Open to every origin.",
  tags: ["collector"],
  access: "none",
  status: 202,
  answer: null,
  bodyTypes: ["text/plain", "application/json"],
  responses: {
    202: `Durable, or dropped on purpose: the ${DROPPED_HEADER} header says why.`,
    413: "The body is larger than 16 KB.",
    429: "Past the per-address or per-property rate (Retry-After).",
    503: "The write queue is full, the collector is restarting, or (scale-out) the ingest backlog is full (Retry-After).",
  },
};

function cors(reply: FastifyReply): void {
  reply.headers(CORS_HEADERS);
}

export function registerEventRoute(app: FastifyInstance, deps: AppDeps): void {
  const { config, collector } = deps;
  const clientIp = clientIpResolver(config.trustedProxies);
  const perIp = new TokenBuckets(deps.shared, "collect:ip", config.collectRate.perIp);
  const perProperty = new TokenBuckets(deps.shared, "collect:property", config.collectRate.perProperty);
  // POST /api/batch shares the buckets: a property's rate is one, however its events arrive.
  registerBatchRoute(app, deps, { clientIp, perIp, perProperty });

  app.options("/api/event", async (_req, reply) => {
    return reply.code(204).headers(PREFLIGHT_HEADERS).send();
  });

  app.post(
    "/api/event",
    {
      bodyLimit: EVENT_BODY_LIMIT,
      config: { doc: EVENT_DOC, schemas: { body: TrackerEventSchema } },
      // Headers set here survive into error replies (400, 413), so browsers can read those too.
      // A callback hook, not an async one: no promise per event.
      onRequest: (_req, reply, done) => {
        cors(reply);
        done();
      },
    },
    async (req, reply) => {
      const parsed = TrackerEventSchema.safeParse(req.body);
      if (!parsed.success) throw parsed.error;
      const body = parsed.data;
      const ip = clientIp(req);
      const now = new Date();
      const ipTake = perIp.take(ip, now.getTime());
      const ipWait = typeof ipTake === "number" ? ipTake : await ipTake;
      if (ipWait > 0) throw tooMany(ipWait, "Too many events from this address.");
      const property = await collector.property(body.property);
      if (!property) return reply.code(202).header(DROPPED_HEADER, "unknown_property").send();
      const propertyTake = perProperty.take(property.unique_id, now.getTime());
      const propertyWait = typeof propertyTake === "number" ? propertyTake : await propertyTake;
      if (propertyWait > 0) throw tooMany(propertyWait, "Too many events for this property.");
      try {
        const dropped = await collector.collect(body, { ip, userAgent: req.headers["user-agent"] ?? "", now }, property);
        if (dropped) reply.header(DROPPED_HEADER, dropped);
        return reply.code(202).send();
      } catch (err) {
        throw unavailable(err);
      }
    },
  );
}
