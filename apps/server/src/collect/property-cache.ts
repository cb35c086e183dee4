// The collector looks up a property per event; this keeps recent answers (including "unknown")
// for a few seconds so the hot path does not touch the metadata store. An lru-cache with a TTL
// holds the answers; concurrent misses for one property share a single lookup.
import type { MetaStore, PropertyRow } from "@lookout/storage";
import { LRUCache } from "lru-cache";

/** A cached answer (lru-cache holds no null: "unknown" is `{ row: null }`). */
interface Cached {
  row: PropertyRow | null;
}

export class PropertyCache {
  readonly #entries: LRUCache<string, Cached>;
  readonly #inflight = new Map<string, Promise<PropertyRow | null>>();
  constructor(
    private readonly meta: MetaStore,
    ttlMs = 5000,
    maxEntries = 10_000,
  ) {
    this.#entries = new LRUCache({ max: maxEntries, ttl: ttlMs });
  }

  async get(uniqueId: string): Promise<PropertyRow | null> {
    const hit = this.#entries.get(uniqueId);
    if (hit) return hit.row;
    let p = this.#inflight.get(uniqueId);
    if (!p) {
      p = this.meta.properties
        .findByUniqueId(uniqueId)
        .then((row) => {
          this.#entries.set(uniqueId, { row: row ?? null });
          return row ?? null;
        })
        .finally(() => this.#inflight.delete(uniqueId));
      this.#inflight.set(uniqueId, p);
    }
    return p;
  }

  invalidate(uniqueId: string): void {
    this.#entries.delete(uniqueId);
  }
}
