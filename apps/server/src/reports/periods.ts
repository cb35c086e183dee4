// When reports go out and what they cover, in the property's timezone (DST-correct through
// luxon): weekly on Monday at the send hour covering the previous Monday–Sunday, monthly on the
// 1st at the send hour covering the previous calendar month. Pure functions of (now, zone, hour).
import type { ReportFrequency } from "@lookout/schema";
import { DateTime } from "luxon";

export interface ReportPeriod {
  /** "2026-W47" (the ISO week of its Monday) or "2026-11". */
  id: string;
  /** First and last day covered, YYYY-MM-DD in the property's timezone. */
  from: string;
  to: string;
  /** When its report goes out. */
  dueAt: Date;
}

const day = (d: DateTime) => d.toFormat("yyyy-MM-dd");

/** The occurrence (Monday or the 1st at `hour`) whose start of unit is `start`, and the period before it. */
function occurrence(frequency: ReportFrequency, start: DateTime, hour: number): ReportPeriod {
  const unit = frequency === "weekly" ? "week" : "month";
  const covered = start.minus({ [`${unit}s`]: 1 });
  return {
    id: frequency === "weekly" ? covered.toFormat("kkkk-'W'WW") : covered.toFormat("yyyy-MM"),
    from: day(covered),
    to: day(start.minus({ days: 1 })),
    dueAt: start.set({ hour }).toJSDate(),
  };
}

function local(now: Date, zone: string): DateTime {
  const d = DateTime.fromJSDate(now, { zone });
  if (!d.isValid) throw new RangeError(`invalid timezone ${zone}`);
  return d;
}

/** The latest occurrence due at or before `now` (the one a scheduler should have sent). */
export function currentDue(frequency: ReportFrequency, now: Date, zone: string, hour: number): ReportPeriod {
  const unit = frequency === "weekly" ? "week" : "month";
  const start = local(now, zone).startOf(unit);
  const here = occurrence(frequency, start, hour);
  return here.dueAt <= now ? here : occurrence(frequency, start.minus({ [`${unit}s`]: 1 }), hour);
}

/** The first occurrence after `now`. */
export function nextDue(frequency: ReportFrequency, now: Date, zone: string, hour: number): ReportPeriod {
  const unit = frequency === "weekly" ? "week" : "month";
  const start = local(now, zone).startOf(unit);
  const here = occurrence(frequency, start, hour);
  return here.dueAt > now ? here : occurrence(frequency, start.plus({ [`${unit}s`]: 1 }), hour);
}

/** The last whole week or month before `now` (what "send now" previews), whatever the hour. */
export function lastComplete(frequency: ReportFrequency, now: Date, zone: string): ReportPeriod {
  return occurrence(frequency, local(now, zone).startOf(frequency === "weekly" ? "week" : "month"), 0);
}

/** "November" for the monthly subject, from a period's first day. */
export function monthName(from: string): string {
  return DateTime.fromISO(from, { zone: "UTC" }).setLocale("en").toFormat("LLLL");
}
