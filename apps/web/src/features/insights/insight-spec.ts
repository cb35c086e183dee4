// The insight editor's specs (InsightPage.tsx): whether a value names a kind, the spec carried in
// the URL's `?q=`, and specs compared by content, as the unsaved-changes check needs.
import { INSIGHT_KINDS, type InsightKind, type InsightSpecInput } from "@lookout/schema";

export const isKind = (k: unknown): k is InsightKind => (INSIGHT_KINDS as readonly unknown[]).includes(k);

/** Specs compared by content (key order aside). */
export const sameSpec = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}

/** The spec in `?q=`, when it reads as JSON of a known kind; validity is judged where it is run. */
export function specFromUrl(q: string | null): InsightSpecInput | null {
  if (!q) return null;
  try {
    const v = JSON.parse(q) as unknown;
    return typeof v === "object" && v !== null && isKind((v as { kind?: unknown }).kind) ? (v as InsightSpecInput) : null;
  } catch {
    return null;
  }
}
