// The visitors domain (issue #21, DESIGN.md §4, §5): the visitors list (and its CSV), one
// visitor's page (profile, figures, facets, activity, "also seen as"), their history by visit,
// and a visitor's deletion and export. Reads run the @lookout/query visitor statements through
// the account's fair share of the event store (reading.ts), so every engine answers the same SQL;
// the planner (visitors-plan.ts) picks the per-visitor tables where they answer, the events table
// otherwise. One module per part: list.ts, profile.ts, history.ts, requests.ts.
//
// A person is the client id asked for plus every client id identified with the same e-mail
// (case-insensitive): figures and history merge them. Deletion and export act on the one client
// id asked for (a request names the id it is about), each audited.
// No HTTP here: the caller (routes.ts) has authorized the actor already.
import type { VisitorSource } from "@lookout/query";
import type { VisitorHistoryQuery, VisitorListQuery } from "@lookout/schema";
import type { EventStore, MetaStore } from "@lookout/storage";
import type { EventReads } from "../event-reads/fair-reads.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import type { Presence } from "../live/presence.js";
import { visitorHistory } from "./history.js";
import { visitorList, visitorListCsv } from "./list.js";
import { visitorDetail } from "./profile.js";
import { type InFlight, type Site, visitorReads } from "./reading.js";
import { deleteVisitor, exportVisitor } from "./requests.js";

export interface VisitorServiceDeps {
  /** The event store's reads, in the property's account's fair queue (event-reads/). */
  reads: EventReads;
  /**
   * A visitor's deletion (a write), and sync(): a visitor online now whose first events are
   * accepted but not yet readable is waited for rather than answered "not found".
   */
  events: Pick<EventStore, "deleteVisitor" | "sync">;
  /** Audit lines of deletions and exports. */
  meta: Pick<MetaStore, "audit">;
  /** Who is online now. */
  presence: Pick<Presence, "list">;
  now?: () => number;
  /**
   * Which tables answer (@lookout/query visitors-plan.ts): "auto" (the default) lets the planner
   * choose the per-visitor tables where they can; "events" reads the events table only (the model
   * tests compare the two).
   */
  source?: VisitorSource | "auto";
  /** How long a read of an online visitor not yet readable waits for the store (CATCH_UP_MS). */
  catchUpMs?: number;
}

/** How long a read of an online visitor not yet readable waits for the store to catch up, by default. */
export const CATCH_UP_MS = 5_000;

export function createVisitorService(deps: VisitorServiceDeps) {
  const now = deps.now ?? Date.now;
  const requests = { events: deps.events, meta: deps.meta, now };
  const inflight: InFlight = new Map();
  const on = (site: Site) => visitorReads(deps.reads, deps.source ?? "auto", site, inflight);
  /**
   * A visitor shows in the Live View as soon as their events are accepted; the store may make
   * them readable a moment later (the ingest log is applied in the write queue, behind any other
   * write). Opening them from there must not answer "not known": when the read finds nothing and
   * the client id is online now, wait (bounded) until everything accepted is readable and read
   * again. Anyone else's not found stands at once.
   */
  async function caughtUp<T>(site: Site, clientId: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      const online = () => deps.presence.list([site.unique_id]).some((v) => v.clientid === clientId);
      if (!(err instanceof DomainError && err.code === "not_found") || !online()) throw err;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), deps.catchUpMs ?? CATCH_UP_MS);
      });
      try {
        if ((await Promise.race([deps.events.sync().then(() => "synced" as const), late])) === "late") throw err;
      } finally {
        clearTimeout(timer);
      }
      return read();
    }
  }
  return {
    list: (property: Site, q: VisitorListQuery) => visitorList(on(property), q),
    /** The list as CSV (at most VISITOR_LIMITS.csvRows visitors, in the list's order). */
    csv: (property: Site, q: Omit<VisitorListQuery, "cursor" | "limit">) => visitorListCsv(on(property), q),
    detail: (property: Site, clientId: string) =>
      caughtUp(property, clientId, () => visitorDetail(on(property), clientId, deps.presence, now)),
    history: (property: Site, clientId: string, q: VisitorHistoryQuery) =>
      caughtUp(property, clientId, () => visitorHistory(on(property), clientId, q)),
    /** Deletes this client id's events and profile (not the person's other ids); audited. */
    remove: (actor: Actor, property: Site, clientId: string) => deleteVisitor(requests, on(property), actor, clientId),
    /** This client id's profile and events, oldest first (bounded); audited. */
    export: (actor: Actor, property: Site, clientId: string) => exportVisitor(requests, on(property), actor, clientId),
  };
}
