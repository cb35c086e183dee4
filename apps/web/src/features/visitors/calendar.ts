// The activity calendar's data: the last 12 months as days (oldest first, today last), each with
// its number of events from the profile's active_days (days without any are absent there), and
// the colour step of a day (0 = none, 1–4 by quartiles of the busy days, as GitHub's graph does).
export interface CalendarDay {
  date: string;
  events: number;
}

const pad = (n: number) => String(n).padStart(2, "0");
const isoDay = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** The 12 months up to `today` (YYYY-MM-DD): from the day after the same date a year ago. */
export function calendarRange(today: string): [string, string] {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  d.setUTCDate(d.getUTCDate() + 1);
  return [isoDay(d), today];
}

/** Thresholds of the steps 2, 3 and 4: the quartiles of the busy days' counts. */
export function stepThresholds(days: readonly CalendarDay[]): [number, number, number] {
  const counts = days
    .map((d) => d.events)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
  if (counts.length === 0) return [1, 1, 1];
  const q = (f: number) => counts[Math.min(counts.length - 1, Math.floor(f * counts.length))] ?? 1;
  return [q(0.25), q(0.5), q(0.75)];
}

/** The summary a screen reader hears instead of the drawing. */
export function calendarSummary(
  days: readonly CalendarDay[],
  [from, to]: [string, string],
): { active: number; busiest: CalendarDay | null } {
  let busiest: CalendarDay | null = null;
  let active = 0;
  for (const d of days) {
    if (d.date < from || d.date > to || d.events <= 0) continue;
    active++;
    if (!busiest || d.events > busiest.events) busiest = d;
  }
  return { active, busiest };
}

/** Today in the reader's calendar (the server's days are the property's; a day's skew is harmless here). */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
