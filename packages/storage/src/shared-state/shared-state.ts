// SharedState: the small, hot, short-lived state that several Lookout servers must agree on
// (DESIGN.md §1, issue #22 item 4): sliding-window throttles (sign-in, recovery, password checks),
// token buckets (collector rates), marks with a lifetime (where a user signed in from) and the
// visit each visitor is in (sessions at collection). One interface; the in-process adapter below
// for one server, the Redis adapter (redis-shared-state.ts) for N. Both pass one conformance suite
// (conformance.ts), so the rules are the same whichever runs.
//
// Every call takes the caller's clock (`now`, `ts`): the rules are decided on the time the server
// acted on, so tests can drive them and the Redis scripts need no clock of their own. Methods may
// answer synchronously (in-process: no promise per collected event) or with a promise (Redis);
// callers `await` either.
import { LruMap } from "./lru.js";

export type MaybePromise<T> = T | Promise<T>;

/** At most `limit` hits within any `windowMs`. */
export interface WindowRule {
  limit: number;
  windowMs: number;
}

/** `perSecond` tokens a second, at most `burst` saved up. */
export interface BucketRule {
  perSecond: number;
  burst: number;
}

export interface SharedState {
  readonly kind: "memory" | "redis";
  /** Records a hit of `key` unless it is at its limit; answers the ms to wait (0: recorded). */
  hit(key: string, rule: WindowRule, now: number): MaybePromise<number>;
  /** Hits of `key` within the window. */
  count(key: string, rule: WindowRule, now: number): MaybePromise<number>;
  /** Takes back the latest hit of `key` (an attempt that turned out not to count). */
  undo(key: string): MaybePromise<void>;
  /** Forgets every hit of `key`. */
  reset(key: string): MaybePromise<void>;
  /** Takes a token of `key`'s bucket; answers 0 when taken, else the ms until one is free. */
  take(key: string, rule: BucketRule, now: number): MaybePromise<number>;
  /** Marks `key` for `ttlMs`. */
  mark(key: string, ttlMs: number, now: number): MaybePromise<void>;
  marked(key: string, now: number): MaybePromise<boolean>;
  /**
   * The visit `key` (a visitor of a property) is in at `ts`: its current visit when `ts` is within
   * `timeoutMs` of its latest event (either side, so a slightly late event joins), else a new one
   * with the id `newId()` gives. A late event's new visit does not replace the current one.
   */
  visit(key: string, ts: number, timeoutMs: number, newId: () => string): MaybePromise<string>;
  /** Seeds `key`'s visit unless a newer one is known (warming after a restart). */
  seedVisit(key: string, visitId: string, ts: number, timeoutMs: number): MaybePromise<void>;
  close(): Promise<void>;
}

export interface MemorySharedStateOptions {
  /** Visitors remembered at once (about 200 bytes each). */
  maxVisits?: number;
  /** Throttle, bucket and mark keys remembered at once, each. */
  maxKeys?: number;
}

interface Visit {
  id: string;
  last: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One process. Memory is bounded per kind by evicting the least recently used key: a forgotten
 * visitor starts a new visit, a forgotten throttle key starts afresh.
 */
export function memorySharedState(opts: MemorySharedStateOptions = {}): SharedState & { readonly visits: number } {
  const maxKeys = opts.maxKeys ?? 100_000;
  const windows = new LruMap<string, number[]>(maxKeys);
  const buckets = new LruMap<string, Bucket>(maxKeys);
  const marks = new LruMap<string, number>(maxKeys);
  const visits = new LruMap<string, Visit>(opts.maxVisits ?? 200_000);

  /** The hits of `key` within the window, without marking it used. */
  const live = (key: string, rule: WindowRule, now: number) => {
    const since = now - rule.windowMs;
    return (windows.peek(key) ?? []).filter((t) => t > since);
  };

  return {
    kind: "memory",
    hit(key, rule, now) {
      const list = live(key, rule, now);
      // Over the limit the key stays where it is in the recency order, as a refused hit is no hit.
      if (list.length >= rule.limit) return (list[0] ?? now) + rule.windowMs - now;
      list.push(now);
      windows.set(key, list);
      return 0;
    },
    count: (key, rule, now) => live(key, rule, now).length,
    undo(key) {
      const list = windows.peek(key);
      list?.pop();
      if (list?.length === 0) windows.delete(key);
    },
    reset(key) {
      windows.delete(key);
    },
    take(key, { perSecond, burst }, now) {
      let b = buckets.get(key);
      if (b === undefined) {
        b = { tokens: burst, at: now };
        buckets.set(key, b);
      }
      // A clock that went back (another server's, with Redis) refills nothing and rewinds nothing.
      b.tokens = Math.min(burst, b.tokens + (Math.max(0, now - b.at) / 1000) * perSecond);
      b.at = Math.max(b.at, now);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.ceil(((1 - b.tokens) / perSecond) * 1000);
    },
    mark(key, ttlMs, now) {
      marks.set(key, now + ttlMs);
    },
    marked(key, now) {
      const until = marks.peek(key);
      if (until === undefined) return false;
      if (until > now) return true;
      marks.delete(key);
      return false;
    },
    visit(key, ts, timeoutMs, newId) {
      const prev = visits.get(key);
      if (prev && Math.abs(ts - prev.last) < timeoutMs) {
        if (ts > prev.last) prev.last = ts;
        return prev.id;
      }
      const id = newId();
      if (!prev || ts > prev.last) visits.set(key, { id, last: ts });
      return id;
    },
    seedVisit(key, visitId, ts) {
      const prev = visits.get(key);
      // Keep whichever is newer: warming may race with live events.
      if (!prev || prev.last < ts) visits.set(key, { id: visitId, last: ts });
    },
    get visits() {
      return visits.size;
    },
    async close() {
      windows.clear();
      buckets.clear();
      marks.clear();
      visits.clear();
    },
  };
}
