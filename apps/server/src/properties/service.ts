// The properties domain: listing, creating, editing (name, address, timezone and the collection
// settings), resetting and deleting properties, and the install check. No HTTP here: the caller
// (routes.ts) has authorized the actor already. Every change reaches the collector at once
// (its property cache is invalidated) and is audited.
import type { AdminProperty, InstallStatus, ListedProperty } from "@lookout/schema";
import { type EventStore, type MetaStore, type PropertyRow, type PropertySettings, runStats } from "@lookout/storage";
import type { Collector } from "../collect/collector.js";
import type { EventReads } from "../event-reads/fair-reads.js";
import type { Actor } from "../http/authenticate.js";
import { type CreatePropertyBody, effectiveSettings, type UpdatePropertyBody } from "./settings.js";

/** Properties counted at once when an account's list is asked for (the store has a few readers). */
const COUNT_CONCURRENCY = 2;

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

function toAdminProperty(p: PropertyRow, events30d: number): AdminProperty {
  return { ...toProperty(p), settings: effectiveSettings(p.settings), events_30d: events30d };
}

/** Runs `f` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function createPropertyService({
  meta,
  events,
  reads,
  collector,
  billing,
}: {
  meta: MetaStore;
  /** Deleting a property's events; reads go through `reads`. */
  events: Pick<EventStore, "deleteProperty">;
  /** The event store's reads, in the property's account's fair queue (event-reads/). */
  reads: EventReads;
  collector: Collector;
  /** The plan's property limit (billing/service.ts); none: unlimited. */
  billing?: { assertCanAddProperty(accountId: string): Promise<void> };
}) {
  /**
   * Pageviews and custom events of the last 30 days in the property's timezone: one aggregate
   * through the Stats layer, which reads whole days from the store's day rollups.
   */
  async function events30d(p: PropertyRow): Promise<number> {
    const r = (await runStats(
      reads.of(p),
      { kind: "aggregate", property: p.unique_id, date_range: { preset: "last_30_days" }, metrics: ["pageviews", "events"] },
      { timezone: p.timezone, earliest: p.created_at },
    )) as { pageviews?: { value: number }; events?: { value: number } };
    return (r.pageviews?.value ?? 0) + (r.events?.value ?? 0);
  }

  const get = async (p: PropertyRow): Promise<AdminProperty> => toAdminProperty(p, await events30d(p));

  const audit = (actor: Actor, p: PropertyRow, action: string, detail: Record<string, unknown> = {}) =>
    meta.audit.record({ action, userId: actor.userId, accountId: p.account_id, detail: { unique_id: p.unique_id, ...detail } });

  return {
    /** SPEC.md §7's list (the client's property picker). */
    async list(accountId: string): Promise<ListedProperty[]> {
      return (await meta.properties.listByAccount(accountId)).map(toProperty);
    },

    /** The management list: settings and each property's events of the last 30 days. */
    async listAdmin(accountId: string): Promise<AdminProperty[]> {
      const rows = await meta.properties.listByAccount(accountId);
      return mapLimited(rows, COUNT_CONCURRENCY, async (p) => toAdminProperty(p, await events30d(p)));
    },

    get,

    async create(actor: Actor, input: CreatePropertyBody): Promise<AdminProperty> {
      await billing?.assertCanAddProperty(input.accountId);
      const p = await meta.properties.create({
        accountId: input.accountId,
        name: input.name,
        websiteUrl: input.website_url,
        timezone: input.timezone,
      });
      await audit(actor, p, "property.create", { name: p.name, website_url: p.website_url, timezone: p.timezone });
      return toAdminProperty(p, 0);
    },

    /** Changes the given fields; the settings' lists replace the stored ones whole. */
    async update(actor: Actor, p: PropertyRow, change: UpdatePropertyBody): Promise<AdminProperty> {
      const settings: PropertySettings | undefined = change.settings
        ? {
            ...p.settings,
            ...effectiveSettings(p.settings),
            ...Object.fromEntries(Object.entries(change.settings).filter(([, v]) => v !== undefined)),
          }
        : undefined;
      const fields = {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.website_url !== undefined ? { websiteUrl: change.website_url } : {}),
        ...(change.timezone !== undefined ? { timezone: change.timezone } : {}),
        ...(settings ? { settings } : {}),
      };
      if (Object.keys(fields).length === 0) return get(p);
      const updated = await meta.properties.update(p.unique_id, fields);
      // The collector applies the new settings from its next event on, not after its cache's TTL.
      collector.invalidate(p.unique_id);
      if (!updated) throw new Error("the property vanished while being updated");
      await audit(actor, p, "property.update", {
        changed: Object.keys(change).filter((k) => change[k as keyof UpdatePropertyBody] !== undefined),
        ...(change.name !== undefined && change.name !== p.name ? { name: { from: p.name, to: change.name } } : {}),
        ...(settings ? { settings: effectiveSettings(settings) } : {}),
      });
      return get(updated);
    },

    /**
     * Deletes every event of the property and what is derived from them (visitor profiles,
     * sessions, day rollups: EventStore.deleteProperty); the property and its settings stay.
     */
    async reset(actor: Actor, p: PropertyRow): Promise<void> {
      await events.deleteProperty(p.unique_id);
      await audit(actor, p, "property.reset", { name: p.name });
    },

    /**
     * Deletes a property with all its events and visitor profiles: its row, the collector's cached
     * copy (its events are refused from now on), its events, and an audit line.
     */
    async remove(actor: Actor, property: PropertyRow): Promise<void> {
      await meta.properties.delete(property.unique_id);
      collector.invalidate(property.unique_id);
      await events.deleteProperty(property.unique_id);
      await audit(actor, property, "property.delete", { name: property.name });
    },

    /** Whether any event of the property arrived, and when the latest did (received events only). */
    async installStatus(p: PropertyRow): Promise<InstallStatus> {
      const [last] = await reads.of(p).events(p.unique_id, { newestFirst: true, limit: 1 });
      return { received: last !== undefined, last_event_at: last ? last.ts.toISOString() : null };
    },
  };
}
