// The insight editor's specs (InsightPage.tsx): whether a value names a kind, the spec carried in
// the URL's `?q=`, specs compared by content, as the unsaved-changes check needs, and a spec moved
// to another date range.
import { INSIGHT_KINDS, type InsightKind, type InsightSpec, type InsightSpecInput } from "@lookout/schema";

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

/** The spec with another date range; all_time has no earlier period, so a trends comparison goes. */
export function withPeriod(spec: InsightSpecInput, period: InsightSpec["period"]): InsightSpecInput {
  if (period !== "all_time" || spec.kind !== "trends" || spec.comparison === undefined) return { ...spec, period };
  const { comparison: _dropped, ...rest } = spec;
  return { ...rest, period };
}
