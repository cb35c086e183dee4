// API keys (DESIGN.md §5): list, create (the secret in this answer only) and revoke, for the
// account's admins (§7). An API key itself reads as a viewer (http/policy.ts), so it can never
// manage keys. Each route: schemas, the policy's rule, the service call (service.ts).
import {
  ApiKeyCreateBodySchema,
  ApiKeyCreatedSchema,
  ApiKeyListAnswerSchema,
  ApiKeyListQuerySchema,
  RecordIdSchema,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createApiKeyService } from "./service.js";

const TAGS = ["api-keys"] as const;

export function apiKeyRoutes(deps: AppDeps): Route[] {
  const keys = createApiKeyService(deps);
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/api-keys",
      summary: "The account's live API keys: name, prefix, creator, created and last used (never the secret).",
      tags: TAGS,
      query: ApiKeyListQuerySchema,
      access: { account: ({ query }) => query.accountId, action: "admin" },
      answer: ApiKeyListAnswerSchema,
      handle: ({ query }) => keys.list(query.accountId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/api-keys",
      summary: "Creates a read-only Stats API key for the account; `key`, the secret, is shown in this answer only.",
      tags: TAGS,
      body: ApiKeyCreateBodySchema,
      access: { account: ({ body }) => body.accountId, action: "admin" },
      answer: ApiKeyCreatedSchema,
      status: 201,
      handle: ({ actor, body }) => keys.create(actor, body),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/api-keys/:id",
      summary: "Revokes an API key; it stops working at once.",
      tags: TAGS,
      access: "signed-in",
      params: z.object({ id: RecordIdSchema.describe("The key's id.") }),
      answer: NO_CONTENT,
      responses: { 403: "A member of the key's account below admin.", 404: "No such live key in the caller's accounts." },
      handle: ({ actor, params }) => keys.revoke(actor, params.id),
    }),
  ];
}
