// The properties call of SPEC.md §7: the account's properties for a signed-in member.
import { GetPropertiesBodySchema, type Property, PropertyIdSchema } from "@lookout/schema";
import type { PropertyRow } from "@lookout/storage";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { authenticate } from "../http/authenticate.js";
import { authorizeAccount, authorizeProperty } from "../http/policy.js";

export function toProperty(p: PropertyRow): Property & { is_demo: boolean } {
  return {
    unique_id: p.unique_id,
    website_url: p.website_url,
    name: p.name,
    timezone: p.timezone,
    account_id: p.account_id,
    created_at: p.created_at.toISOString(),
    is_demo: p.is_demo,
  };
}

const DeletePropertyParamsSchema = z.object({ id: PropertyIdSchema });

export function registerPropertyRoutes(app: FastifyInstance, { meta, events, collector }: AppDeps): void {
  app.post("/static-api/get-properties", async (req) => {
    const actor = await authenticate(meta, req);
    const body = GetPropertiesBodySchema.parse(req.body ?? {});
    await authorizeAccount(meta, actor, body.accountId, "read");
    const rows = await meta.properties.listByAccount(body.accountId);
    return rows.map(toProperty);
  });

  // Deletes a property with all its events and visitor profiles (the demo site, say). Admins only.
  app.delete("/api/v1/properties/:id", async (req, reply) => {
    const actor = await authenticate(meta, req);
    const { id } = DeletePropertyParamsSchema.parse(req.params);
    const property = await authorizeProperty(meta, actor, id, "admin");
    await meta.properties.delete(property.unique_id);
    collector.invalidate(property.unique_id);
    await events.deleteProperty(property.unique_id);
    await meta.audit.record({
      action: "property.delete",
      userId: actor.userId,
      accountId: property.account_id,
      detail: { unique_id: property.unique_id },
    });
    return reply.code(204).send();
  });
}
