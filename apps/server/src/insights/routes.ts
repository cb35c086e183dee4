// Insights (DESIGN.md §5): `POST /api/v1/properties/{unique_id}/insights/query` runs an unsaved
// spec; `GET/POST …/insights` lists (filters, tabs, sorts) and saves; `GET/PATCH/DELETE
// /api/v1/insights/{shortId}`, `GET …/{shortId}/result`, `POST …/{shortId}/duplicate` and
// `POST …/{shortId}/restore` (the undo of a delete) work on one saved insight. Reading and running need "read" (every
// member), saving, changing and deleting "write" (editors and up, §7). Unknown, deleted and
// foreign short ids answer 404 alike (service.ts authorizes through the insight's property).
import {
  INSIGHT_SHORT_ID_RE,
  InsightActorsAnswerSchema,
  InsightActorsBodySchema,
  InsightAnswerSchema,
  InsightCreateSchema,
  InsightListQuerySchema,
  InsightListSchema,
  InsightPatchSchema,
  InsightSchema,
  InsightSpecSchema,
  PropertyIdSchema,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createInsightService } from "./service.js";

const TAGS = ["insights"] as const;
const PropertyParam = PropertyIdSchema.describe("The property's unique_id.");
const ShortIdParam = z
  .string()
  .regex(INSIGHT_SHORT_ID_RE, "is not an insight id")
  .describe("The insight's short id (8 characters).");

export function insightRoutes(deps: AppDeps): Route[] {
  const insights = createInsightService(deps);
  return [
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/insights/query",
      readsStats: true,
      summary:
        "Runs an insight spec without saving it. Trends: per series (an event name, its own filters, a math) and local-time bucket of the interval; breakdown by a dimension or prop (top N plus $other); formula over the series letters (A/B*100).",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      body: InsightSpecSchema,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: InsightAnswerSchema,
      handle: ({ property, body }) => insights.run(property, body),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/insights/actors",
      readsStats: true,
      summary:
        "The visitors behind one point of an insight spec (a funnel step's converted or dropped, a retention cell, a paths node…), one page at a time; `at` names the point in the kind's own terms.",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      body: InsightActorsBodySchema,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: InsightActorsAnswerSchema,
      handle: ({ property, body }) => insights.actors(property, body),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/insights",
      readsStats: true,
      summary:
        "The property's saved insights (at most 500): searched by name or description, filtered by kind, tag and creator, one of the tabs all / mine / favourites / recent (opened by the caller), sorted; each with its creator's name and when the caller last opened it, plus every tag and creator (the filters' choices).",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      query: InsightListQuerySchema,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: InsightListSchema,
      handle: ({ actor, property, query }) => insights.list(actor, property, query),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/insights",
      summary: "Saves an insight (editors and up): name, description, spec, favourite, tags.",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      body: InsightCreateSchema,
      access: { property: ({ params }) => params.id, action: "write" },
      answer: InsightSchema,
      status: 201,
      handle: ({ actor, property, body }) => insights.create(actor, property, body),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/insights/:shortId",
      readsStats: true,
      summary: "A saved insight.",
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      access: "signed-in",
      answer: InsightSchema,
      responses: { 404: "No such insight, or not on a property you may read." },
      handle: ({ actor, params }) => insights.get(actor, params.shortId),
    }),
    defineRoute({
      method: "PATCH",
      url: "/api/v1/insights/:shortId",
      summary: "Changes a saved insight (editors and up): any of name, description, spec, favourite, tags.",
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      body: InsightPatchSchema,
      access: "signed-in",
      answer: InsightSchema,
      responses: { 404: "No such insight, or not on a property you may change." },
      handle: ({ actor, params, body }) => insights.update(actor, params.shortId, body),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/insights/:shortId",
      summary: "Deletes a saved insight (editors and up; soft, audited).",
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      access: "signed-in",
      answer: NO_CONTENT,
      responses: { 404: "No such insight, or not on a property you may change." },
      handle: ({ actor, params }) => insights.remove(actor, params.shortId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/insights/:shortId/duplicate",
      summary: 'Saves a copy of an insight on its property (editors and up), named "… (copy)", created by the caller.',
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      access: "signed-in",
      answer: InsightSchema,
      status: 201,
      responses: { 404: "No such insight, or not on a property you may change." },
      handle: ({ actor, params }) => insights.duplicate(actor, params.shortId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/insights/:shortId/restore",
      summary: "Undoes the delete of an insight (editors and up; audited).",
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      access: "signed-in",
      answer: InsightSchema,
      responses: { 404: "No deleted insight with this id, or not on a property you may change." },
      handle: ({ actor, params }) => insights.restore(actor, params.shortId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/insights/:shortId/result",
      readsStats: true,
      summary: "Runs a saved insight's spec.",
      tags: TAGS,
      params: z.object({ shortId: ShortIdParam }),
      access: "signed-in",
      answer: InsightAnswerSchema,
      responses: { 404: "No such insight, or not on a property you may read." },
      handle: ({ actor, params }) => insights.result(actor, params.shortId),
    }),
  ];
}
