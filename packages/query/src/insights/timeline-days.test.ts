// Events' local days (timeline-days.ts) against the one definition of a local day (day-rollup.ts
// localDayNumber), across New York's DST change and on a timezone with a half-hour offset; the
// table from day to interval for a weekly grid, and none for a bound that is not a local midnight.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localDayNumber, midnightAtOrBefore } from "../day-rollup.js";
import { T_HI, type Timeline } from "./timeline.js";
import { dayIntervals, timelineDays } from "./timeline-days.js";

const DAY = 86_400_000;
const T0 = Date.parse("2024-03-01T00:00:00Z");

/** A timeline of one visitor's events at `ms` (in order). */
function timeline(ms: number[]): Timeline {
  const t0 = ms[0] ?? 0;
  return {
    keys: new BigInt64Array([1n]),
    starts: new Int32Array([0, ms.length]),
    t0,
    tLo: Uint32Array.from(ms, (t) => (t - t0) % T_HI),
    tHi: Uint8Array.from(ms, (t) => Math.floor((t - t0) / T_HI)),
    pair: new Uint16Array(ms.length),
  };
}

describe("timelineDays", () => {
  it("gives each event its local day, across a DST change and a half-hour offset", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 120 * DAY }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom("America/New_York", "Asia/Kolkata", "UTC", "Australia/Lord_Howe"),
        (offsets, tz) => {
          const ms = offsets.map((o) => T0 + o).sort((a, b) => a - b);
          const d = timelineDays(timeline(ms), tz);
          expect(Array.from(d.day, (x) => d.first + x)).toEqual(ms.map((t) => localDayNumber(tz, t)));
          expect(Math.max(...d.day)).toBeLessThan(d.span);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("maps days to a weekly grid's intervals within its range, and refuses bounds that are not local midnights", () => {
    const tz = "America/New_York";
    const ms = [T0 - 3 * DAY, T0 + 5 * 3_600_000, T0 + 8 * DAY + 3_600_000, T0 + 10 * DAY + 23 * 3_600_000, T0 + 30 * DAY];
    const days = timelineDays(timeline(ms), tz);
    const from = midnightAtOrBefore(tz, T0 + DAY);
    const starts = [from, from + 7 * DAY, from + 14 * DAY];
    const to = midnightAtOrBefore(tz, from + 14 * DAY + 12 * 3_600_000);
    const grid = dayIntervals(days, tz, { starts, last: 1, from, to }) as Int32Array;
    // Before the range; at its first instant (local midnight of March 1); week 2 twice (the second
    // after the DST change); after it.
    expect(Array.from(days.day, (x) => grid[x])).toEqual([-1, 0, 1, 1, -1]);
    expect(dayIntervals(days, tz, { starts, last: 1, from: from + 3_600_000, to })).toBeNull();
    expect(dayIntervals(days, tz, { starts: [from, from + 7 * DAY + 60_000], last: 1, from, to })).toBeNull();
  });
});
