// Visitor profiles (identify calls) as the store writes them: several profiles of one visitor in a
// batch fold into one, since a single upsert may not touch the same row twice, then one upsert
// each (the EventStore contract's merge rules).
import { type DuckDBConnection, MAP, TIMESTAMP, VARCHAR } from "@duckdb/node-api";
import type { VisitorProfile } from "@lookout/schema";
import { stringMap, timestampValue } from "./duckdb-append.js";

const UPSERT =
  "INSERT INTO visitors VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (property, client_id) DO UPDATE SET " +
  "email = CASE WHEN excluded.email <> '' THEN excluded.email ELSE visitors.email END, " +
  "name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE visitors.name END, " +
  "traits = map_concat(visitors.traits, excluded.traits), " +
  "first_seen = least(visitors.first_seen, excluded.first_seen), last_seen = greatest(visitors.last_seen, excluded.last_seen)";
const UPSERT_TYPES = [VARCHAR, VARCHAR, VARCHAR, VARCHAR, MAP(VARCHAR, VARCHAR), TIMESTAMP, TIMESTAMP];

/** Upserts `profiles` on `c`, inside the caller's transaction. */
export async function upsertProfiles(c: DuckDBConnection, profiles: readonly VisitorProfile[]): Promise<void> {
  for (const p of mergeProfiles(profiles)) {
    const values = [
      p.property,
      p.client_id,
      p.email,
      p.name,
      stringMap(p.traits),
      timestampValue(p.first_seen),
      timestampValue(p.last_seen),
    ];
    await c.run(UPSERT, values, UPSERT_TYPES);
  }
}

/** Folds several profiles of one visitor in a batch into one, in order (ON CONFLICT may not touch a row twice). */
export function mergeProfiles(profiles: readonly VisitorProfile[]): VisitorProfile[] {
  const byKey = new Map<string, VisitorProfile>();
  for (const p of profiles) {
    const key = JSON.stringify([p.property, p.client_id]);
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, { ...p, traits: { ...p.traits } });
      continue;
    }
    byKey.set(key, {
      ...prev,
      email: p.email || prev.email,
      name: p.name || prev.name,
      traits: { ...prev.traits, ...p.traits },
      first_seen: p.first_seen < prev.first_seen ? p.first_seen : prev.first_seen,
      last_seen: p.last_seen > prev.last_seen ? p.last_seen : prev.last_seen,
    });
  }
  return [...byKey.values()];
}
