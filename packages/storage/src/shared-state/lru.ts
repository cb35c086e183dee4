// A size-bounded least-recently-used map. Ingest and the in-process shared state (visits,
// throttles, buckets) keep per-visitor and per-key state in memory; this bound is what keeps that
// state inside the server's memory budget. Live presence uses it too, for its recency order (a
// sweep walks from the least recently seen).
//
// Recency is a doubly linked list through the entries rather than the Map's insertion order: a
// hit then moves two pointers, where deleting and re-inserting the key made V8 rehash the table
// every few hits (tiny maps even shrank and regrew on each one), a cost every event paid several
// times over.
//
// Kept rather than lru-cache (which the server's other caches use): on a hit, the common case on
// the ingest path, this map did 15% or more get/set per second at the 5 000-200 000 entries used
// here; under heavy eviction the two were level.

interface Node<K, V> {
  key: K;
  value: V;
  older: Node<K, V> | null;
  newer: Node<K, V> | null;
}

export class LruMap<K, V> {
  readonly #map = new Map<K, Node<K, V>>();
  #oldest: Node<K, V> | null = null;
  #newest: Node<K, V> | null = null;

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K): V | undefined {
    const node = this.#map.get(key);
    if (node === undefined) return undefined;
    this.#touch(node);
    return node.value;
  }

  /** The value without marking it used. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  /** The least recently used value. */
  oldest(): V | undefined {
    return this.#oldest?.value;
  }

  /** The values from least to most recently used. */
  *values(): IterableIterator<V> {
    for (let node = this.#oldest; node; node = node.newer) yield node.value;
  }

  set(key: K, value: V): void {
    const known = this.#map.get(key);
    if (known !== undefined) {
      known.value = value;
      this.#touch(known);
      return;
    }
    const node: Node<K, V> = { key, value, older: this.#newest, newer: null };
    if (this.#newest) this.#newest.newer = node;
    else this.#oldest = node;
    this.#newest = node;
    this.#map.set(key, node);
    if (this.#map.size > this.maxEntries && this.#oldest) this.delete(this.#oldest.key);
  }

  delete(key: K): boolean {
    const node = this.#map.get(key);
    if (node === undefined) return false;
    this.#unlink(node);
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
    this.#oldest = this.#newest = null;
  }

  /** Makes `node` the most recently used. */
  #touch(node: Node<K, V>): void {
    if (node === this.#newest) return;
    this.#unlink(node);
    node.older = this.#newest;
    node.newer = null;
    if (this.#newest) this.#newest.newer = node;
    else this.#oldest = node;
    this.#newest = node;
  }

  #unlink(node: Node<K, V>): void {
    if (node.older) node.older.newer = node.newer;
    else this.#oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.#newest = node.older;
    node.older = node.newer = null;
  }
}
