// Answers of the HTTP API beyond the Stats API's (stats-answers.ts) and the login call's
// (auth.ts): the server checks each route's answer against its schema under test
// (apps/server/src/http/route.ts), and the OpenAPI document shows them.
import { z } from "zod";
import { RoleSchema } from "./auth.js";
import { PropertySchema } from "./property.js";

/** GET /healthz. */
export const HealthAnswerSchema = z.object({ ok: z.literal(true) });

/** A call that answers with a sentence for the user (recovery, reset). */
export const MessageAnswerSchema = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswerSchema>;

/** GET /api/auth/me: the signed-in user and the accounts they belong to. */
export const MeAnswerSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  accounts: z.array(z.object({ id: z.string(), name: z.string(), role: RoleSchema })),
});
export type MeAnswer = z.infer<typeof MeAnswerSchema>;

/** A property as the properties call lists it: SPEC.md's fields, and whether it is the demo site. */
export const ListedPropertySchema = PropertySchema.extend({ is_demo: z.boolean() });
export type ListedProperty = z.infer<typeof ListedPropertySchema>;
/** POST /static-api/get-properties. */
export const PropertyListAnswerSchema = z.array(ListedPropertySchema);

/** GET /api/v1/openapi.json: an OpenAPI 3.1 document. */
export const OpenApiAnswerSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
