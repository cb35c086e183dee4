// Sliding-window throttles for sign-in and password recovery, keyed on the normalised e-mail, the
// client address, or both. In-process: with several servers each keeps its own window.
// (lru-cache is not a dependency of ours, only of our tools, so this stays a bounded Map.)
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

  /** Records a hit for `key`; returns the ms to wait if over the limit (recording nothing), else 0. */
  hit(key: string, now = Date.now()): number {
    const list = this.#live(key, now);
    if (list.length >= this.rule.limit) {
      this.#hits.set(key, list);
      return (list[0] ?? now) + this.rule.windowMs - now;
    }
    list.push(now);
    this.#hits.delete(key);
    this.#hits.set(key, list);
    this.#evict();
    return 0;
  }

  /** Hits of `key` within the window. */
  count(key: string, now = Date.now()): number {
    return this.#live(key, now).length;
  }

  /** Takes back the latest hit of `key` (an attempt that turned out not to count). */
  undo(key: string): void {
    const list = this.#hits.get(key);
    list?.pop();
    if (list?.length === 0) this.#hits.delete(key);
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }

  #live(key: string, now: number): number[] {
    const since = now - this.rule.windowMs;
    return (this.#hits.get(key) ?? []).filter((t) => t > since);
  }

  #evict(): void {
    if (this.#hits.size > this.maxKeys) {
      const oldest = this.#hits.keys().next().value;
      if (oldest !== undefined) this.#hits.delete(oldest);
    }
  }
}

/** Keys remembered for a while (the pairs that signed in), bounded like the throttles. */
export class Remembered {
  readonly #seen = new Map<string, number>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  add(key: string, now = Date.now()): void {
    this.#seen.delete(key);
    this.#seen.set(key, now);
    if (this.#seen.size > this.maxKeys) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }

  has(key: string, now = Date.now()): boolean {
    const at = this.#seen.get(key);
    return at !== undefined && now - at < this.ttlMs;
  }
}

/**
 * The address a throttle counts: an IPv4 address as is (also when IPv4-mapped), an IPv6 address
 * by its /64, which one host or home line usually holds whole and can rotate through freely.
 */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(":")) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
