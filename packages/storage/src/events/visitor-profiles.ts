// Visitor profiles (identify calls) as the store writes them: several profiles of one visitor in a
// batch fold into one, since a single upsert may not touch the same row twice.
import type { VisitorProfile } from "@lookout/schema";

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
