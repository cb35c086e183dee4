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
//   deletion changes it, so a table is never read once its part would answer differently. The
//   stamp reads the database's mutations too: any server's deletion retires the histories.
//
// The stamp is taken from `events` and from the visit state tables the parts read: 18.16 makes an
// insert's events visible before its materialized views have written the states, so a stamp of the
// events alone could count an event whose states the part then misses. Any change to either
// changes the stamp (a background merge of states too: the part only runs again). Parts are run
// again after ENTRY_MAX_MS whatever the stamp says.
//
// The tables live on the node this store talks to, named `lookout_live_<ms>_<hex>`. A table is
// dropped once a newer one replaces it, it is older than ENTRY_MAX_MS or no read has used it for
// IDLE_MS, and no read holds it; tables a stopped process left behind are dropped by any store
// after STALE_MS (the name says when it was made; far past any table's life here). Not on a
// cluster (the store does not set sharedLive there): a read's semi-join over a Distributed table
// would send its subquery over this node's table to the shards.

import { randomBytes } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { historyParts, SETTLED_PARAMS, type SharedPart, sharedParts, VISIT_TABLE_NAMES } from "@lookout/query";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";
import { QueryTimeoutError } from "./event-store.js";

/** How long a table no read has used is kept. */
export const IDLE_MS = 60_000;
/** How long a live part is reused at most, its stamp unchanged. */
const ENTRY_MAX_MS = 60_000;
/**
 * How long a history is added to before it is read again whole (the marks in its text change with
 * any settling or insert into a settled day; a deletion, this store's or another's, retires it).
 */
const HISTORY_MAX_MS = 5 * 60_000;
/** Stands for a history part's live table in its key. */
const FRESH_TOKEN = "lookout_live_rows";
/** When a table another process made is taken as left behind. */
const STALE_MS = 60 * 60_000;
const PREFIX = "lookout_live_";

/** What live parts and histories share: their tables, the reads holding them, and when they may go. */
interface Kept {
  /** The tables dropped with it. */
  names: () => string[];
  /** Settles once nothing is writing its tables. */
  settled: () => Promise<unknown>;
  usedAt: number;
  holders: number;
  retired: boolean;
}

interface Entry extends Kept {
  table: string;
  startedAt: number;
  /** LiveRows.#writes when it began. */
  writes: number;
  /** The events' stamp taken before it ran (undefined: not yet). */
  stamp: string | undefined;
  /** Resolves once the table is there. */
  ready: Promise<void>;
  done: boolean;
}

/** A history part's rows for the visitors seen so far (`seen`), and the live tables it covers. */
interface History extends Kept {
  table: string;
  seen: string;
  createdAt: number;
  covered: Set<string>;
  /** The fills, one after another. */
  chain: Promise<void>;
  created: boolean;
}

export interface LiveRowsTarget {
  client: ClickHouseClient;
  /** Settings of the statement that fills a table (spilling, time limit). */
  settings: () => Record<string, string | number>;
}

const TIMEOUT_CODE = /Code: 159\b|TIMEOUT_EXCEEDED/;

/** A part's stamp: what its events from the first live day on are now, or undefined when it cannot tell (never shared after). */
type StampOf = (part: SharedPart) => Promise<string | undefined>;

export class LiveRows {
  readonly #entries = new Map<string, Entry>();
  readonly #histories = new Map<string, History>();
  readonly #stamps = new Map<string, Promise<string>>();
  #writes = 0;
  /** The database's mutations when a stamp last read them (a change retires the histories). */
  #mutations: string | undefined;
  #sweptAt = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Tables made (a test's measure of sharing). */
  made = 0;
  /** Fills of histories (the visitors new to one): a test's measure. */
  historyReads = 0;

  constructor(private readonly t: LiveRowsTarget) {}

  /**
   * This store wrote events or deleted: parts begun before are not shared after. A deletion also
   * drops the histories (a deleted visitor's settled rows must not be read if they come back).
   */
  changed(deleted = false): void {
    this.#writes++;
    if (deleted) for (const [key, h] of this.#histories) this.#retire(this.#histories, key, h);
  }

  /**
   * `sql` (compiled, unbound) with each marked part replaced by its table, bound by `bind`;
   * `release` once the statement is done. A statement without parts is returned as bound.
   */
  async take(
    sql: string,
    bind: (text: string) => string,
    params: Record<string, unknown>,
    limitMs: number,
  ): Promise<{ sql: string; release: () => void }> {
    // Within the statement's limit: a read gives up waiting for a part, which goes on for the others.
    const taking = this.#take(sql, bind, (part) => this.#stamp(part, params));
    let timer: NodeJS.Timeout | undefined;
    try {
      return await (limitMs > 0
        ? Promise.race([
            taking,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new QueryTimeoutError(limitMs)), limitMs);
            }),
          ])
        : taking);
    } catch (err) {
      if (err instanceof QueryTimeoutError) taking.then((t) => t.release()).catch(() => {});
      throw TIMEOUT_CODE.test(err instanceof Error ? err.message : String(err)) ? new QueryTimeoutError(limitMs) : err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * What a shared live part's events are now: the count and a sum of hashes of the property's
   * events from the first live day on, over the sort key. One read for the reads that arrive while
   * it is under way (the dashboard's at once); this store's own writes are told apart by #writes.
   */
  #stamp(part: SharedPart, params: Record<string, unknown>): Promise<string | undefined> {
    const property = part.propertyParam ? params[part.propertyParam] : undefined;
    const first = params[SETTLED_PARAMS.firstLive];
    if (typeof property !== "string" || typeof first !== "string") return Promise.resolve(undefined);
    const key = `${property}\u0000${first}`;
    const open = this.#stamps.get(key);
    if (open) return open;
    const p = literal(property);
    const day = `toDate(${literal(first)})`;
    const states = VISIT_TABLE_NAMES.map(
      (t) => `(SELECT count() FROM ${t} WHERE property = ${p} AND day >= ${day} - 1) AS n_${t}`,
    );
    // The database's mutations too: another server's deletion of a visitor leaves one, and a
    // history must not keep that visitor's settled rows (they would count as returning if back).
    const mutations =
      "(SELECT toString(sum(cityHash64(mutation_id))) FROM system.mutations WHERE database = currentDatabase()) AS m";
    const stamp = rows<Record<string, number | string>>(
      this.t.client,
      `SELECT count() AS n, toString(sum(cityHash64(session_id, name, ts, ts_ms))) AS h, ${states.join(", ")}, ${mutations} FROM events ` +
        `WHERE property = ${p} AND ts >= toDateTime(${day}, 'UTC')`,
    ).then(([r]) => {
      const m = String(r?.m ?? "");
      if (this.#mutations !== undefined && m !== this.#mutations) this.changed(true);
      this.#mutations = m;
      return JSON.stringify(r ?? {});
    });
    this.#stamps.set(key, stamp);
    const done = () => this.#stamps.delete(key);
    stamp.then(done, done);
    return stamp;
  }

  async #take(sql: string, bind: (text: string) => string, stampOf: StampOf): Promise<{ sql: string; release: () => void }> {
    const parts = sharedParts(sql);
    if (parts.length === 0) return { sql: bind(sql), release: () => {} };
    const held: Entry[] = [];
    const heldHistory: History[] = [];
    const release = () => {
      for (const k of [...held.splice(0), ...heldHistory.splice(0)]) {
        k.holders--;
        k.usedAt = Date.now();
        this.#dropIfDone(k);
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
      const withTables = replaceParts(sql, parts, (i) => tables.get(keys[i] as string) as string);
      // The history parts, each over one live table now (clickhouse-live-shared.ts).
      const hparts = historyParts(withTables);
      const reads: string[] = [];
      for (const part of hparts) {
        const fresh = /\blookout_live_\w+/.exec(part.text)?.[0];
        const key = fresh ? bind(part.text.split(fresh).join(FRESH_TOKEN)) : undefined;
        if (!fresh || !key) throw new Error("a shared history part names no live table");
        const h = this.#historyOf(key);
        heldHistory.push(h);
        await this.#cover(key, h, fresh, bind(part.text));
        // Not narrowed to this part's visitors: the others' rows (visitors live in an earlier part
        // of the day) are history without a live visit, which no prev_* read keeps.
        reads.push(h.table);
      }
      return { sql: bind(replaceParts(withTables, hparts, (i) => reads[i] as string)), release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** The history entry of `key` (a history part's bound text, its live table's name replaced): kept, or a new one. */
  #historyOf(key: string): History {
    const now = Date.now();
    const open = this.#histories.get(key);
    if (open && now - open.createdAt <= HISTORY_MAX_MS) {
      open.holders++;
      return open;
    }
    if (open) this.#retire(this.#histories, key, open);
    const id = `${PREFIX}${now}_${randomBytes(6).toString("hex")}`;
    const h: History = {
      table: id,
      seen: `${id}_seen`,
      createdAt: now,
      usedAt: now,
      holders: 1,
      retired: false,
      covered: new Set(),
      chain: this.t.client.command({ query: `CREATE TABLE ${id}_seen (vkey UInt64) ENGINE = Memory` }).then(() => {}),
      created: false,
      names: () => [h.table, h.seen],
      settled: () => h.chain,
    };
    this.#histories.set(key, h);
    return h;
  }

  /**
   * Makes `h` hold the history of every visitor of the live table `fresh`: reads the settled rows
   * of those not seen yet (`text`: the bound history part), then marks them seen. One fill at a
   * time per entry, so each visitor is read once; a failed fill retires the entry.
   */
  #cover(key: string, h: History, fresh: string, text: string): Promise<void> {
    const run = async () => {
      if (h.covered.has(fresh)) return;
      const unseen = `SELECT vkey FROM ${fresh} WHERE vkey NOT IN (SELECT vkey FROM ${h.seen})`;
      const select = text.replace(`IN (SELECT vkey FROM ${fresh})`, `IN (${unseen})`);
      if (select === text) throw new Error("a shared history part does not read its live visitors' keys");
      const settings = this.t.settings();
      if (h.created)
        await this.t.client.command({ query: `INSERT INTO ${h.table} SELECT * FROM ${select}`, clickhouse_settings: settings });
      else {
        await this.t.client.command({
          query: `CREATE TABLE ${h.table} ENGINE = Memory AS SELECT * FROM ${select}`,
          clickhouse_settings: settings,
        });
        h.created = true;
      }
      await this.t.client.command({
        query: `INSERT INTO ${h.seen} SELECT DISTINCT vkey FROM (${unseen})`,
        clickhouse_settings: settings,
      });
      h.covered.add(fresh);
      this.historyReads++;
    };
    h.chain = h.chain.then(run);
    h.chain.catch(() => this.#retire(this.#histories, key, h));
    return h.chain;
  }

  /** Drops every table this store made (closing). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const all: Kept[] = [...this.#entries.values(), ...this.#histories.values()];
    this.#entries.clear();
    this.#histories.clear();
    await Promise.allSettled(all.map((k) => k.settled()));
    await Promise.allSettled(all.flatMap((k) => k.names().map((n) => this.#drop(n))));
  }

  /** The entry a read of `key` holds: one under way, one whose stamp still holds, or a new one. */
  async #acquire(key: string, stamp: () => Promise<string | undefined>): Promise<Entry> {
    for (;;) {
      const e = this.#entries.get(key);
      if (!e || e.writes !== this.#writes || Date.now() - e.startedAt > ENTRY_MAX_MS) return this.#start(key, stamp());
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
    if (old) this.#retire(this.#entries, key, old);
    const now = Date.now();
    const table = `${PREFIX}${now}_${randomBytes(6).toString("hex")}`;
    const e: Entry = {
      table,
      startedAt: now,
      writes: this.#writes,
      stamp: undefined,
      ready: Promise.resolve(),
      done: false,
      usedAt: now,
      holders: 1,
      retired: false,
      names: () => [table],
      settled: () => e.ready,
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
    e.ready.catch(() => this.#retire(this.#entries, key, e));
    this.#entries.set(key, e);
    this.#sweep(now);
    this.#timer ??= setInterval(() => this.#retireIdle(), IDLE_MS / 4).unref();
    return e;
  }

  #retireIdle(): void {
    const now = Date.now();
    const cutoff = now - IDLE_MS;
    for (const [key, e] of this.#entries)
      if (e.done && e.holders === 0 && (e.usedAt < cutoff || now - e.startedAt > ENTRY_MAX_MS))
        this.#retire(this.#entries, key, e);
    for (const [key, h] of this.#histories)
      if (h.holders === 0 && (h.usedAt < cutoff || now - h.createdAt > HISTORY_MAX_MS)) this.#retire(this.#histories, key, h);
  }

  /** No longer handed out; dropped once no read holds it. */
  #retire<T extends Kept>(map: Map<string, T>, key: string, k: T): void {
    if (map.get(key) === k) map.delete(key);
    k.retired = true;
    this.#dropIfDone(k);
  }

  #dropIfDone(k: Kept): void {
    if (!k.retired || k.holders !== 0) return;
    k.holders = -1; // dropped once
    void k
      .settled()
      .catch(() => {})
      .then(() => Promise.all(k.names().map((n) => this.#drop(n))));
  }

  #drop(table: string): Promise<void> {
    return this.t.client
      .command({ query: `DROP TABLE IF EXISTS ${table}` })
      .then(() => {})
      .catch(() => {});
  }

  /** Whether `name` is one of this store's tables. */
  #own(name: string): boolean {
    for (const e of this.#entries.values()) if (e.table === name) return true;
    for (const h of this.#histories.values()) if (h.table === name || h.seen === name) return true;
    return false;
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
            .filter((n) => Number(n.slice(PREFIX.length).split("_")[0]) < cutoff && !this.#own(n))
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
