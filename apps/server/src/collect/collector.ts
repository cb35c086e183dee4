// The collection pipeline behind POST /api/event (DESIGN.md §5): property lookup, enrichment,
// group-committed durable append, then presence (one bus message per stored batch). `collect`
// resolves only once the event is durable, so the route's 202 means "stored"; a dropped event
// resolves with its reason.
import { type Enricher, type EnrichPropertySettings, GroupCommitQueue } from "@lookout/ingest";
import type { EventRow, TrackerEvent, VisitorProfile } from "@lookout/schema";
import type { EventStore, MetaStore, PropertyRow } from "@lookout/storage";
import { LRUCache } from "lru-cache";
import type { Presence, PresenceSignal } from "../live/presence.js";
import { effectiveSettings } from "../properties/settings.js";
import { PropertyCache } from "./property-cache.js";

export type DropReason = "unknown_property" | "bot" | "excluded_ip" | "excluded_path" | "hostname_not_allowed";

export interface Connection {
  ip: string;
  userAgent: string;
  now: Date;
}

interface Item {
  row: EventRow;
  profile?: VisitorProfile;
}

export interface CollectorOptions {
  maxBatch?: number;
  maxDelayMs?: number;
  maxPending?: number;
}

export interface Collector {
  /** The property an event names, from a short-lived cache (null when unknown). */
  property(uniqueId: string): Promise<PropertyRow | null>;
  collect(body: TrackerEvent, conn: Connection, property: PropertyRow): Promise<DropReason | null>;
  /**
   * Several events in one durable write (POST /api/batch): each is enriched and dropped by the
   * same rules as collect(); the kept ones are pushed together (a push is never split), and the
   * call resolves once all of them are stored, with each event's drop reason or null, in order.
   */
  collectMany(events: readonly { body: TrackerEvent; property: PropertyRow }[], conn: Connection): Promise<(DropReason | null)[]>;
  /** Forgets cached settings of a property (after a settings change or deletion). */
  invalidate(uniqueId: string): void;
  /** Refuses new events and resolves once every accepted one is stored. */
  drain(): Promise<void>;
}

/**
 * The enrichment view of a property; cached per row object so rules compile once per property
 * (the property cache hands out a new row after invalidate(), so a settings change recompiles).
 * The exclusions pass through the same parsers as the API's validation (properties/settings.ts):
 * CIDR ranges, canonical IPv6 and hostnames are matched in exactly the form that was accepted.
 */
const settingsCache = new WeakMap<PropertyRow, EnrichPropertySettings>();
function settingsOf(p: PropertyRow): EnrichPropertySettings {
  let s = settingsCache.get(p);
  if (!s) {
    s = { unique_id: p.unique_id, ...effectiveSettings(p.settings), timezone: p.timezone };
    settingsCache.set(p, s);
  }
  return s;
}

export function createCollector(
  deps: { meta: MetaStore; events: EventStore; enricher: Enricher; presence: Presence },
  opts: CollectorOptions = {},
): Collector {
  const properties = new PropertyCache(deps.meta);
  const queue = new GroupCommitQueue<Item>(
    async (items) => {
      // Filled by push, not map(): optimised, map() returns an array V8 marks as holey, which its
      // serialiser (the event store's hand-off) then writes the slow way, as a sparse array.
      const rows: EventRow[] = [];
      const profiles: VisitorProfile[] = [];
      for (const i of items) {
        rows.push(i.row);
        if (i.profile) profiles.push(i.profile);
      }
      await deps.events.append(rows);
      if (profiles.length > 0) await deps.events.upsertVisitors(profiles);
      announce(items);
    },
    { maxBatch: opts.maxBatch ?? 5000, maxDelayMs: opts.maxDelayMs ?? 4, maxPending: opts.maxPending ?? 100_000 },
  );
  // Identified e-mails per visitor, so that live presence keeps showing who they are; the
  // visitors identified longest ago are forgotten first.
  const emails = new LRUCache<string, string>({ max: 50_000 });

  /** The presence signal of one stored event. */
  function signalOf({ row, profile }: Item): PresenceSignal {
    // Most sites identify no one: then there is no key to build.
    const key = profile?.email || emails.size > 0 ? `${row.property}\u0000${row.client_id}` : "";
    if (profile?.email) emails.set(key, profile.email);
    const ts = row.ts.getTime();
    if (row.name === "pageleave")
      return { kind: "leave", propertyId: row.property, clientid: row.client_id, pageKey: row.url, ts };
    return {
      kind: "seen",
      s: {
        clientid: row.client_id,
        propertyId: row.property,
        country: row.country || undefined,
        page: row.path,
        title: row.title,
        source: row.referrer_source || "Direct / None",
        referrer: row.referrer,
        device: row.device,
        browser: row.browser,
        os: row.os,
        email: key === "" ? undefined : emails.peek(key),
        ts,
        pageKey: row.url,
        pageview: row.name === "pageview",
      },
    };
  }

  /** Tells live presence about a stored batch, in one bus message rather than one per event. */
  function announce(items: Item[]): void {
    // Pushed rather than mapped, as the rows are: JSON.stringify (the bus) also takes a slower
    // path for a holey array.
    const signals: PresenceSignal[] = [];
    for (const i of items) signals.push(signalOf(i));
    // Presence is best effort: the events are already stored, and a bus hiccup must not fail them.
    deps.presence.signal(signals).catch(() => {});
  }

  return {
    property: (uniqueId) => properties.get(uniqueId),
    invalidate: (uniqueId) => properties.invalidate(uniqueId),
    async collect(body, conn, property) {
      const result = await deps.enricher.enrich(body, { ...conn, property: settingsOf(property) });
      if (!result.ok) return result.reason;
      await queue.push([{ row: result.row, profile: result.profile }]);
      return null;
    },
    async collectMany(events, conn) {
      const items: Item[] = [];
      const out: (DropReason | null)[] = [];
      for (const { body, property } of events) {
        const result = await deps.enricher.enrich(body, { ...conn, property: settingsOf(property) });
        if (!result.ok) out.push(result.reason);
        else {
          items.push({ row: result.row, profile: result.profile });
          out.push(null);
        }
      }
      if (items.length > 0) await queue.push(items);
      return out;
    },
    drain: () => queue.drain(),
  };
}
