// How a current property is chosen and stored (SPEC.md §3, §4): `{unique_id, website_url}` as JSON
// under `currentProperty`; an id missing from the list keeps an object holding only the id. Also how
// a URL names the site (`?property=<unique_id>`) and what a link to a site the list lacks does.
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

/** The URL parameter naming the site (`/dashboard?property=<unique_id>&…`, `/live?property=…`). */
export const PROPERTY_PARAM = "property";

/** The screens whose URL names the site they show. */
export const PROPERTY_ROUTES: readonly string[] = ["/dashboard", "/live"];

/** The property a URL names, or null; anything that cannot be a unique_id is ignored, not fetched. */
export function readLinkedProperty(p: URLSearchParams): string | null {
  const id = p.get(PROPERTY_PARAM);
  return id && /^[\w-]{1,128}$/.test(id) ? id : null;
}

/** `p` with the property parameter set to `id`, or removed for null; the other parameters kept. */
export function withLinkedProperty(p: URLSearchParams, id: string | null): URLSearchParams {
  const next = new URLSearchParams(p);
  if (id) next.set(PROPERTY_PARAM, id);
  else next.delete(PROPERTY_PARAM);
  return next;
}

export type ListStatus = "loading" | "ready" | "failed";

/**
 * What to do with a property a link names that is not the current one: take it when the user's list
 * holds it; wait while the list loads; say so when the loaded list does not (another account's site,
 * or a deleted one) rather than store a foreign id. When the list could not load, SPEC.md §4's rule
 * stands (an object holding only the id) and the dashboard's own answer (404) tells the rest.
 */
export type LinkStep = { kind: "wait" } | { kind: "select"; property: CurrentProperty } | { kind: "unknown"; id: string };

export function resolveLinkedProperty(id: string, list: readonly Property[], status: ListStatus): LinkStep {
  if (list.some((p) => p.unique_id === id)) return { kind: "select", property: pickProperty(list, id) };
  if (status === "loading") return { kind: "wait" };
  if (status === "failed") return { kind: "select", property: pickProperty(list, id) };
  return { kind: "unknown", id };
}
