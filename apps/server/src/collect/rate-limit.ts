// Token buckets for the collector: per client IP and per property, so one noisy client or one
// flooded site cannot starve the rest. The buckets live in the SharedState: in-process (memory
// bounded by evicting the least recently used key) or in Redis, so N servers enforce one rate
// per address and per property rather than N times it.
import type { BucketRule, MaybePromise, SharedState } from "@lookout/storage";

export type { BucketRule };

export class TokenBuckets {
  /** `name` keeps these buckets apart from every other's in the shared state. */
  constructor(
    private readonly state: SharedState,
    private readonly name: string,
    private readonly rule: BucketRule,
  ) {}

  /**
   * Takes one token for `key`; 0 when allowed, else the ms until a token is free. In-process the
   * answer is synchronous (no promise per event). With Redis unreachable the event is allowed:
   * collection goes on, unlimited, until Redis is back (a 202 must not depend on Redis).
   */
  take(key: string, now = Date.now()): MaybePromise<number> {
    const wait = this.state.take(`${this.name}:${key}`, this.rule, now);
    return typeof wait === "number" ? wait : wait.catch(() => 0);
  }
}
