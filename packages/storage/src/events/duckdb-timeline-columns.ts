// The DuckDB store's visitor timelines in columns (duckdb-timelines.ts uses them): the names' and
// pages' dictionaries, rows sorted by visitor key and time grouped into a Timeline, the fresh rows
// (those of batches after the base's) merged run by run, and DuckDB's vectors copied into typed
// arrays. No I/O here.
import type { Timeline } from "@lookout/query";

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

/** Rows of batches after the base's, by visitor key then time, up to batch `through`. */
export interface Fresh {
  through: bigint;
  vkey: BigInt64Array;
  t: Float64Array;
  name: Int32Array;
  page: Int32Array;
  timeline: Timeline;
}

export const emptyFresh = (through: bigint): Fresh => {
  const [vkey, t, name, page] = [new BigInt64Array(0), new Float64Array(0), new Int32Array(0), new Int32Array(0)];
  return { through, vkey, t, name, page, timeline: grouped(vkey, t, name, page) };
};

/** Two runs of rows, each by key then time, as one (ties: `a`'s first). */
export function mergeRuns(
  a: Pick<Fresh, "vkey" | "t" | "name" | "page">,
  b: { vkey: bigint[]; t: number[]; name: number[]; page: number[] },
): Pick<Fresh, "vkey" | "t" | "name" | "page"> {
  const n = a.vkey.length + b.vkey.length;
  const out = { vkey: new BigInt64Array(n), t: new Float64Array(n), name: new Int32Array(n), page: new Int32Array(n) };
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
      out.name[k] = a.name[i] as number;
      out.page[k] = a.page[i] as number;
      i++;
    } else {
      out.vkey[k] = b.vkey[j] as bigint;
      out.t[k] = b.t[j] as number;
      out.name[k] = b.name[j] as number;
      out.page[k] = b.page[j] as number;
      j++;
    }
  }
  return out;
}

/** Rows sorted by visitor key then time -> a Timeline (one entry per visitor). */
export function grouped(vkey: BigInt64Array, t: Float64Array, name: Int32Array, page: Int32Array): Timeline {
  const n = vkey.length;
  // Compared as two 32-bit halves: reading a BigInt64Array makes a BigInt per element.
  const halves = new Int32Array(vkey.buffer, vkey.byteOffset, 2 * n);
  let visitors = 0;
  for (let i = 0; i < n; i++)
    if (i === 0 || halves[2 * i] !== halves[2 * i - 2] || halves[2 * i + 1] !== halves[2 * i - 1]) visitors++;
  const keys = new BigInt64Array(visitors);
  const starts = new Int32Array(visitors + 1);
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (i === 0 || halves[2 * i] !== halves[2 * i - 2] || halves[2 * i + 1] !== halves[2 * i - 1]) {
      keys[v] = vkey[i] as bigint;
      starts[v] = i;
      v++;
    }
  }
  starts[visitors] = n;
  return { keys, starts, t, name, page };
}

/**
 * A chunk's column into `into` at `at`: DuckDB's vectors hold their values in a typed array of the
 * column's type (not in their public typings); any other shape is read value by value.
 */
export function columnInto<A extends BigInt64Array | Float64Array | Int32Array>(
  vector: { getItem(i: number): unknown },
  into: A,
  at: number,
  rows: number,
): void {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof into.constructor && (items as A).length >= rows) {
    into.set((items as A).subarray(0, rows) as never, at);
    return;
  }
  for (let i = 0; i < rows; i++) (into as unknown as unknown[])[at + i] = vector.getItem(i) as never;
}
