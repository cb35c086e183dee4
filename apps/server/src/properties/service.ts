// The properties domain: listing an account's properties and deleting one with all it holds.
// No HTTP here: the caller (routes.ts) has authorized the actor already.
import type { ListedProperty } from "@lookout/schema";
import type { EventStore, MetaStore, PropertyRow } from "@lookout/storage";
import type { Collector } from "../collect/collector.js";
import type { Actor } from "../http/authenticate.js";

export function toProperty(p: PropertyRow): ListedProperty {
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

export function createPropertyService({
  meta,
  events,
  collector,
}: {
  meta: MetaStore;
  events: EventStore;
  collector: Collector;
}) {
  return {
    async list(accountId: string): Promise<ListedProperty[]> {
      return (await meta.properties.listByAccount(accountId)).map(toProperty);
    },

    /**
     * Deletes a property with all its events and visitor profiles: its row, the collector's cached
     * copy (its events are refused from now on), its events, and an audit line.
     */
    async remove(actor: Actor, property: PropertyRow): Promise<void> {
      await meta.properties.delete(property.unique_id);
      collector.invalidate(property.unique_id);
      await events.deleteProperty(property.unique_id);
      await meta.audit.record({
        action: "property.delete",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id },
      });
    },
  };
}
