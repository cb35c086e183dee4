// Sliding-window throttles for sign-in, password recovery, password checks, shared-link passwords
// and invitations, keyed on the normalised e-mail, the client address, or both; and the pairs
// remembered for a while. Both keep their state in the SharedState (storage's shared-state/):
// in-process for one server, in Redis for several, so N servers count one window per key and a
// guesser gains nothing by spreading attempts over them. With Redis unreachable a check fails
// with a 503 rather than letting attempts through unthrottled.
import type { SharedState, WindowRule } from "@lookout/storage";
import { DomainError } from "../http/domain-errors.js";

export { throttleAddress } from "../http/client-ip.js";

export type ThrottleRule = WindowRule;

/** A call of the shared state that failed (Redis down) answers 503, never an unthrottled pass. */
async function guarded<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new DomainError("service_unavailable", "This check is unavailable right now. Please try again shortly.");
  }
}

export class Throttle {
  /** `name` keeps this throttle's keys apart from every other's in the shared state. */
  constructor(
    private readonly state: SharedState,
    private readonly name: string,
    private readonly rule: ThrottleRule,
  ) {}

  #key(key: string): string {
    return `${this.name}:${key}`;
  }

  /** Records a hit for `key`; answers the ms to wait if over the limit (recording nothing), else 0. */
  hit(key: string, now = Date.now()): Promise<number> {
    return guarded(() => this.state.hit(this.#key(key), this.rule, now));
  }

  /** Hits of `key` within the window. */
  count(key: string, now = Date.now()): Promise<number> {
    return guarded(() => this.state.count(this.#key(key), this.rule, now));
  }

  /** Takes back the latest hit of `key` (an attempt that turned out not to count). */
  undo(key: string): Promise<void> {
    return guarded(() => this.state.undo(this.#key(key)));
  }

  reset(key: string): Promise<void> {
    return guarded(() => this.state.reset(this.#key(key)));
  }
}

/** Keys remembered for a while (the pairs that signed in), in the same shared state. */
export class Remembered {
  constructor(
    private readonly state: SharedState,
    private readonly name: string,
    private readonly ttlMs: number,
  ) {}

  add(key: string, now = Date.now()): Promise<void> {
    return guarded(() => this.state.mark(`${this.name}:${key}`, this.ttlMs, now));
  }

  has(key: string, now = Date.now()): Promise<boolean> {
    return guarded(() => this.state.marked(`${this.name}:${key}`, now));
  }
}
