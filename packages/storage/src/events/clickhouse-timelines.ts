// The ClickHouse store's visitor timelines (timelines.ts keeps them; @lookout/query timeline.ts: the
// layout): how ClickHouse reads a base and its fresh part. ClickHouse rows carry no commit order
// a read could resume from, so the split is by time, on a day boundary:
// - The base holds every event before B, the first UTC day not yet settleable when it is read
//   (clickhouse-marks.ts lastSettleableDay). Each query counts the events from B on (the fresh
//   part, today, and yesterday too for 35 minutes after midnight: the sort key (property, ts)
//   narrows the read to them) and reads them again when the count moved.
// - An insert into a settleable day (an import, a backlog delivered late, `/api/batch` with old
//   timestamps) leaves a mark after it (visits_done_marks, `at` in µs), as does a settle step; a
//   deletion of a visitor or a property mutates `events`. Each query asks whether either happened
//   since the base's read began: then the base no longer holds what it read, SQL answers, and it
//   is read again. That holds across servers: another server's insert or deletion leaves the same
//   traces.
// The base is streamed as RowBinary (17 bytes a row: the visitor key as Int64, the instant's two
// parts from the first event, the (name, page) pair numbered by ClickHouse from this module's
// dictionaries), in slices of the visitor keys' range as DuckDB's.
import type { ClickHouseClient } from "@clickhouse/client";
import {
  type CompiledQuery,
  compileFunnelClientIds,
  DONE_MARKS_TABLE,
  indexTimeline,
  T_HI,
  TIMELINE_MAX_SPAN_MS,
  type Timeline,
  timelinePagesSql,
} from "@lookout/query";
import { rows } from "./clickhouse-migrate.js";
import { lastSettleableDay } from "./clickhouse-marks.js";
import { bindParams, literal } from "./clickhouse-sql.js";
import { Dictionary, encoded, keySlices, PairDictionary, TimelineWriter } from "./timeline-columns.js";
import { TIMELINE_DEFAULTS, type TimelineOptions, type TimelineSource, Timelines } from "./timelines.js";

const DAY = 86_400_000;
/** A row of the base's RowBinary stream: Int64 key, UInt8 and UInt32 instant parts, UInt32 pair. */
const ROW = 17;
/** Room for the dictionaries' and the visitor lists' literals in a statement's text. */
const BIG_QUERY = { max_query_size: String(1 << 28) };

export interface ClickHouseTimelineDeps {
  client: ClickHouseClient;
  database: string;
  /** The table deletions mutate: `events`, or each shard's `events_local`. */
  eventsStored: string;
  /** The settings a large read runs with (spilling past the store's limit). */
  settings: () => Record<string, string>;
  /** The clock (ms) that places the base's boundary; the bench sets its own. */
  now?: () => number;
}

/** What a ClickHouse base holds: the events before `boundary` (ms, a UTC midnight), read from `at` (µs), after mutation `mutation`; and the fresh part last read. */
interface ChState {
  boundary: number;
  at: number;
  mutation: number;
  fresh?: { timeline: Timeline; rows: number };
}

const tms = "(toUInt64(ts) * 1000 + ts_ms)";
const signedKey = "toInt64(cityHash64(visitor_id))";

/** The ClickHouse store's timelines. */
export function clickHouseTimelines(deps: ClickHouseTimelineDeps, opts: TimelineOptions = {}): Timelines<ChState> {
  const o = { ...TIMELINE_DEFAULTS, ...opts };
  const now = deps.now ?? Date.now;
  const sql = <T>(query: string, extra: Record<string, string> = {}) =>
    rows<T>(deps.client, query, { clickhouse_settings: { ...deps.settings(), ...extra } });
  let stop = new AbortController();
  // The number of the events table's latest mutation (a deletion): they only grow, per table.
  const MUTATION =
    "SELECT max(toUInt64OrZero(extract(mutation_id, '([0-9]+)'))) FROM system.mutations " +
    `WHERE database = ${literal(deps.database)} AND table = ${literal(deps.eventsStored)}`;
  const lastMutation = async () => Number((await sql<{ m: number }>(`SELECT (${MUTATION}) AS m`))[0]?.m ?? 0);

  const source: TimelineSource<ChState> = {
    interrupt: () => {
      stop.abort();
      stop = new AbortController();
    },

    async load(property, fits) {
      // `at` on the marks' clock (the real one); the boundary on the store's (the bench's own "now").
      const at = Date.now() * 1000;
      const boundary = (lastSettleableDay(now()) + 1) * DAY;
      const mutation = await lastMutation();
      const scope = `property = ${literal(property)} AND ts < toDateTime(${boundary / 1000}, 'UTC')`;
      const counted = await sql<{ n: number; t0: number; t1: number; v: number }>(
        `SELECT count() AS n, min(${tms}) AS t0, max(${tms}) AS t1, uniqExact(cityHash64(visitor_id)) AS v FROM events WHERE ${scope}`,
      );
      const n = Number(counted[0]?.n ?? 0);
      const t0 = n === 0 ? 0 : Number(counted[0]?.t0);
      if (n > 0 && Number(counted[0]?.t1) - t0 >= TIMELINE_MAX_SPAN_MS) return null;
      if (!fits(n)) return null;
      if (n === 0) {
        const empty = new TimelineWriter(0, 0, 0).finish();
        return {
          base: empty,
          names: new Dictionary([]),
          pages: new Dictionary([]),
          pairs: new PairDictionary(),
          state: { boundary, at, mutation },
        };
      }
      // The dictionaries, sorted; the pairs numbered in (name, page) order.
      const found = await sql<{ name: string; path: string }>(`SELECT name, path FROM events WHERE ${scope} GROUP BY name, path`);
      const names = new Dictionary([...new Set(found.map((r) => r.name))].sort());
      const pages = new Dictionary([...new Set(found.map((r) => r.path))].sort());
      const pairs = new PairDictionary();
      const ids = found.map((r) => names.has(r.name) * pages.values.length + pages.has(r.path)).sort((a, b) => a - b);
      for (const id of ids) pairs.id(Math.floor(id / pages.values.length), id % pages.values.length);
      // ClickHouse numbers each row's pair from the dictionaries (transform: a hash table per statement).
      const numbered = (values: readonly string[]) =>
        `[${values.map(literal).join(", ")}], [${values.map((_, i) => i).join(", ")}], 0`;
      const pairOf =
        `transform(transform(name, ${numbered(names.values)}) * ${pages.values.length} + transform(path, ${numbered(pages.values)}), ` +
        `[${ids.join(", ")}], [${ids.map((_, i) => i).join(", ")}], 0)`;
      const writer = new TimelineWriter(n, t0, pairs.size, Number(counted[0]?.v ?? 0));
      for (const [lo, hi] of keySlices(Math.max(1, Math.ceil(n / o.sliceEvents)))) {
        const range = `${lo === null ? "" : ` AND k >= ${lo}`}${hi === null ? "" : ` AND k < ${hi}`}`;
        const query =
          `SELECT ${signedKey} AS k, toUInt8(intDiv(${tms} - ${t0}, ${T_HI})) AS hi, toUInt32(modulo(${tms} - ${t0}, ${T_HI})) AS lo, ` +
          `toUInt32(${pairOf}) AS pair FROM events WHERE ${scope}${range} ORDER BY k, ${tms} FORMAT RowBinary`;
        const { stream } = await deps.client.exec({
          query,
          clickhouse_settings: { ...deps.settings(), ...BIG_QUERY },
          abort_signal: stop.signal,
        });
        await readRowBinary(stream, writer);
      }
      const base = writer.finish();
      if (n <= o.postingsMaxEvents) base.postings = indexTimeline(base, pairs.size);
      return { base, names, pages, pairs, state: { boundary, at, mutation } };
    },

    /**
     * The events from the base's boundary on; null once the base no longer holds what it read.
     * Read again only when their count moved: rows leave `events` only by a mutation (which ends
     * the base), so with none since, the same count is the same rows.
     */
    async fresh(property, tl) {
      const { boundary, at, mutation } = tl.state;
      const day = new Date(boundary).toISOString().slice(0, 10);
      const recentScope = `property = ${literal(property)} AND ts >= toDateTime(${boundary / 1000}, 'UTC')`;
      const changed = await sql<{ n: number; m: number; c: number }>(
        `SELECT (SELECT count() FROM ${DONE_MARKS_TABLE} WHERE day < toDate('${day}') AND at > ${at}) AS n, (${MUTATION}) AS m, ` +
          `(SELECT count() FROM events WHERE ${recentScope}) AS c`,
      );
      if (Number(changed[0]?.n ?? 0) > 0 || Number(changed[0]?.m ?? 0) > mutation) return null;
      const cached = tl.state.fresh;
      if (cached !== undefined && cached.rows === Number(changed[0]?.c ?? -1)) return cached;
      const recent = await sql<{ k: string; t: number; name: string; path: string }>(
        `SELECT toString(${signedKey}) AS k, ${tms} AS t, name, path FROM events WHERE ${recentScope} ORDER BY ${signedKey}, t`,
      );
      const vkey = new BigInt64Array(recent.length);
      const t = new Float64Array(recent.length);
      const pair = new Int32Array(recent.length);
      recent.forEach((r, i) => {
        vkey[i] = BigInt(r.k);
        t[i] = Number(r.t);
        pair[i] = tl.pairs.id(tl.names.id(r.name), tl.pages.id(r.path));
      });
      tl.state.fresh = { timeline: encoded(vkey, t, pair), rows: recent.length };
      return tl.state.fresh;
    },

    async passing(text, pages) {
      const found = await sql<{ i: number }>(bindParams(timelinePagesSql(text, "clickhouse", pages)), BIG_QUERY);
      return found.map((r) => Number(r.i));
    },

    async clientIds(spec, property, ctx, keys) {
      const q: CompiledQuery = compileFunnelClientIds(spec, property, "clickhouse", ctx, keys);
      const found = await sql<{ cid: string }>(bindParams(q), BIG_QUERY);
      return [...new Set(found.map((r) => String(r.cid)).filter((c) => c !== ""))].sort();
    },
  };
  return new Timelines(source, opts);
}

/** A RowBinary stream of the base's rows into the writer, a batch of whole rows at a time. */
async function readRowBinary(stream: AsyncIterable<Buffer>, writer: TimelineWriter): Promise<void> {
  let rest: Buffer = Buffer.alloc(0);
  let keys = new BigInt64Array(0);
  let hi = new Uint8Array(0);
  let lo = new Uint32Array(0);
  let pair = new Uint32Array(0);
  for await (const chunk of stream) {
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    const n = Math.floor(buf.length / ROW);
    if (keys.length < n) {
      keys = new BigInt64Array(n);
      hi = new Uint8Array(n);
      lo = new Uint32Array(n);
      pair = new Uint32Array(n);
    }
    const keyBytes = new Uint8Array(keys.buffer);
    for (let i = 0; i < n; i++) {
      const o = i * ROW;
      keyBytes.set(buf.subarray(o, o + 8), i * 8);
      hi[i] = buf[o + 8] as number;
      lo[i] = buf.readUInt32LE(o + 9);
      pair[i] = buf.readUInt32LE(o + 13);
    }
    writer.rows(keys, hi, lo, pair, n);
    rest = buf.subarray(n * ROW);
  }
  if (rest.length > 0) throw new Error("the timeline's read ended within a row");
}
