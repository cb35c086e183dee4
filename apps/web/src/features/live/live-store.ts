// The live visitor list the socket feeds (SPEC.md §4): initial_customers replaces it (all active),
// add_customer adds or updates a visitor by clientid (active), remove_customer marks every visitor
// with that clientid inactive without deleting it, so the screens can grey out who just left.
// No React in here; the provider subscribes, and the count is schema's liveCount() (SPEC.md §5)
// over getSnapshot().
import type { LiveVisitor, ServerSocketMessage } from "@lookout/schema";

export interface LiveEntry extends LiveVisitor {
  /** When this browser learned that the visitor left (epoch ms); only on inactive entries. */
  leftAt?: number;
}

export interface LiveStoreOptions {
  now?: () => number;
  /** How listeners are called after changes; coalesced so a burst of messages renders once. */
  schedule?: (flush: () => void) => void;
  /**
   * Inactive visitors kept for the "recently left" list and the 30-minute chart. Past this the
   * longest-gone are forgotten, so a tab left open for days does not grow without end. Active
   * visitors are never dropped.
   */
  maxInactive?: number;
}

export const MAX_INACTIVE = 500;

/**
 * Entries are keyed by property and clientid. The server keeps one presence entry per (property,
 * clientid), so two properties on one origin can share a tracker client id; keying by clientid
 * alone would let one property's visitor overwrite the other's. Within a property this is exactly
 * "by clientid". remove_customer names only a clientid, so it marks that clientid everywhere.
 */
const keyOf = (v: Pick<LiveVisitor, "propertyId" | "clientid">) => `${v.propertyId}\u0000${v.clientid}`;

export class LiveStore {
  readonly #entries = new Map<string, LiveEntry>();
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;
  readonly #schedule: (flush: () => void) => void;
  readonly #maxInactive: number;
  #snapshot: readonly LiveEntry[] = [];
  #dirty = false;
  #flushPending = false;

  constructor(opts: LiveStoreOptions = {}) {
    this.#now = opts.now ?? Date.now;
    this.#schedule = opts.schedule ?? ((flush) => setTimeout(flush, 100));
    this.#maxInactive = opts.maxInactive ?? MAX_INACTIVE;
  }

  /** The current list, a new array after every change (for useSyncExternalStore). */
  getSnapshot = (): readonly LiveEntry[] => {
    if (this.#dirty) {
      this.#snapshot = [...this.#entries.values()];
      this.#dirty = false;
    }
    return this.#snapshot;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  apply(message: ServerSocketMessage): void {
    switch (message.type) {
      case "initial_customers":
        this.#entries.clear();
        for (const v of message.data) this.#entries.set(keyOf(v), { ...v, active: true });
        break;
      case "add_customer": {
        const key = keyOf(message.data);
        // Re-inserted so the map's order stays "most recently heard of last".
        this.#entries.delete(key);
        this.#entries.set(key, { ...message.data, active: true });
        break;
      }
      case "remove_customer": {
        const at = this.#now();
        for (const [key, e] of this.#entries) {
          if (e.clientid === message.customerId && e.active) this.#entries.set(key, { ...e, active: false, leftAt: at });
        }
        this.#forgetOldest();
        break;
      }
    }
    this.#changed();
  }

  /** Empties the list (logout, a different user). */
  clear(): void {
    if (this.#entries.size === 0) return;
    this.#entries.clear();
    this.#changed();
  }

  #forgetOldest(): void {
    const inactive = [...this.#entries].filter(([, e]) => !e.active);
    if (inactive.length <= this.#maxInactive) return;
    inactive.sort(([, a], [, b]) => (a.leftAt ?? 0) - (b.leftAt ?? 0));
    for (const [key] of inactive.slice(0, inactive.length - this.#maxInactive)) this.#entries.delete(key);
  }

  #changed(): void {
    this.#dirty = true;
    if (this.#flushPending) return;
    this.#flushPending = true;
    this.#schedule(() => {
      this.#flushPending = false;
      for (const l of this.#listeners) l();
    });
  }
}
