// Token buckets for the collector: per client IP and per property, so one noisy client or one
// flooded site cannot starve the rest. Memory is bounded by evicting the least recently used key.
import { LruMap } from "@lookout/ingest";

export interface BucketRule {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  readonly #buckets: LruMap<string, Bucket>;
  constructor(
    private readonly rule: BucketRule,
    maxKeys = 50_000,
  ) {
    this.#buckets = new LruMap(maxKeys);
  }

  /** Takes one token for `key`; returns 0 when allowed, else the ms until a token is free. */
  take(key: string, now = Date.now()): number {
    const { perSecond, burst } = this.rule;
    let b = this.#buckets.get(key);
    if (b === undefined) {
      b = { tokens: burst, at: now };
      this.#buckets.set(key, b);
    }
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / perSecond) * 1000);
  }
}
