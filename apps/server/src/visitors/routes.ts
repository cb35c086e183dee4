// Visitors (DESIGN.md §5, issue #21): `GET /api/v1/properties/{unique_id}/visitors` (and
// `visitors.csv`), `GET …/visitors/{clientId}`, `GET …/visitors/{clientId}/events`,
// `DELETE …/visitors/{clientId}`, `GET …/visitors/{clientId}/export`. Every member reads ("read");
// deleting and exporting one visitor's data is for admins and owners ("admin", §7). Unknown and
// foreign properties answer 404 alike (the policy), and so do unknown client ids. Client ids in
// paths are URL-encoded by the caller; Fastify decodes them before the schema checks them.
import {
  PropertyIdSchema,
  VisitorClientIdSchema,
  VisitorDeleteAnswerSchema,
  VisitorDetailSchema,
  VisitorExportSchema,
  VisitorHistoryAnswerSchema,
  VisitorHistoryQuerySchema,
  VisitorListAnswerSchema,
  VisitorListQuerySchema,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, type Route, raw } from "../http/route.js";
import { createVisitorService } from "./service.js";

const TAGS = ["visitors"] as const;
const PropertyParam = PropertyIdSchema.describe("The property's unique_id.");
const Params = z.object({ id: PropertyParam, clientId: VisitorClientIdSchema.describe("The visitor's client id, URL-encoded.") });
const NOT_FOUND = { 404: "No such visitor on this property (unknown and foreign ids alike)." };

export function visitorRoutes(deps: AppDeps): Route[] {
  const visitors = createVisitorService(deps);
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/visitors",
      readsStats: true,
      summary:
        "The property's visitors by client id, newest or most first (order: last_seen, first_seen, visits, events), searched by e-mail, name or client id, identified or anonymous; paged by next_cursor.",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      query: VisitorListQuerySchema,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: VisitorListAnswerSchema,
      handle: ({ property, query }) => visitors.list(property, query),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/visitors.csv",
      summary: "The visitors list (same search, order and filter) as CSV, at most 100 000 rows.",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      query: VisitorListQuerySchema.omit({ cursor: true, limit: true }),
      access: { property: ({ params }) => params.id, action: "read" },
      answer: raw("text/csv"),
      handle: async ({ property, query, reply }) => {
        const body = await visitors.csv(property, query);
        return reply
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="visitors-${property.unique_id}.csv"`)
          .header("cache-control", "no-store")
          .send(body);
      },
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/visitors/:clientId",
      readsStats: true,
      summary:
        "One visitor (with every client id identified with the same e-mail: also_seen_as): profile, traits, figures, devices, first source, active days over 12 months, top pages and events, online now.",
      tags: TAGS,
      params: Params,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: VisitorDetailSchema,
      responses: NOT_FOUND,
      handle: ({ property, params }) => visitors.detail(property, params.clientId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/visitors/:clientId/events",
      readsStats: true,
      summary:
        "A visitor's history by visit, newest visit first, each visit's events in time order (pageviews with time on page); filter by event name and days; paged by next_cursor.",
      tags: TAGS,
      params: Params,
      query: VisitorHistoryQuerySchema,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: VisitorHistoryAnswerSchema,
      responses: { ...NOT_FOUND, 400: "A bad cursor, date or event name." },
      handle: ({ property, params, query }) => visitors.history(property, params.clientId, query),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/properties/:id/visitors/:clientId",
      summary:
        "Deletes every event and the profile of this client id (admins and owners; not the other ids of the same person), so that no statistic counts them any more; audited.",
      tags: TAGS,
      params: Params,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: VisitorDeleteAnswerSchema,
      responses: NOT_FOUND,
      handle: ({ actor, property, params }) => visitors.remove(actor, property, params.clientId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/visitors/:clientId/export",
      summary: "This client id's profile and events as a JSON download (admins and owners; at most 100 000 events); audited.",
      tags: TAGS,
      params: Params,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: VisitorExportSchema,
      responses: NOT_FOUND,
      handle: async ({ actor, property, params, reply }) => {
        const data = await visitors.export(actor, property, params.clientId);
        reply
          .header("content-disposition", `attachment; filename="visitor-${encodeURIComponent(params.clientId)}.json"`)
          .header("cache-control", "no-store");
        return data;
      },
    }),
  ];
}
