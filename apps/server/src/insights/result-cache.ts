// Insight results cached per (property, spec, data version), with single flight: two viewers who
// ask for the same spec at once share one store query. The data version is a per-property counter
// bumped when events of that property are stored (the collector's presence signals, which every
// server process receives over the LiveBus), so an answer is recomputed as soon as events arrive;
// an answer is also recomputed after `maxAgeMs` at most, because relative date ranges move with the
// clock and some changes (a visitor's deletion, a property reset) send no signal.
// The clock is injected: tests step it rather than wait. An lru-cache holds the answers (bounded,
// least recently used out first, its TTL is maxAgeMs on the injected clock); single flight is the
// cached promise itself, and the data version is checked on every hit.
import { LRUCache } from "lru-cache";

export interface ResultCacheOptions {
  /** The longest an answer is served after it was computed (default 3 minutes). */
  maxAgeMs?: number;
  /** Answers kept at most; the oldest go first (default 500). */
  maxEntries?: number;
  now?: () => number;
}

interface Entry<T> {
  version: number;
  value: Promise<T>;
}

export interface ResultCache<T> {
  /**
   * The answer for `key` on `property`: the cached one when computed at the property's current
   * data version within maxAgeMs, the one being computed when a computation is under way, else
   * `compute()`'s (whose failure is not kept).
   */
  get(property: string, key: string, compute: () => Promise<T>): Promise<T>;
  /** Events of `property` were stored: its answers are out of date. */
  bump(property: string): void;
  /** The property's data version (0 until its first bump). */
  version(property: string): number;
  readonly size: number;
}

export function createResultCache<T>(opts: ResultCacheOptions = {}): ResultCache<T> {
  const maxAgeMs = opts.maxAgeMs ?? 3 * 60_000;
  const maxEntries = opts.maxEntries ?? 500;
  const now = opts.now ?? Date.now;
  const versions = new Map<string, number>();
  const entries = new LRUCache<string, Entry<T>>({
    max: maxEntries,
    ttl: maxAgeMs,
    // The injected clock, read on every check (no cached reading, as tests step it).
    perf: { now },
    ttlResolution: 0,
  });

  const versionOf = (property: string) => versions.get(property) ?? 0;

  return {
    get(property, key, compute) {
      const id = `${property}\u0000${key}`;
      const version = versionOf(property);
      const hit = entries.get(id);
      if (hit && hit.version === version) return hit.value;
      const entry: Entry<T> = { version, value: compute() };
      entries.set(id, entry);
      // A failed computation is dropped (if still the current one), so the next ask tries again.
      entry.value.catch(() => {
        if (entries.peek(id, { allowStale: true }) === entry) entries.delete(id);
      });
      return entry.value;
    },
    bump(property) {
      versions.set(property, versionOf(property) + 1);
    },
    version: versionOf,
    get size() {
      return entries.size;
    },
  };
}

/**
 * A stable text of a JSON value: object keys sorted at every depth, so that two specs that differ
 * only in key order share an answer.
 */
export function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
