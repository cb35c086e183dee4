// The scale-out EventStore on ClickHouse (DESIGN.md §1), written for Debian's 18.16 and talking HTTP
// through @clickhouse/client's plain query / insert / command (JSONEachRow): the client's newer
// conveniences (server-side query parameters) need 19.x+, so clickhouse-sql.ts binds them.
//
// - append: one INSERT per batch; rows are checked in JS first, so a bad row rejects the batch
//   before anything is sent (an 18.16 INSERT of one block is all or nothing).
// - sync: nothing to wait for: an INSERT is visible to reads once it returns, its visit states
//   (clickhouse-visit-tables.ts) written by materialized views within the same INSERT.
// - deleteProperty, deleteVisitor: asynchronous mutations in 18.16, waited for
//   (clickhouse-deletions.ts).
// - settle: every settleEveryMs (and on settle()), the visits of the days that are over are merged
//   once into plain rows that reads take instead of their states (clickhouse-settle.ts); an append
//   into a settled day marks it unsettled after its INSERT.
// - event slots (clickhouse-event-slots.ts): a view keeps trends' quarter-hour states with each
//   INSERT; a visitor's deletion makes the UTC days of their events again from what is left.
// - query timeouts: max_execution_time stops the query in the engine (18.16 checks it between
//   blocks); the call itself rejects at the limit and sends KILL QUERY for good measure, since an
//   18.16 server does not cancel a query when its HTTP client goes away.
// - a cluster (`cluster` option: a remote_servers name and every shard's HTTP URL): each shard
//   holds `events_local`, `visitors_local` and the visit tables' `<table>_local` (the same DDL),
//   and every shard has `events`, `visitors` and the visit tables as Distributed tables over them, so every query reads the same names on one node
//   or N. 18.16's ON CLUSTER needs ZooKeeper, so the DDL runs on each shard in turn. Inserts are
//   synchronous (insert_distributed_sync); an ingest-log record's rows go to one shard (the
//   sharding key is its id), so the exactly-once check per record holds across shards; rows
//   without a record id are spread by visit. Subqueries over a Distributed table run GLOBAL
//   (distributed_product_mode), so joins of visits are right however rows are spread.
//
// This file: opening the store and its reads and writes. The options and contract types:
// clickhouse-options.ts (re-exported here); the schema and its migration: clickhouse-migrate.ts.

import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { dayRowsKey, SETTLED_PARAMS, type SettledVisits, settledParamsOf } from "@lookout/query";
import type { EventRow, VisitorProfile } from "@lookout/schema";
import { migrateClickHouse, rows } from "./clickhouse-migrate.js";
import {
  CLICKHOUSE_CANNOT,
  type ClickHouseEventStore,
  type ClickHouseOptions,
  type IngestRecord,
  parseClickHouseUrl,
} from "./clickhouse-options.js";
import { Deletions } from "./clickhouse-deletions.js";
import { LiveRows } from "./clickhouse-live-rows.js";
import { markStoredDays, Settler } from "./clickhouse-settle.js";
import { bindParams, EVENT_SELECT, eventFromJson, eventJson, literal, profileJson } from "./clickhouse-sql.js";
import { clickHouseTimelines } from "./clickhouse-timelines.js";
import {
  type CompiledQuery,
  type EventStore,
  type EventsQuery,
  type QueryOptions,
  QueryTimeoutError,
  type RecentSession,
} from "./event-store.js";
import { timelineAnswers } from "./timeline-answers.js";
import type { Timelines } from "./timelines.js";

export {
  CLICKHOUSE_CANNOT,
  type ClickHouseCluster,
  type ClickHouseEventStore,
  type ClickHouseOptions,
  type IngestRecord,
  parseClickHouseUrl,
} from "./clickhouse-options.js";

const MAX_EVENTS = 10_000;
const TIMEOUT_CODE = /Code: 159\b|TIMEOUT_EXCEEDED/;

/** Opens (and migrates) the ClickHouse event store at `url` (http://host:8123/<database>). */
export async function openClickHouseEventStore(url: string, opts: ClickHouseOptions = {}): Promise<ClickHouseEventStore> {
  const cfg = parseClickHouseUrl(url);
  // The client loads only for a ClickHouse store: the embedded default never needs it.
  const { ClickHouseLogLevel, createClient } = await import("@clickhouse/client");
  const common = {
    url: cfg.url,
    username: cfg.username,
    password: cfg.password,
    log: { level: ClickHouseLogLevel.OFF },
    request_timeout: 300_000,
    // Counts as JSON numbers, not strings (the default quotes 64-bit integers).
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  } as const;
  // A client on the server's default database, for CREATE DATABASE before the store's own exists.
  const admin = createClient({ ...common, database: "default" });
  const client = createClient(
    opts.cluster
      ? {
          ...common,
          database: cfg.database,
          clickhouse_settings: { ...common.clickhouse_settings, insert_distributed_sync: 1, distributed_product_mode: "global" },
        }
      : { ...common, database: cfg.database },
  );
  let serverVersion: string;
  let memoryLimit: number;
  try {
    const v = await rows<{ v: string; m: string }>(
      admin,
      "SELECT version() AS v, (SELECT value FROM system.settings WHERE name = 'max_memory_usage') AS m",
    );
    serverVersion = String(v[0]?.v ?? "");
    memoryLimit = Number(v[0]?.m ?? 0) || 0;
  } catch (err) {
    await Promise.all([admin.close(), client.close()]);
    throw new Error(`ClickHouse is not reachable at ${cfg.url}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Each shard's own connection (DDL and mutations run on every shard).
  const shards = (opts.cluster?.shards ?? []).map((u) => {
    const s = parseClickHouseUrl(u);
    return createClient({ ...common, url: s.url, username: s.username, password: s.password, database: "default" });
  });
  // Half the limit, as ClickHouse's documentation advises: the merge of the spilled parts needs the rest.
  const spillBytes = Math.max(0, Math.floor(opts.spillBytes ?? memoryLimit / 2));
  const store = new ChStore(client, admin, cfg.database, serverVersion, { ...opts, spillBytes }, shards);
  try {
    await store.migrate();
    await markStoredDays(client, Date.now());
  } catch (err) {
    await store.close();
    throw err;
  }
  store.startSettling();
  return store;
}

class ChStore implements ClickHouseEventStore {
  readonly dialect = "clickhouse" as const;
  readonly cannot = CLICKHOUSE_CANNOT;
  #closed = false;
  #pending = new Set<Promise<unknown>>();
  #version = 0;
  readonly #settler: Settler;
  readonly #live: LiveRows;
  readonly #deletions: Deletions;
  readonly #timelines: Timelines<unknown> | null;
  readonly funnelFromTimelines: EventStore["funnelFromTimelines"];
  readonly retentionFromTimelines: EventStore["retentionFromTimelines"];
  readonly stickinessFromTimelines: EventStore["stickinessFromTimelines"];
  readonly lifecycleFromTimelines: EventStore["lifecycleFromTimelines"];
  readonly funnelActorsFromTimelines: EventStore["funnelActorsFromTimelines"];

  constructor(
    private readonly client: ClickHouseClient,
    private readonly admin: ClickHouseClient,
    readonly database: string,
    readonly serverVersion: string,
    private readonly opts: ClickHouseOptions,
    private readonly shards: readonly ClickHouseClient[] = [],
  ) {
    this.#deletions = new Deletions({
      client,
      admin,
      database,
      shards,
      cluster: opts.cluster !== undefined,
      stored: (t) => this.#stored(t),
      changed: () => this.#live.changed(true),
      refillDayRows: () => this.#settler.refillDayRows(),
      forget: (property) => this.#timelines?.forget(property),
      now: () => opts.now?.() ?? Date.now(),
      mutationTimeoutMs: opts.mutationTimeoutMs ?? 300_000,
    });
    this.#settler = new Settler({
      client: this.client,
      deleteWhere: (t, where) => this.#deletions.mutate(`ALTER TABLE ${this.#stored(t)} DELETE WHERE ${where}`),
      settings: () => this.#spilling(),
      closed: () => this.#closed,
      ...(opts.supersededGraceMs !== undefined ? { supersededGraceMs: opts.supersededGraceMs } : {}),
      ...(opts.settleClock ? { now: opts.settleClock } : {}),
    });
    this.#live = new LiveRows({
      client: this.client,
      settings: () => {
        const limit = this.opts.queryTimeoutMs ?? 10_000;
        return limit > 0 ? { ...this.#spilling(), max_execution_time: Math.ceil(limit / 1000) } : this.#spilling();
      },
    });
    this.#timelines =
      opts.timelines === false
        ? null
        : (clickHouseTimelines(
            {
              client,
              database,
              eventsStored: opts.cluster ? "events_local" : "events",
              settings: () => this.#spilling(),
              ...(opts.now ? { now: opts.now } : {}),
            },
            opts.timelines ?? {},
          ) as Timelines<unknown>);
    const answers = timelineAnswers(this.#timelines);
    this.funnelFromTimelines = answers.funnelFromTimelines;
    this.retentionFromTimelines = answers.retentionFromTimelines;
    this.stickinessFromTimelines = answers.stickinessFromTimelines;
    this.lifecycleFromTimelines = answers.lifecycleFromTimelines;
    this.funnelActorsFromTimelines = answers.funnelActorsFromTimelines;
  }

  /** The pairs a read has asked for in this process (dayRollupThrough): each is added once. */
  readonly #dayRowsAsked = new Set<string>();

  /**
   * Day rows' bounds come with the settled visits (SettledVisits.dayRows, read per statement), so
   * this only starts keeping the pair's rows the first time it is asked for, and answers nothing.
   */
  dayRollupThrough(property: string, timezone: string): undefined {
    const key = dayRowsKey(property, timezone);
    if (this.#dayRowsAsked.has(key) || this.#closed) return undefined;
    this.#dayRowsAsked.add(key);
    this.#track(() => this.#settler.addDayRows({ property, tz: timezone })).catch((err) => {
      this.#dayRowsAsked.delete(key);
      if (!this.#closed)
        console.error(`ClickHouse: filling day rows failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    return undefined;
  }

  buildDayRollups(property: string, timezone: string): Promise<void> {
    this.#dayRowsAsked.add(dayRowsKey(property, timezone));
    return this.#track(async () => {
      await this.#settler.addDayRows({ property, tz: timezone });
    });
  }

  buildTimeline(property: string): Promise<boolean> {
    return this.#timelines ? this.#timelines.prepare(property) : Promise.resolve(false);
  }

  /** Where a table's rows are stored: `<name>_local` on each shard of a cluster, else `<name>`. */
  #stored(table: string): string {
    return this.opts.cluster ? `${this.database}.${table}_local` : table;
  }

  /** Runs `fn` unless closed, and lets close() wait for it. */
  #track<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("event store is closed"));
    const p = fn();
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  migrate(): Promise<void> {
    return migrateClickHouse({
      client: this.client,
      admin: this.admin,
      database: this.database,
      cluster: this.opts.cluster,
      shards: this.shards,
    });
  }

  append(batch: readonly EventRow[]): Promise<void> {
    return this.#track(async () => {
      if (batch.length === 0) return;
      const values = batch.map(eventJson); // throws on a bad row: nothing is sent
      await this.client.insert({ table: "events", values, format: "JSONEachRow" });
      await this.#unsettle(batch);
    });
  }

  /** The settings that let a GROUP BY or ORDER BY past spillBytes go on in temporary files. */
  #spilling(): Record<string, string> {
    const spill = this.opts.spillBytes ?? 0;
    return spill > 0 ? { max_bytes_before_external_group_by: String(spill), max_bytes_before_external_sort: String(spill) } : {};
  }

  /** After an insert: marks the settled days its events change as not settled (clickhouse-settle.ts). */
  async #unsettle(inserted: readonly EventRow[]): Promise<void> {
    this.#live.changed();
    await this.#settler.unsettle(inserted);
  }

  settle(now: Date = new Date()): Promise<number> {
    return this.#track(() => this.#settler.settle(now));
  }

  /** The marks as the statements that read visits bind them (settledParamsOf; Settler.settledVisits). */
  settledVisits(): Promise<SettledVisits> {
    // Not on a cluster (clickhouse-live-rows.ts): its semi-joins would send the shared tables' names to the shards.
    const shared = this.opts.shareLive !== false && !this.opts.cluster;
    return this.#track(async () => ({ ...(await this.#settler.settledVisits()), ...(shared ? { sharedLive: true } : {}) }));
  }

  /** Shared live tables made so far (clickhouse-live-rows.ts): a test's measure of sharing. */
  get liveTablesMade(): number {
    return this.#live.made;
  }

  /** Fills of the shared histories so far (clickhouse-live-rows.ts). */
  get liveHistoryReads(): number {
    return this.#live.historyReads;
  }

  /** Settles due days now and then (settleEveryMs). */
  startSettling(): void {
    this.#settler.start(this.opts.settleEveryMs ?? 5 * 60_000);
  }

  appendOnce(records: readonly IngestRecord[]): Promise<void> {
    return this.#track(async () => {
      const live = records.filter((r) => r.rows.length > 0);
      if (live.length === 0) return;
      // Where the records' rows can be: the sort key (property, ts) narrows the check to them.
      const props = new Set<string>();
      let min = Number.POSITIVE_INFINITY;
      let max = 0;
      for (const r of live)
        for (const row of r.rows) {
          props.add(row.property);
          const t = row.ts.getTime();
          if (t < min) min = t;
          if (t > max) max = t;
        }
      const inList = (xs: Iterable<string>) => [...xs].map(literal).join(", ");
      const present = new Set(
        (
          await rows<{ b: string }>(
            this.client,
            `SELECT DISTINCT ingest_batch AS b FROM events WHERE property IN (${inList(props)}) ` +
              `AND ts >= toDateTime(${Math.floor(min / 1000)}, 'UTC') AND ts <= toDateTime(${Math.floor(max / 1000)}, 'UTC') ` +
              `AND ingest_batch IN (${inList(live.map((r) => r.id))})`,
          )
        ).map((r) => r.b),
      );
      const values: Record<string, unknown>[] = [];
      for (const r of live) {
        if (present.has(r.id)) continue;
        for (const row of r.rows) values.push({ ...eventJson(row), ingest_batch: r.id });
      }
      if (values.length > 0) await this.client.insert({ table: "events", values, format: "JSONEachRow" });
      // Every record's days, present or not: a retry after the insert but before its marks still marks them.
      await this.#unsettle(live.flatMap((r) => r.rows));
    });
  }

  upsertVisitors(profiles: readonly VisitorProfile[]): Promise<void> {
    return this.#track(async () => {
      if (profiles.length === 0) return;
      // µs of the write, then the position in the batch: later upserts (and later rows of a batch)
      // carry larger versions. Monotonic within this process even if the clock steps back.
      const base = Math.max(Date.now() * 1000, this.#version + 1);
      this.#version = base + profiles.length;
      const values = profiles.map((p, i) => profileJson(p, base + i));
      await this.client.insert({ table: "visitors", values, format: "JSONEachRow" });
    });
  }

  sync(): Promise<void> {
    return this.#closed ? Promise.reject(new Error("event store is closed")) : Promise.resolve();
  }

  query<T = Record<string, unknown>>(q: CompiledQuery, opts: QueryOptions = {}): Promise<T[]> {
    return this.#track(async () => {
      const limit = opts.timeoutMs ?? this.opts.queryTimeoutMs ?? 10_000;
      // A statement compiled without CompileContext.settledVisits binds them now.
      const unbound = Object.values(SETTLED_PARAMS).some((n) => q.sql.includes(`{${n}:`) && !Object.hasOwn(q.params, n));
      const params = unbound ? { ...settledParamsOf(q.sql, await this.settledVisits()), ...q.params } : q.params;
      // The shared live parts (clickhouse-live-rows.ts) are computed, or waited for, first.
      const bind = (text: string) => bindParams({ ...q, sql: text, params });
      const started = Date.now();
      const taken = await this.#live.take(q.sql, bind, params, limit);
      try {
        return await this.#run<T>(taken.sql, limit > 0 ? Math.max(1, limit - (Date.now() - started)) : limit);
      } finally {
        taken.release();
      }
    });
  }

  /** Runs a bound statement within `limit` ms (0: none). */
  async #run<T>(sql: string, limit: number): Promise<T[]> {
    const spilling = this.#spilling();
    if (!(limit > 0)) return rows<T>(this.client, sql, { clickhouse_settings: spilling });
    const queryId = randomUUID();
    const run = rows<T>(this.client, sql, {
      query_id: queryId,
      clickhouse_settings: {
        ...spilling,
        // Whole seconds in 18.16; the call's own timer below keeps the exact limit.
        max_execution_time: Math.max(1, Math.ceil(limit / 1000)),
        timeout_overflow_mode: "throw",
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new QueryTimeoutError(limit));
        void this.admin.command({ query: `KILL QUERY WHERE query_id = ${literal(queryId)} ASYNC` }).catch(() => {});
      }, limit);
    });
    try {
      return await Promise.race([run, timeout]);
    } catch (err) {
      if (err instanceof QueryTimeoutError) {
        run.catch(() => {});
        throw err;
      }
      if (TIMEOUT_CODE.test(err instanceof Error ? err.message : String(err))) throw new QueryTimeoutError(limit);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  events(property: string, q: EventsQuery = {}): Promise<EventRow[]> {
    return this.#track(async () => {
      const where = [`property = ${literal(property)}`];
      const tms = "(toUInt64(ts) * 1000 + ts_ms)";
      if (q.clientId !== undefined) where.push(`client_id = ${literal(q.clientId)}`);
      // The whole-second bound lets the sort key skip; the millisecond one is exact.
      if (q.from) {
        const ms = q.from.getTime();
        where.push(`ts >= toDateTime(${Math.floor(ms / 1000)}, 'UTC')`, `${tms} >= ${ms}`);
      }
      if (q.to) {
        const ms = q.to.getTime();
        where.push(`ts <= toDateTime(${Math.floor(ms / 1000)}, 'UTC')`, `${tms} < ${ms}`);
      }
      const limit = Math.min(Math.max(1, Math.floor(q.limit ?? 1000)), MAX_EVENTS);
      const dir = q.newestFirst ? "DESC" : "ASC";
      const sql = `SELECT ${EVENT_SELECT} FROM events WHERE ${where.join(" AND ")} ORDER BY ts ${dir}, ts_ms ${dir} LIMIT ${limit}`;
      return (await rows<Record<string, unknown>>(this.client, sql)).map(eventFromJson);
    });
  }

  visitor(property: string, clientId: string): Promise<VisitorProfile | null> {
    return this.#track(async () => {
      const sql =
        "SELECT email, name, traits.key AS tk, traits.value AS tv, first_seen_ms, last_seen_ms FROM visitors " +
        `WHERE property = ${literal(property)} AND client_id = ${literal(clientId)} ORDER BY version`;
      const ups = await rows<{
        email: string;
        name: string;
        tk: string[];
        tv: string[];
        first_seen_ms: number;
        last_seen_ms: number;
      }>(this.client, sql);
      if (ups.length === 0) return null;
      // The EventStore's merge rules, applied in upsert order.
      let email = "";
      let name = "";
      const traits: Record<string, string> = {};
      let first = Number.POSITIVE_INFINITY;
      let last = 0;
      for (const u of ups) {
        if (u.email) email = u.email;
        if (u.name) name = u.name;
        u.tk.forEach((k, i) => {
          traits[k] = u.tv[i] ?? "";
        });
        first = Math.min(first, Number(u.first_seen_ms));
        last = Math.max(last, Number(u.last_seen_ms));
      }
      return { property, client_id: clientId, email, name, traits, first_seen: new Date(first), last_seen: new Date(last) };
    });
  }

  recentSessions(since: Date): Promise<RecentSession[]> {
    return this.#track(async () => {
      const ms = since.getTime();
      const tms = "(toUInt64(ts) * 1000 + ts_ms)";
      const sql =
        `SELECT property, visitor_id, argMax(session_id, ${tms}) AS session_id, max(${tms}) AS last_ms FROM events ` +
        `WHERE ts >= toDateTime(${Math.floor(ms / 1000)}, 'UTC') AND ${tms} >= ${ms} GROUP BY property, visitor_id`;
      const out = await rows<{ property: string; visitor_id: string; session_id: string; last_ms: number }>(this.client, sql);
      return out.map((r) => ({
        property: r.property,
        visitor_id: r.visitor_id,
        session_id: r.session_id,
        last_ts: new Date(Number(r.last_ms)),
      }));
    });
  }

  deleteProperty(property: string): Promise<void> {
    return this.#track(() => this.#deletions.property(property));
  }

  deleteVisitor(property: string, clientId: string): Promise<number> {
    return this.#track(() => this.#deletions.visitor(property, clientId));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#settler.stop();
    await this.#timelines?.close();
    await Promise.allSettled([...this.#pending]);
    await this.#live.close();
    await Promise.all([this.client.close(), this.admin.close(), ...this.shards.map((s) => s.close())]);
  }
}
