// Session assignment at collection (DESIGN.md §4): a visitor's events with gaps under 30 minutes
// share a session id; a longer gap starts a new one. State is an in-memory LRU keyed by
// property and visitor, bounded so that memory stays flat however many visitors pass through; a
// visitor evicted mid-visit just starts a new session. The server warms it from the event store
// on start so a restart does not split live visits.
import { randomUUID } from "node:crypto";
import { LruMap } from "../lru.js";

export const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

export interface SessionState {
  property: string;
  visitor_id: string;
  session_id: string;
  last_ts: Date;
}

export interface Sessionizer {
  /** The session id for an event of this visitor at `ts`; records `ts` as the visitor's last seen. */
  assign(property: string, visitorId: string, ts: Date): string;
  /** Seeds state (e.g. each visitor's latest event of the last 30 minutes from the event store). */
  warm(states: Iterable<SessionState>): void;
  readonly size: number;
}

export interface SessionizerOptions {
  /** Visitors remembered at once (about 200 bytes each). */
  maxEntries?: number;
  timeoutMs?: number;
  newId?: () => string;
}

interface Entry {
  sessionId: string;
  lastTs: number;
}

export function createSessionizer(opts: SessionizerOptions = {}): Sessionizer {
  const timeout = opts.timeoutMs ?? SESSION_TIMEOUT_MS;
  const newId = opts.newId ?? randomUUID;
  const map = new LruMap<string, Entry>(opts.maxEntries ?? 200_000);
  // Length-prefixed, so property and visitor ids cannot collide into the same key; and cheap, as
  // this runs for every event (JSON.stringify of the pair cost more than the map lookup).
  const key = (property: string, visitorId: string) => `${property.length}:${property}${visitorId}`;

  return {
    assign(property, visitorId, ts) {
      const k = key(property, visitorId);
      const t = ts.getTime();
      const prev = map.get(k);
      // |gap| so that a slightly late event (batched, clock skew) joins the visit it belongs to.
      if (prev && Math.abs(t - prev.lastTs) < timeout) {
        prev.lastTs = Math.max(prev.lastTs, t);
        return prev.sessionId;
      }
      const sessionId = newId();
      // A very late event gets its own visit but must not rewind the visitor's current one.
      if (!prev || t > prev.lastTs) map.set(k, { sessionId, lastTs: t });
      return sessionId;
    },
    warm(states) {
      for (const s of states) {
        const k = key(s.property, s.visitor_id);
        const t = s.last_ts.getTime();
        const prev = map.get(k);
        // Keep whichever is newer: warming may race with live events.
        if (!prev || prev.lastTs < t) map.set(k, { sessionId: s.session_id, lastTs: t });
      }
    },
    get size() {
      return map.size;
    },
  };
}
