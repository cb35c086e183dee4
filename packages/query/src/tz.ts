// Wall-clock arithmetic in an IANA timezone using only Intl (the runtime's tz database): the UTC
// offset at an instant, local wall time <-> instant (DST gaps and overlaps resolved the way
// calendars do), and the list of offset changes inside a span, which the SQL printers turn into
// a CASE so that the engines never call a per-row timezone function (DuckDB's ICU conversion costs
// ~200 ns a row; a CASE over 1-3 constants is ~20x cheaper).

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A local calendar day: month 1-12. */
export interface Day {
  y: number;
  m: number;
  d: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Local wall time of an instant from Intl itself (dozens of microseconds a call). */
export function intlWallMs(tz: string, instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(instantMs))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const whole = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return whole + (((instantMs % 1000) + 1000) % 1000);
}

const HOUR = 60 * MINUTE;
/** Per timezone: the offset (wall minus instant, ms) at the start of each UTC hour asked about. */
const hourOffsets = new Map<string, Map<number, number>>();
function offsetAtHour(tz: string, hour: number): number {
  let byHour = hourOffsets.get(tz);
  if (!byHour) {
    byHour = new Map();
    hourOffsets.set(tz, byHour);
  }
  let off = byHour.get(hour);
  if (off === undefined) {
    if (byHour.size >= 100_000) byHour.clear();
    off = intlWallMs(tz, hour * HOUR) - hour * HOUR;
    byHour.set(hour, off);
  }
  return off;
}

/**
 * Local wall time of an instant, as a "naive" epoch-ms (the wall time read as if it were UTC).
 * Callers ask for thousands of instants (a funnel's outcomes, a chart's buckets): the offset is
 * read once per UTC hour and reused for every instant of that hour when the offset at the hour's
 * start and at its end agree (an offset never changes twice within an hour); the hour of a change
 * asks Intl for each instant.
 */
export function wallMs(tz: string, instantMs: number): number {
  const hour = Math.floor(instantMs / HOUR);
  const off = offsetAtHour(tz, hour);
  return off === offsetAtHour(tz, hour + 1) ? instantMs + off : intlWallMs(tz, instantMs);
}

/** Local minus UTC, in whole minutes (historic LMT offsets with seconds are rounded). */
export function offsetMinutes(tz: string, instantMs: number): number {
  return Math.round((wallMs(tz, instantMs) - instantMs) / MINUTE);
}

/**
 * The instant at which the local wall clock reads `naiveMs`. In a DST overlap the earlier instant
 * wins; in a gap (a wall time that never happens) the clock is read with the offset from before
 * the change, which lands just as far past the jump (02:30 on a spring-forward day -> 03:30).
 */
export function instantOfWall(tz: string, naiveMs: number): number {
  const before = naiveMs - offsetMinutes(tz, naiveMs - DAY) * MINUTE;
  const after = naiveMs - offsetMinutes(tz, naiveMs + DAY) * MINUTE;
  const valid = (t: number) => wallMs(tz, t) === naiveMs;
  const vb = valid(before);
  const va = valid(after);
  if (vb && va) return Math.min(before, after);
  if (vb) return before;
  if (va) return after;
  return before;
}

export function dayOfNaive(naiveMs: number): Day {
  const t = new Date(naiveMs);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export function naiveOfDay(day: Day): number {
  return Date.UTC(day.y, day.m - 1, day.d);
}

/** The local calendar day an instant falls on. */
export function localDay(tz: string, instantMs: number): Day {
  return dayOfNaive(wallMs(tz, instantMs));
}

/**
 * Memoised pure functions of the tz database: every compile asks for the same few local
 * midnights and offset spans, and each costs dozens of Intl calls (~0.25 ms a range).
 */
function memo<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    if (cache.size >= 4096) cache.clear();
    v = compute();
    cache.set(key, v);
  }
  return v;
}
const dayStarts = new Map<string, number>();
const segmentCache = new Map<string, OffsetSegment[]>();

/** The instant the local day starts (usually midnight; later where midnight falls in a DST gap). */
export function startOfDay(tz: string, day: Day): number {
  return memo(dayStarts, `${tz}\u0000${day.y}-${day.m}-${day.d}`, () => instantOfWall(tz, naiveOfDay(day)));
}

export function addDays(day: Day, n: number): Day {
  return dayOfNaive(naiveOfDay(day) + n * DAY);
}

/** Adds calendar months, clamping the day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: Day, n: number): Day {
  const months = day.y * 12 + (day.m - 1) + n;
  const y = Math.floor(months / 12);
  const m = (months % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { y, m, d: Math.min(day.d, last) };
}

export function daysBetween(a: Day, b: Day): number {
  return Math.round((naiveOfDay(b) - naiveOfDay(a)) / DAY);
}

export function formatDay(day: Day): string {
  return `${String(day.y).padStart(4, "0")}-${String(day.m).padStart(2, "0")}-${String(day.d).padStart(2, "0")}`;
}

export function parseDay(s: string): Day {
  const [y, m, d] = s.split("-").map(Number) as [number, number, number];
  return { y, m, d };
}

/** A span of constant offset: applies to instants before `untilMs` (the last one: to all later). */
export interface OffsetSegment {
  offsetMinutes: number;
  untilMs: number | null;
}

/**
 * The offsets in force over [fromMs, toMs). Sampled weekly and refined by bisection to the minute:
 * real zones never change offset twice within a week.
 */
export function offsetSegments(tz: string, fromMs: number, toMs: number): OffsetSegment[] {
  return memo(segmentCache, `${tz}\u0000${fromMs}\u0000${toMs}`, () => computeSegments(tz, fromMs, toMs)).map((x) => ({ ...x }));
}

function computeSegments(tz: string, fromMs: number, toMs: number): OffsetSegment[] {
  const step = 7 * DAY;
  const segments: OffsetSegment[] = [];
  let cur = offsetMinutes(tz, fromMs);
  let t = fromMs;
  while (t < toMs) {
    const next = Math.min(t + step, toMs);
    const o = offsetMinutes(tz, next);
    if (o !== cur) {
      let lo = t;
      let hi = next;
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE || lo + MINUTE;
        if (offsetMinutes(tz, mid) === cur) lo = mid;
        else hi = mid;
      }
      // Offsets change on whole minutes even when the sampling grid is not aligned to them.
      const aligned = Math.floor(hi / MINUTE) * MINUTE;
      if (aligned > lo && offsetMinutes(tz, aligned) !== cur) hi = aligned;
      segments.push({ offsetMinutes: cur, untilMs: hi });
      cur = offsetMinutes(tz, hi);
      t = hi;
      continue;
    }
    t = next;
  }
  segments.push({ offsetMinutes: cur, untilMs: null });
  return segments;
}

/** "YYYY-MM-DD HH:MM:SS" of an epoch-ms read as UTC (the parameter format both engines parse). */
export function formatTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace("T", " ");
}
