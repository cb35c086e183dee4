// A visitor's data-subject requests: deleting one client id's events and profile, and exporting
// them (bounded). Each acts on the one client id asked for (a request names the id it is about,
// never the person's other ids) and is audited.
import { mapOf, visitorEventsSql } from "@lookout/query";
import { VISITOR_LIMITS as L, type VisitorExport } from "@lookout/schema";
import type { EventStore, MetaStore } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { iso, notFound, type VisitorReads } from "./reading.js";

export interface RequestDeps {
  /** Deletion is a write: the store itself, not the fair reads. */
  events: Pick<EventStore, "deleteVisitor">;
  /** Audit lines of deletions and exports. */
  meta: Pick<MetaStore, "audit">;
  now: () => number;
}

/** Deletes this client id's events and profile (not the person's other ids); audited. */
export async function deleteVisitor(
  deps: RequestDeps,
  v: VisitorReads,
  actor: Actor,
  clientId: string,
): Promise<{ deleted_events: number }> {
  const property = v.site;
  const own = (await v.profiles([clientId])).get(clientId) ?? null;
  if (!(await v.known(clientId, own))) throw notFound();
  const deleted = await deps.events.deleteVisitor(property.unique_id, clientId);
  await deps.meta.audit.record({
    action: "visitor.delete",
    userId: actor.userId,
    accountId: property.account_id,
    detail: { unique_id: property.unique_id, client_id: clientId, deleted_events: deleted },
  });
  return { deleted_events: deleted };
}

/** This client id's profile and events, oldest first (bounded); audited. */
export async function exportVisitor(deps: RequestDeps, v: VisitorReads, actor: Actor, clientId: string): Promise<VisitorExport> {
  const property = v.site;
  const { d, pid } = v;
  const own = (await v.profiles([clientId])).get(clientId) ?? null;
  const rows = await v.run(visitorEventsSql(d, pid, clientId, L.exportEvents + 1));
  if (!own && rows.length === 0) throw notFound();
  await deps.meta.audit.record({
    action: "visitor.export",
    userId: actor.userId,
    accountId: property.account_id,
    detail: { unique_id: pid, client_id: clientId, events: Math.min(rows.length, L.exportEvents) },
  });
  return {
    exported_at: new Date(deps.now()).toISOString(),
    property: pid,
    client_id: clientId,
    profile: own
      ? {
          email: own.email,
          name: own.name,
          traits: own.traits,
          first_seen: iso(own.first_seen_ms),
          last_seen: iso(own.last_seen_ms),
        }
      : null,
    events: rows.slice(0, L.exportEvents).map((r) => {
      const { ts_ms, props, props_keys, props_values, ...rest } = r;
      return { ts: iso(ts_ms), ...rest, props: mapOf(r, "props") };
    }),
    truncated: rows.length > L.exportEvents,
  };
}
