// Daily salts for cookieless visitor hashes. A salt exists for one UTC day and is deleted 48 h
// after it was created, after which that day's hashes can never be recomputed or linked to the
// next day's. Storage sits behind `SaltStore` so the server can keep salts in its metadata store
// (every process must agree on the day's salt); `MemorySaltStore` serves one process and tests.
import { randomBytes } from "node:crypto";

export interface SaltStore {
  /** The salt for `day` (YYYY-MM-DD, UTC), created on first use; concurrent callers agree. */
  forDay(day: string): Promise<string>;
  /** Deletes salts created before `cutoff`. */
  deleteOlderThan(cutoff: Date): Promise<void>;
}

export const SALT_TTL_MS = 48 * 60 * 60 * 1000;

export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

export class MemorySaltStore implements SaltStore {
  readonly #salts = new Map<string, { secret: string; createdAt: number }>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  async forDay(day: string): Promise<string> {
    let salt = this.#salts.get(day);
    if (salt === undefined) {
      salt = { secret: randomBytes(32).toString("hex"), createdAt: this.clock().getTime() };
      this.#salts.set(day, salt);
    }
    return salt.secret;
  }

  async deleteOlderThan(cutoff: Date): Promise<void> {
    for (const [day, salt] of this.#salts) if (salt.createdAt < cutoff.getTime()) this.#salts.delete(day);
  }

  /** Days that still have a salt (for tests and diagnostics; never the secrets). */
  days(): string[] {
    return [...this.#salts.keys()].sort();
  }
}

/**
 * The current day's salt, reading the store once per day rather than once per event, and purging
 * expired salts at most hourly (48 h retention needs no finer grain).
 */
export class DailySalts {
  #current: { day: string; salt: Promise<string> } | undefined;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(private readonly store: SaltStore) {}

  async salt(now: Date): Promise<string> {
    const day = utcDay(now);
    let current = this.#current;
    if (current?.day !== day) {
      const fresh = { day, salt: this.store.forDay(day) };
      // A failed read must be retried on the next event, not cached for the rest of the day.
      fresh.salt.catch(() => {
        if (this.#current === fresh) this.#current = undefined;
      });
      this.#current = current = fresh;
    }
    if (now.getTime() - this.#lastPurge >= 60 * 60 * 1000) {
      this.#lastPurge = now.getTime();
      try {
        await this.store.deleteOlderThan(new Date(now.getTime() - SALT_TTL_MS));
      } catch {
        // Collection must not fail over housekeeping; the next event retries.
        this.#lastPurge = Number.NEGATIVE_INFINITY;
      }
    }
    return current.salt;
  }
}
