// The DuckDB store's property keys: each property id maps to a small BIGINT (`property_keys`,
// `events.pkey`) that the rollups and day rollups are keyed on. This owns the in-memory copy of
// that table (loaded by migrate, extended by an append once it commits), the numbering of a
// property's first events, and the migration of files from before property keys.
import type { DuckDBConnection } from "@duckdb/node-api";
import type { EventRow } from "@lookout/schema";
import { rows } from "./duckdb-read.js";
import { transaction } from "./duckdb-rollup.js";

export class PropertyKeys {
  /** property -> its key in property_keys. */
  readonly #keys = new Map<string, bigint>();

  get(property: string): bigint | undefined {
    return this.#keys.get(property);
  }

  /** The properties that hold `pkey`. */
  *propertiesOf(pkey: bigint): IterableIterator<string> {
    for (const [property, k] of this.#keys) if (k === pkey) yield property;
  }

  /** Keys for the properties of `events` that have none yet, numbered on from the highest. */
  fresh(events: readonly EventRow[]): Map<string, bigint> {
    const fresh = new Map<string, bigint>();
    let next = [...this.#keys.values()].reduce((m, k) => (k > m ? k : m), 0n);
    for (const e of events) {
      const p = String(e.property ?? "");
      if (!this.#keys.has(p) && !fresh.has(p)) fresh.set(p, ++next);
    }
    return fresh;
  }

  /** Inserts `fresh` into property_keys, inside the caller's transaction on `c`. */
  static async insert(c: DuckDBConnection, fresh: ReadonlyMap<string, bigint>): Promise<void> {
    for (const [p, k] of fresh) {
      await c.run("INSERT INTO property_keys VALUES ($p, $k)", { p, k });
    }
  }

  /** Takes on keys once the transaction that inserted them has committed. */
  adopt(fresh: ReadonlyMap<string, bigint>): void {
    for (const [p, k] of fresh) this.#keys.set(p, k);
  }

  /** Replaces the in-memory copy with property_keys. */
  async load(c: DuckDBConnection): Promise<void> {
    this.#keys.clear();
    for (const r of await rows(c, "SELECT property, pkey::VARCHAR AS pkey FROM property_keys")) {
      this.#keys.set(String(r.property), BigInt(String(r.pkey)));
    }
  }
}

/** Files from before property keys: gives events their column and every property its key. */
export async function addPropertyKeys(c: DuckDBConnection): Promise<void> {
  const hasPkey = await rows(
    c,
    "SELECT 1 AS x FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = 'events' AND column_name = 'pkey'",
  );
  if (hasPkey.length > 0) return;
  await transaction(c, async () => {
    await c.run("ALTER TABLE events ADD COLUMN pkey BIGINT");
    await c.run(
      "INSERT INTO property_keys SELECT property, row_number() OVER (ORDER BY property) FROM (SELECT DISTINCT property FROM events) ON CONFLICT DO NOTHING",
    );
    await c.run("UPDATE events SET pkey = k.pkey FROM property_keys k WHERE k.property = events.property");
  });
}
