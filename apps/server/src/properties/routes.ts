// The properties call of SPEC.md §7 (the account's properties for a signed-in member) and the
// deletion of a property. Each route: schemas, the policy's rule, the service call (service.ts).
import { GetPropertiesBodySchema, PropertyIdSchema, PropertyListAnswerSchema } from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createPropertyService } from "./service.js";

export { toProperty } from "./service.js";

export function propertyRoutes(deps: AppDeps): Route[] {
  const properties = createPropertyService(deps);
  return [
    defineRoute({
      method: "POST",
      url: "/static-api/get-properties",
      summary: "The properties of an account the caller belongs to (SPEC.md §7).",
      tags: ["properties"],
      body: GetPropertiesBodySchema,
      absentBody: {},
      bodyTypes: ["application/x-www-form-urlencoded", "application/json"],
      access: { account: ({ body }) => body.accountId, action: "read" },
      answer: PropertyListAnswerSchema,
      handle: ({ body }) => properties.list(body.accountId),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/properties/:id",
      summary: "Deletes a property with all its events and visitor profiles (account admins).",
      tags: ["properties"],
      params: z.object({ id: PropertyIdSchema.describe("The property's unique_id.") }),
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: NO_CONTENT,
      handle: ({ actor, property }) => properties.remove(actor, property),
    }),
  ];
}
