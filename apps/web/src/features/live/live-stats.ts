// What the Live View derives from the socket's visitor list, all client-side and pure: the
// property's visitors, who is on which page, where they came from, which countries, and the
// per-minute series of the last 30 minutes (from arrivedAt and the time each one left).
import type { LiveEntry } from "./live-store";

export const CHART_MINUTES = 30;
const MINUTE = 60_000;

export interface Ranked {
  label: string;
  visitors: number;
}

export interface MinuteBucket {
  /** Start of the minute, epoch ms. */
  start: number;
  /** Visitors who arrived in this minute. */
  arrivals: number;
  /** Visitors on the site at some time in this minute. */
  active: number;
}

export function ofProperty(entries: readonly LiveEntry[], propertyId: string): LiveEntry[] {
  return entries.filter((e) => e.propertyId === propertyId);
}

/** One entry per clientid, the most recently arrived one winning (the list may repeat a clientid). */
export function distinctVisitors(entries: readonly LiveEntry[]): LiveEntry[] {
  const byId = new Map<string, LiveEntry>();
  for (const e of entries) {
    const seen = byId.get(e.clientid);
    if (!seen || (e.active && !seen.active) || (e.active === seen.active && e.arrivedAt > seen.arrivedAt))
      byId.set(e.clientid, e);
  }
  return [...byId.values()];
}

/** Active visitors, newest arrival first. */
export function activeVisitors(entries: readonly LiveEntry[]): LiveEntry[] {
  return distinctVisitors(entries)
    .filter((e) => e.active)
    .sort((a, b) => b.arrivedAt - a.arrivedAt);
}

/** Inactive visitors who left within `withinMs`, most recently gone first (and not back since). */
export function recentlyLeft(entries: readonly LiveEntry[], now: number, withinMs = CHART_MINUTES * MINUTE): LiveEntry[] {
  return distinctVisitors(entries)
    .filter((e) => !e.active && now - (e.leftAt ?? e.lastSeen) <= withinMs)
    .sort((a, b) => (b.leftAt ?? b.lastSeen) - (a.leftAt ?? a.lastSeen));
}

/** Active visitors without a country: on screen, but not in SPEC.md §5's count. */
export function uncountedActive(entries: readonly LiveEntry[]): number {
  return activeVisitors(entries).filter((e) => !e.country).length;
}

/**
 * The line beside the live count that explains who it leaves out (SPEC.md §5 counts only visitors
 * with a known country), or null when it leaves out nobody.
 */
export function uncountedNote(uncounted: number): string | null {
  if (uncounted <= 0) return null;
  return `+ ${uncounted} live ${uncounted === 1 ? "visitor" : "visitors"} whose country is unknown, not in this count`;
}

/** Distinct active visitors per value of `key`, most first, ties by label. */
export function rankActive(entries: readonly LiveEntry[], key: (e: LiveEntry) => string, limit = 10): Ranked[] {
  const counts = new Map<string, number>();
  for (const e of activeVisitors(entries)) {
    const label = key(e);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts]
    .map(([label, visitors]) => ({ label, visitors }))
    .sort((a, b) => b.visitors - a.visitors || a.label.localeCompare(b.label))
    .slice(0, limit);
}

export const topPages = (entries: readonly LiveEntry[], limit = 10) => rankActive(entries, (e) => e.page || "/", limit);
export const topSources = (entries: readonly LiveEntry[], limit = 10) =>
  rankActive(entries, (e) => e.source || "Direct / None", limit);
/** Countries of active visitors (ISO 3166-1 alpha-2); visitors without one are left out, as in the count. */
export const topCountries = (entries: readonly LiveEntry[], limit = 300) =>
  rankActive(
    entries.filter((e) => e.country),
    (e) => e.country ?? "",
    limit,
  );

/**
 * The last `minutes` whole minutes up to and including the current one. A visitor is on the site
 * from arrivedAt until they left (leftAt, or lastSeen when that is unknown), or until now while
 * active. Only what this browser has heard of counts: a visitor who came and went before the page
 * opened is not in the socket's list.
 */
export function perMinute(entries: readonly LiveEntry[], now: number, minutes = CHART_MINUTES): MinuteBucket[] {
  const current = Math.floor(now / MINUTE) * MINUTE;
  const first = current - (minutes - 1) * MINUTE;
  const buckets: MinuteBucket[] = Array.from({ length: minutes }, (_, i) => ({
    start: first + i * MINUTE,
    arrivals: 0,
    active: 0,
  }));
  const arrived = buckets.map(() => new Set<string>());
  const present = buckets.map(() => new Set<string>());
  for (const e of entries) {
    const from = Math.min(e.arrivedAt, now);
    const until = e.active ? now : Math.min(now, Math.max(from, e.leftAt ?? e.lastSeen));
    const a = Math.floor((from - first) / MINUTE);
    if (a >= 0 && a < minutes) arrived[a]!.add(e.clientid);
    const lo = Math.max(0, a);
    const hi = Math.min(minutes - 1, Math.floor((until - first) / MINUTE));
    for (let i = lo; i <= hi; i++) present[i]!.add(e.clientid);
  }
  buckets.forEach((b, i) => {
    b.arrivals = arrived[i]!.size;
    b.active = present[i]!.size;
  });
  return buckets;
}

/** "45s", "3m 05s", "1h 02m". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

/** "just now", "2 min ago", "1 h ago". */
export function formatAgo(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 45) return "just now";
  const m = Math.max(1, Math.round(s / 60));
  if (m < 60) return `${m} min ago`;
  return `${Math.floor(m / 60)} h ago`;
}

/** "Desktop · Chrome · Linux", skipping what is unknown. */
export function describeDevice(e: Pick<LiveEntry, "device" | "browser" | "os">): string {
  const device = e.device ? e.device.charAt(0).toUpperCase() + e.device.slice(1) : "";
  return [device, e.browser, e.os].filter((s) => s && s.toLowerCase() !== "unknown").join(" · ") || "Unknown device";
}
