// POST /api/batch (DESIGN.md §5, issue #22 item 6): up to 500 collector events in one body, for
// server-side senders and imports. Authenticated as the collector is, by each event's property id;
// each event is validated exactly as POST /api/event validates one (TrackerEventSchema, 16 KB at
// most) and dropped by the same rules. The answer (202) lists every event's outcome in order;
// "accepted" means durable, as a 202 from /api/event does.
//
// Rates: the per-address bucket takes one token per request (a server-side sender is one address
// sending many events by design); the per-property bucket one per event, so a batch cannot flood a
// property past what single events could: events past it come back "rate_limited" with the wait.
// Client IP and user agent come from the connection, as for /api/event, never from the body.
import {
  BATCH_MAX_EVENTS,
  BatchAnswerSchema,
  BatchBodySchema,
  type BatchOutcome,
  type TrackerEvent,
  TrackerEventSchema,
} from "@lookout/schema";
import type { PropertyRow } from "@lookout/storage";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { tooMany, zodMessage } from "../http/errors.js";
import type { RouteDoc } from "../http/route-table.js";
import type { TokenBuckets } from "./rate-limit.js";
import { unavailable } from "./unavailable.js";

/** One event's limit (POST /api/event's body limit). */
const EVENT_LIMIT = 16 * 1024;
/** Room for 500 events at their limit, plus the envelope. */
export const BATCH_BODY_LIMIT = BATCH_MAX_EVENTS * EVENT_LIMIT + 64 * 1024;

const BATCH_DOC: RouteDoc = {
  summary: `Collects up to ${BATCH_MAX_EVENTS} events in one body ({"events": [...]}, each as POST /api/event takes it), for server-side senders and imports.`,
  description:
    "Each event is validated and dropped by the rules of POST /api/event; the answer lists each one's outcome " +
    "(accepted: durable; dropped with the reason; invalid with the error; rate_limited with the wait in ms).",
  tags: ["collector"],
  access: "none",
  status: 202,
  answer: BatchAnswerSchema,
  responses: {
    400: `The body is not {"events": [...]} with 1 to ${BATCH_MAX_EVENTS} events.`,
    413: "The body is larger than 500 events at their 16 KB limit.",
    429: "Past the per-address rate (Retry-After).",
    503: "The write queue is full or the collector is restarting (Retry-After); nothing of the batch was stored.",
  },
};

export interface BatchRouteDeps {
  clientIp(req: FastifyRequest): string;
  perIp: TokenBuckets;
  perProperty: TokenBuckets;
}

export function registerBatchRoute(app: FastifyInstance, { collector }: AppDeps, limits: BatchRouteDeps): void {
  app.post(
    "/api/batch",
    { bodyLimit: BATCH_BODY_LIMIT, config: { doc: BATCH_DOC, schemas: { body: BatchBodySchema } } },
    async (req, reply) => {
      const parsed = BatchBodySchema.safeParse(req.body);
      if (!parsed.success) throw parsed.error;
      const ip = limits.clientIp(req);
      const now = new Date();
      const ipWait = await limits.perIp.take(ip, now.getTime());
      if (ipWait > 0) throw tooMany(ipWait, "Too many requests from this address.");

      const results: BatchOutcome[] = [];
      const kept: { index: number; body: TrackerEvent; property: PropertyRow }[] = [];
      for (const [index, raw] of parsed.data.events.entries()) {
        if (JSON.stringify(raw).length > EVENT_LIMIT) {
          results.push({ status: "invalid", error: `the event is larger than ${EVENT_LIMIT / 1024} KB` });
          continue;
        }
        const ev = TrackerEventSchema.safeParse(raw);
        if (!ev.success) {
          results.push({ status: "invalid", error: zodMessage(ev.error) });
          continue;
        }
        const property = await collector.property(ev.data.property);
        if (!property) {
          results.push({ status: "dropped", reason: "unknown_property" });
          continue;
        }
        const wait = await limits.perProperty.take(property.unique_id, now.getTime());
        if (wait > 0) {
          results.push({ status: "rate_limited", retry_after_ms: wait });
          continue;
        }
        results.push({ status: "accepted" });
        kept.push({ index, body: ev.data, property });
      }

      let reasons: Awaited<ReturnType<typeof collector.collectMany>>;
      try {
        reasons = await collector.collectMany(kept, { ip, userAgent: req.headers["user-agent"] ?? "", now });
      } catch (err) {
        throw unavailable(err);
      }
      kept.forEach((k, i) => {
        const reason = reasons[i];
        if (reason) results[k.index] = { status: "dropped", reason };
      });
      const count = (s: BatchOutcome["status"]) => results.filter((r) => r.status === s).length;
      return reply.code(202).send(
        BatchAnswerSchema.parse({
          accepted: count("accepted"),
          dropped: count("dropped"),
          invalid: count("invalid"),
          rate_limited: count("rate_limited"),
          results,
        }),
      );
    },
  );
}
