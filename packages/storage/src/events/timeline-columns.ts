// Visitor timelines in columns (timelines.ts and its sources use them; @lookout/query timeline.ts
// states the layout): the names', pages' and pairs' dictionaries, the base written
// chunk by chunk straight into its compact columns (no array of a row's width is ever held for
// every event: at 100M events that would be gigabytes), the fresh rows (those of batches after the
// base's) merged run by run and encoded, DuckDB's vectors copied into typed arrays, and the visitor
// keys' range cut into slices. No I/O here.
import { T_HI, TIMELINE_MAX_SPAN_MS, type Timeline, type TimelinePairs } from "@lookout/query";

/** A distinct-value dictionary that grows with the fresh rows' new values. */
export class Dictionary {
  readonly values: string[] = [];
  readonly #ids = new Map<string, number>();
  constructor(values: readonly string[]) {
    for (const v of values) this.id(v);
  }
  id(v: string): number {
    let id = this.#ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.#ids.set(v, id);
    }
    return id;
  }
  has(v: string): number {
    return this.#ids.get(v) ?? -1;
  }
}

/** The (name, page) pairs' dictionary (name and page as indices into their dictionaries); grows with the fresh rows. */
export class PairDictionary {
  readonly #name: number[] = [];
  readonly #page: number[] = [];
  readonly #ids = new Map<number, Map<number, number>>();
  get size(): number {
    return this.#name.length;
  }
  id(name: number, page: number): number {
    let pages = this.#ids.get(name);
    if (pages === undefined) {
      pages = new Map();
      this.#ids.set(name, pages);
    }
    let id = pages.get(page);
    if (id === undefined) {
      id = this.#name.length;
      this.#name.push(name);
      this.#page.push(page);
      pages.set(page, id);
    }
    return id;
  }
  /** The pairs so far, as a query reads them. */
  snapshot(): TimelinePairs {
    return { name: Int32Array.from(this.#name), page: Int32Array.from(this.#page) };
  }
}

/** A timeline's instants span more than its layout holds: SQL answers (duckdb-timelines.ts orSql). */
export class TimelineSpanError extends Error {
  readonly code = "timeline_span";
  constructor() {
    super("the events' instants span more than a timeline holds");
  }
}

/**
 * The base, written as DuckDB streams it (rows by visitor key then time, in chunks): each chunk's
 * columns copied into the compact ones, and a visitor started wherever the key changes.
 */
export class TimelineWriter {
  readonly #tLo: Uint32Array;
  readonly #tHi: Uint8Array;
  readonly #pair: Uint16Array | Int32Array;
  #keys: BigInt64Array;
  #starts: Int32Array;
  #scratch = new BigInt64Array(2048);
  #visitors = 0;
  #at = 0;
  #lastHi = 0;
  #lastLo = 0;

  /** `visitors`: how many there are (the lists grow by a quarter past it). */
  constructor(
    readonly events: number,
    readonly t0: number,
    pairs: number,
    visitors = 1024,
  ) {
    const room = Math.max(1024, visitors);
    this.#keys = new BigInt64Array(room);
    this.#starts = new Int32Array(room + 1);
    this.#tLo = new Uint32Array(events);
    this.#tHi = new Uint8Array(events);
    this.#pair = pairs <= 65_536 ? new Uint16Array(events) : new Int32Array(events);
  }

  /** Whether the pairs are read as USMALLINT (else INTEGER). */
  get narrowPairs(): boolean {
    return this.#pair instanceof Uint16Array;
  }

  /** A chunk of DuckDB's vectors: visitor keys, the instants' high and low parts (from t0), pair ids. */
  chunk(
    vkey: { getItem(i: number): unknown },
    hi: { getItem(i: number): unknown },
    lo: { getItem(i: number): unknown },
    pair: { getItem(i: number): unknown },
    rows: number,
  ): void {
    const at = this.#at;
    if (at + rows > this.events) throw new Error("the events changed during the timeline's read");
    columnInto(hi, this.#tHi, at, rows);
    columnInto(lo, this.#tLo, at, rows);
    columnInto(pair, this.#pair, at, rows);
    if (this.#scratch.length < rows) this.#scratch = new BigInt64Array(rows);
    columnInto(vkey, this.#scratch, 0, rows);
    this.#visitorsOf(this.#scratch, rows);
  }

  /** Rows as typed arrays (the first `rows` of each): visitor keys, the instants' high and low parts, pair ids. */
  rows(keys: BigInt64Array, hi: Uint8Array, lo: Uint32Array, pair: Uint32Array, rows: number): void {
    const at = this.#at;
    if (at + rows > this.events) throw new Error("the events changed during the timeline's read");
    this.#tHi.set(hi.subarray(0, rows), at);
    this.#tLo.set(lo.subarray(0, rows), at);
    this.#pair.set(pair.subarray(0, rows), at);
    this.#visitorsOf(keys, rows);
  }

  /** The rows' visitor keys (their columns written at #at): a visitor starts wherever the key changes. */
  #visitorsOf(keys: BigInt64Array, rows: number): void {
    const at = this.#at;
    // Compared as two 32-bit halves: reading a BigInt64Array makes a BigInt per element.
    const halves = new Int32Array(keys.buffer, keys.byteOffset, 2 * rows);
    for (let i = 0; i < rows; i++) {
      const h = halves[2 * i] as number;
      const l = halves[2 * i + 1] as number;
      if (this.#visitors > 0 && h === this.#lastHi && l === this.#lastLo) continue;
      this.#lastHi = h;
      this.#lastLo = l;
      if (this.#visitors === this.#keys.length) {
        const size = Math.ceil(1.25 * this.#keys.length);
        const k = new BigInt64Array(size);
        k.set(this.#keys);
        this.#keys = k;
        const s = new Int32Array(size + 1);
        s.set(this.#starts);
        this.#starts = s;
      }
      this.#keys[this.#visitors] = keys[i] as bigint;
      this.#starts[this.#visitors] = at + i;
      this.#visitors++;
    }
    this.#at = at + rows;
  }

  finish(): Timeline {
    if (this.#at !== this.events) throw new Error("the events changed during the timeline's read");
    // Views, not copies: at 15M visitors a copy would briefly hold both.
    const keys = this.#keys.subarray(0, this.#visitors);
    const starts = this.#starts.subarray(0, this.#visitors + 1);
    starts[this.#visitors] = this.events;
    return { keys, starts, t0: this.t0, tLo: this.#tLo, tHi: this.#tHi, pair: this.#pair };
  }
}

/** Rows of batches after the base's, by visitor key then time, up to batch `through`. */
export interface Fresh {
  through: bigint;
  vkey: BigInt64Array;
  t: Float64Array;
  pair: Int32Array;
  timeline: Timeline;
}

export const emptyFresh = (through: bigint): Fresh => {
  const [vkey, t, pair] = [new BigInt64Array(0), new Float64Array(0), new Int32Array(0)];
  return { through, vkey, t, pair, timeline: encoded(vkey, t, pair) };
};

/** Two runs of rows, each by key then time, as one (ties: `a`'s first). */
export function mergeRuns(
  a: Pick<Fresh, "vkey" | "t" | "pair">,
  b: { vkey: bigint[]; t: number[]; pair: number[] },
): Pick<Fresh, "vkey" | "t" | "pair"> {
  const n = a.vkey.length + b.vkey.length;
  const out = { vkey: new BigInt64Array(n), t: new Float64Array(n), pair: new Int32Array(n) };
  let i = 0;
  let j = 0;
  for (let k = 0; k < n; k++) {
    const takeA =
      j >= b.vkey.length ||
      (i < a.vkey.length &&
        ((a.vkey[i] as bigint) < (b.vkey[j] as bigint) ||
          ((a.vkey[i] as bigint) === (b.vkey[j] as bigint) && (a.t[i] as number) <= (b.t[j] as number))));
    if (takeA) {
      out.vkey[k] = a.vkey[i] as bigint;
      out.t[k] = a.t[i] as number;
      out.pair[k] = a.pair[i] as number;
      i++;
    } else {
      out.vkey[k] = b.vkey[j] as bigint;
      out.t[k] = b.t[j] as number;
      out.pair[k] = b.pair[j] as number;
      j++;
    }
  }
  return out;
}

/** Rows sorted by visitor key then time -> a Timeline (one entry per visitor, instants encoded from their minimum). */
export function encoded(vkey: BigInt64Array, t: Float64Array, pair: Int32Array): Timeline {
  const n = vkey.length;
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const at = t[i] as number;
    if (at < t0) t0 = at;
    if (at > t1) t1 = at;
  }
  if (n === 0) t0 = t1 = 0;
  if (t1 - t0 >= TIMELINE_MAX_SPAN_MS) throw new TimelineSpanError();
  const tLo = new Uint32Array(n);
  const tHi = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = (t[i] as number) - t0;
    const h = Math.floor(d / T_HI);
    tHi[i] = h;
    tLo[i] = d - h * T_HI;
  }
  // Compared as two 32-bit halves: reading a BigInt64Array makes a BigInt per element.
  const halves = new Int32Array(vkey.buffer, vkey.byteOffset, 2 * n);
  const isNew = (i: number) => i === 0 || halves[2 * i] !== halves[2 * i - 2] || halves[2 * i + 1] !== halves[2 * i - 1];
  let visitors = 0;
  for (let i = 0; i < n; i++) if (isNew(i)) visitors++;
  const keys = new BigInt64Array(visitors);
  const starts = new Int32Array(visitors + 1);
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (isNew(i)) {
      keys[v] = vkey[i] as bigint;
      starts[v] = i;
      v++;
    }
  }
  starts[visitors] = n;
  return { keys, starts, t0, tLo, tHi, pair };
}

type Typed = BigInt64Array | Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * A chunk's column into `into` at `at`: DuckDB's vectors hold their values in a typed array of the
 * column's type (not in their public typings); any other shape is read value by value.
 */
export function columnInto<A extends Typed>(vector: { getItem(i: number): unknown }, into: A, at: number, rows: number): void {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof into.constructor && (items as A).length >= rows) {
    into.set((items as A).subarray(0, rows) as never, at);
    return;
  }
  for (let i = 0; i < rows; i++) (into as unknown as unknown[])[at + i] = vector.getItem(i) as never;
}

/** The visitor keys' (signed 64-bit) range cut into `n` slices in ascending order, as [from, to) bounds (null: open). */
export function keySlices(n: number): [bigint | null, bigint | null][] {
  if (n <= 1) return [[null, null]];
  const step = 2n ** 64n / BigInt(n);
  const bound = (i: number) => -(2n ** 63n) + step * BigInt(i);
  return Array.from({ length: n }, (_, i) => [i === 0 ? null : bound(i), i === n - 1 ? null : bound(i + 1)]);
}
