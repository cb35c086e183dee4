// How a current property is chosen and stored (SPEC.md §3, §4): `{unique_id, website_url}` as JSON
// under `currentProperty`; an id missing from the list keeps an object holding only the id.
import { type CurrentProperty, CurrentPropertySchema, type Property } from "@lookout/schema";

export function pickProperty(list: readonly Property[], id: string): CurrentProperty {
  const found = list.find((p) => p.unique_id === id);
  return found ? { unique_id: found.unique_id, website_url: found.website_url } : { unique_id: id };
}

/** The stored selection, or null when there is none or it is not ours to read. */
export function parseStoredProperty(raw: string | null): CurrentProperty | null {
  if (raw === null) return null;
  try {
    const parsed = CurrentPropertySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function serializeProperty(p: CurrentProperty): string {
  return JSON.stringify(p);
}
