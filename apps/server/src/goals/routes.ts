// Goals (DESIGN.md §5): `GET/POST /api/v1/properties/{unique_id}/goals` and
// `DELETE …/goals/{id}`. Reading needs "read" (every member), creating and deleting "write"
// (editors and up, §7). Foreign and unknown properties answer 404 alike (the policy).
import { CreateGoalBodySchema, GoalIdSchema, GoalListAnswerSchema, GoalSchema, PropertyIdSchema } from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createGoalService } from "./service.js";

const TAGS = ["goals"] as const;
const PropertyParam = PropertyIdSchema.describe("The property's unique_id.");

export function goalRoutes(deps: AppDeps): Route[] {
  const goals = createGoalService(deps);
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/goals",
      summary: "The property's goals: custom events (with an optional revenue currency) and page patterns.",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      access: { property: ({ params }) => params.id, action: "read" },
      answer: GoalListAnswerSchema,
      handle: ({ property }) => goals.list(property),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/goals",
      summary: "Adds a goal (editors and up): kind event (match = the event name) or page (match = a path pattern with * or **).",
      tags: TAGS,
      params: z.object({ id: PropertyParam }),
      body: CreateGoalBodySchema,
      access: { property: ({ params }) => params.id, action: "write" },
      answer: GoalSchema,
      status: 201,
      responses: { 409: "The property has this goal, or a goal of this name, already (or has as many goals as it may)." },
      handle: ({ actor, property, body }) => goals.create(actor, property, body),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/properties/:id/goals/:goalId",
      summary: "Deletes a goal (editors and up); its events stay.",
      tags: TAGS,
      params: z.object({ id: PropertyParam, goalId: GoalIdSchema.describe("The goal's id.") }),
      access: { property: ({ params }) => params.id, action: "write" },
      answer: NO_CONTENT,
      responses: { 404: "No such goal on this property." },
      handle: ({ actor, property, params }) => goals.remove(actor, property, params.goalId),
    }),
  ];
}
