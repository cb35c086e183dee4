// The collector looks up a property per event; this keeps recent answers (including "unknown")
// for a few seconds so the hot path does not touch the metadata store.
import type { MetaStore, PropertyRow } from "@lookout/storage";

interface Cached {
  row: PropertyRow | null;
  at: number;
}

export class PropertyCache {
  readonly #entries = new Map<string, Cached>();
  readonly #inflight = new Map<string, Promise<PropertyRow | null>>();
  constructor(
    private readonly meta: MetaStore,
    private readonly ttlMs = 5000,
    private readonly maxEntries = 10_000,
  ) {}

  async get(uniqueId: string, now = Date.now()): Promise<PropertyRow | null> {
    const hit = this.#entries.get(uniqueId);
    if (hit && now - hit.at < this.ttlMs) return hit.row;
    let p = this.#inflight.get(uniqueId);
    if (!p) {
      p = this.meta.properties
        .findByUniqueId(uniqueId)
        .then((row) => {
          this.#entries.delete(uniqueId);
          this.#entries.set(uniqueId, { row: row ?? null, at: Date.now() });
          if (this.#entries.size > this.maxEntries) {
            const oldest = this.#entries.keys().next().value;
            if (oldest !== undefined) this.#entries.delete(oldest);
          }
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
