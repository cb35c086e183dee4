// Sliding-window throttles for sign-in and password recovery, keyed on the normalised e-mail and
// on the client IP. In-process: with several servers each keeps its own window.
export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export class Throttle {
  readonly #hits = new Map<string, number[]>();
  constructor(
    private readonly rule: ThrottleRule,
    private readonly maxKeys = 100_000,
  ) {}

  /** Records a hit for `key`; returns the ms to wait if over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    const since = now - this.rule.windowMs;
    const list = (this.#hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.rule.limit) {
      this.#hits.set(key, list);
      return (list[0] ?? now) + this.rule.windowMs - now;
    }
    list.push(now);
    this.#hits.delete(key);
    this.#hits.set(key, list);
    if (this.#hits.size > this.maxKeys) {
      const oldest = this.#hits.keys().next().value;
      if (oldest !== undefined) this.#hits.delete(oldest);
    }
    return 0;
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }
}
