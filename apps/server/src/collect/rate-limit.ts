// Token buckets for the collector: per client IP and per property, so one noisy client or one
// flooded site cannot starve the rest. Memory is bounded by evicting the least recently used key.
export interface BucketRule {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  constructor(
    private readonly rule: BucketRule,
    private readonly maxKeys = 50_000,
  ) {}

  /** Takes one token for `key`; returns 0 when allowed, else the ms until a token is free. */
  take(key: string, now = Date.now()): number {
    const { perSecond, burst } = this.rule;
    const b = this.#buckets.get(key) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    this.#buckets.delete(key);
    this.#buckets.set(key, b);
    if (this.#buckets.size > this.maxKeys) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / perSecond) * 1000);
  }
}
