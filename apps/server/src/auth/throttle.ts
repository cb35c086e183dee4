// Sliding-window throttles for sign-in and password recovery, keyed on the normalised e-mail, the
// client address, or both. In-process: with several servers each keeps its own window. Memory is
// bounded by lru-cache: past `maxKeys` the least recently hit key is forgotten.
import { LRUCache } from "lru-cache";

export { throttleAddress } from "../http/client-ip.js";

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export class Throttle {
  /** key -> its hits within the window, oldest first (at most `limit`). */
  readonly #hits: LRUCache<string, number[]>;
  constructor(
    private readonly rule: ThrottleRule,
    maxKeys = 100_000,
  ) {
    this.#hits = new LRUCache({ max: maxKeys });
  }

  /** Records a hit for `key`; returns the ms to wait if over the limit (recording nothing), else 0. */
  hit(key: string, now = Date.now()): number {
    const list = this.#live(key, now);
    // Over the limit the key stays where it is in the recency order, as a refused hit is no hit.
    if (list.length >= this.rule.limit) return (list[0] ?? now) + this.rule.windowMs - now;
    list.push(now);
    this.#hits.set(key, list);
    return 0;
  }

  /** Hits of `key` within the window. */
  count(key: string, now = Date.now()): number {
    return this.#live(key, now).length;
  }

  /** Takes back the latest hit of `key` (an attempt that turned out not to count). */
  undo(key: string): void {
    const list = this.#hits.peek(key);
    list?.pop();
    if (list?.length === 0) this.#hits.delete(key);
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }

  /** The hits of `key` within the window, without marking it used. */
  #live(key: string, now: number): number[] {
    const since = now - this.rule.windowMs;
    return (this.#hits.peek(key) ?? []).filter((t) => t > since);
  }
}

/** Keys remembered for a while (the pairs that signed in), bounded like the throttles. */
export class Remembered {
  readonly #seen: LRUCache<string, true>;
  constructor(ttlMs: number, maxKeys = 100_000) {
    this.#seen = new LRUCache({ max: maxKeys, ttl: ttlMs });
  }

  add(key: string): void {
    this.#seen.set(key, true);
  }

  has(key: string): boolean {
    return this.#seen.has(key);
  }
}
