// The shared live parts of ClickHouse reads (issue #22; @lookout/query clickhouse-live-shared.ts):
// each distinct marked part is run once into a Memory table, and the statements read that table
// in its place. The dashboard fires 15 reads, and each merged the same live visits, listed the same
// visitors and scanned their settled history: at 10M events with today live, about 0.15 s of every
// panel.
//
// Which reads share a part: those whose part is the same text once bound (the same property,
// bounds, first live day and settled batches), and
// - that arrive while it is computed (as the marks' read is shared: clickhouse-settle.ts), unless
//   this store has written events or deleted since it began, so an append's own rows are in every
//   read issued after it returned;
// - or that arrive after, while the property's events from the first live day on are unchanged:
//   each such read takes their count and a sum of hashes (the stamp; a few ms over the sort key)
//   and compares it with the one taken before the part ran. Any insert (from any server) or
//   deletion changes it, so a table is never read once its part would answer differently.
//
// The tables live on the node this store talks to, named `lookout_live_<ms>_<hex>`. A table is
// dropped once a newer one replaces it or no read has used it for IDLE_MS, and no read holds it;
// tables a stopped process left behind are dropped by any store after STALE_MS (the name says when
// it was made).

import { randomBytes } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { type SharedPart, sharedParts } from "@lookout/query";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";

/** How long a table no read has used is kept. */
export const IDLE_MS = 60_000;
/** When a table another process made is taken as left behind. */
const STALE_MS = 10 * 60_000;
const PREFIX = "lookout_live_";

interface Entry {
  table: string;
  /** LiveRows.#writes when it began. */
  writes: number;
  /** The events' stamp taken before it ran (undefined: not yet). */
  stamp: string | undefined;
  /** Resolves once the table is there. */
  ready: Promise<void>;
  done: boolean;
  usedAt: number;
  holders: number;
  retired: boolean;
}

export interface LiveRowsTarget {
  client: ClickHouseClient;
  /** Settings of the statement that fills a table (spilling, time limit). */
  settings: () => Record<string, string | number>;
}

/** A part's stamp: what its events from the first live day on are now, or undefined when it cannot tell (never shared after). */
export type StampOf = (part: SharedPart) => Promise<string | undefined>;

export class LiveRows {
  readonly #entries = new Map<string, Entry>();
  #writes = 0;
  #sweptAt = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Tables made (a test's measure of sharing). */
  made = 0;

  constructor(private readonly t: LiveRowsTarget) {}

  /** This store wrote events or deleted: parts begun before are not shared after. */
  changed(): void {
    this.#writes++;
  }

  /**
   * `sql` (compiled, unbound) with each marked part replaced by its table, bound by `bind`;
   * `release` once the statement is done. A statement without parts is returned as bound.
   */
  async take(sql: string, bind: (text: string) => string, stampOf: StampOf): Promise<{ sql: string; release: () => void }> {
    const parts = sharedParts(sql);
    if (parts.length === 0) return { sql: bind(sql), release: () => {} };
    const held: Entry[] = [];
    const release = () => {
      for (const e of held.splice(0)) {
        e.holders--;
        e.usedAt = Date.now();
        this.#dropIfDone(e);
      }
    };
    try {
      const keys = parts.map((p) => bind(p.text));
      const tables = new Map<string, string>();
      for (const [i, part] of parts.entries()) {
        const key = keys[i] as string;
        if (tables.has(key)) continue;
        const e = await this.#acquire(key, () => stampOf(part));
        held.push(e);
        tables.set(key, e.table);
      }
      await Promise.all(held.map((e) => e.ready));
      return { sql: bind(replaceParts(sql, parts, (i) => tables.get(keys[i] as string) as string)), release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Drops every table this store made (closing). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(all.map((e) => e.ready));
    await Promise.allSettled(all.map((e) => this.#drop(e.table)));
  }

  /** The entry a read of `key` holds: one under way, one whose stamp still holds, or a new one. */
  async #acquire(key: string, stamp: () => Promise<string | undefined>): Promise<Entry> {
    for (;;) {
      const e = this.#entries.get(key);
      if (!e || e.writes !== this.#writes) return this.#start(key, stamp());
      if (!e.done) {
        e.holders++;
        return e;
      }
      const now = await stamp();
      if (this.#entries.get(key) !== e) continue; // replaced meanwhile: look again
      if (now === undefined || now !== e.stamp || e.writes !== this.#writes) return this.#start(key, Promise.resolve(now));
      e.holders++;
      return e;
    }
  }

  #start(key: string, stamp: Promise<string | undefined>): Entry {
    const old = this.#entries.get(key);
    if (old) this.#retire(key, old);
    const now = Date.now();
    const table = `${PREFIX}${now}_${randomBytes(6).toString("hex")}`;
    const e: Entry = {
      table,
      writes: this.#writes,
      stamp: undefined,
      ready: Promise.resolve(),
      done: false,
      usedAt: now,
      holders: 1,
      retired: false,
    };
    // The stamp first: events that arrive while the part runs make the next read run it again.
    e.ready = stamp
      .then((s) => {
        e.stamp = s;
        return this.t.client.command({
          query: `CREATE TABLE ${table} ENGINE = Memory AS SELECT * FROM ${key}`,
          clickhouse_settings: this.t.settings(),
        });
      })
      .then(() => {
        e.done = true;
        this.made++;
      });
    // A failed part is not shared: the next read runs it again (and a half-made table goes).
    e.ready.catch(() => this.#retire(key, e));
    this.#entries.set(key, e);
    this.#sweep(now);
    this.#timer ??= setInterval(() => this.#retireIdle(), IDLE_MS / 4).unref();
    return e;
  }

  #retireIdle(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [key, e] of this.#entries) if (e.done && e.holders === 0 && e.usedAt < cutoff) this.#retire(key, e);
  }

  #retire(key: string, e: Entry): void {
    if (this.#entries.get(key) === e) this.#entries.delete(key);
    e.retired = true;
    this.#dropIfDone(e);
  }

  #dropIfDone(e: Entry): void {
    if (!e.retired || e.holders !== 0) return;
    e.holders = -1; // dropped once
    void e.ready.catch(() => {}).then(() => this.#drop(e.table));
  }

  #drop(table: string): Promise<void> {
    return this.t.client
      .command({ query: `DROP TABLE IF EXISTS ${table}` })
      .then(() => {})
      .catch(() => {});
  }

  /** Now and then: drops the tables stopped processes left behind (older than STALE_MS). */
  #sweep(now: number): void {
    if (now - this.#sweptAt < STALE_MS / 10) return;
    this.#sweptAt = now;
    const cutoff = now - STALE_MS;
    void rows<{ name: string }>(
      this.t.client,
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND startsWith(name, ${literal(PREFIX)})`,
    )
      .then((found) =>
        Promise.all(
          found
            .map((r) => r.name)
            .filter((n) => Number(n.slice(PREFIX.length).split("_")[0]) < cutoff)
            .map((n) => this.#drop(n)),
        ),
      )
      .catch(() => {});
  }
}

/** `sql` with each part's marked text replaced by `by(its index)`. */
function replaceParts(sql: string, parts: readonly SharedPart[], by: (i: number) => string): string {
  let out = "";
  let at = 0;
  for (const [i, p] of parts.entries()) {
    out += sql.slice(at, p.start) + by(i);
    at = p.end;
  }
  return out + sql.slice(at);
}
