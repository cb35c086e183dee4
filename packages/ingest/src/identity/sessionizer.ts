// Session assignment at collection (DESIGN.md §4): a visitor's events with gaps under 30 minutes
// share a session id; a longer gap starts a new one. The state (each visitor's visit and its
// latest event) lives in the SharedState: in-process for one server (an LRU, bounded so memory
// stays flat however many visitors pass through; a visitor evicted mid-visit starts a new
// session), in Redis for several, so a visitor whose events reach different servers still gets
// one visit. The server warms it from the event store on start so a restart does not split live
// visits (with Redis the state outlives the restart already). With Redis unreachable, this server
// assigns visits from its own memory until it is back: an event is never refused for want of
// Redis, at the price of a visitor whose events reach two servers meanwhile getting two visits.
import { randomUUID } from "node:crypto";
import { type MaybePromise, memorySharedState, type SharedState } from "@lookout/storage";

export const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

export interface SessionState {
  property: string;
  visitor_id: string;
  session_id: string;
  last_ts: Date;
}

export interface Sessionizer {
  /**
   * The session id for an event of this visitor at `ts`; records `ts` as the visitor's last seen.
   * Synchronous in-process, a promise with shared state in Redis.
   */
  assign(property: string, visitorId: string, ts: Date): MaybePromise<string>;
  /** Seeds state (e.g. each visitor's latest event of the last 30 minutes from the event store). */
  warm(states: Iterable<SessionState>): Promise<void>;
}

export interface SessionizerOptions {
  /** Where visits are kept; default: in-process, remembering `maxEntries` visitors. */
  state?: SharedState;
  /** Visitors remembered at once in-process (about 200 bytes each). */
  maxEntries?: number;
  timeoutMs?: number;
  newId?: () => string;
}

export function createSessionizer(opts: SessionizerOptions = {}): Sessionizer {
  const timeout = opts.timeoutMs ?? SESSION_TIMEOUT_MS;
  const newId = opts.newId ?? randomUUID;
  const state = opts.state ?? memorySharedState({ maxVisits: opts.maxEntries ?? 200_000 });
  const local = state.kind === "memory" ? state : memorySharedState({ maxVisits: opts.maxEntries ?? 200_000 });
  // Length-prefixed, so property and visitor ids cannot collide into the same key; and cheap, as
  // this runs for every event (JSON.stringify of the pair cost more than the map lookup).
  const key = (property: string, visitorId: string) => `${property.length}:${property}${visitorId}`;

  return {
    assign(property, visitorId, ts) {
      const k = key(property, visitorId);
      const id = state.visit(k, ts.getTime(), timeout, newId);
      return typeof id === "string" ? id : id.catch(() => local.visit(k, ts.getTime(), timeout, newId));
    },
    async warm(states) {
      const pending: Promise<void>[] = [];
      for (const s of states) {
        const done = state.seedVisit(key(s.property, s.visitor_id), s.session_id, s.last_ts.getTime(), timeout);
        if (done instanceof Promise) pending.push(done);
        // Bounded fan-out towards Redis: a few hundred seeds in flight at once.
        if (pending.length >= 256) await Promise.all(pending.splice(0));
      }
      await Promise.all(pending);
    },
  };
}
