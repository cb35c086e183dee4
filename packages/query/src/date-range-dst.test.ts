// Every preset's range in three timezones on both sides of a DST change (issue #19 item 1): the
// local days (@lookout/schema's presetRange, which the web app's label uses) and the instants the
// server queries (resolveDateRange) for fixed "now" instants, written out by hand-checked tables
// (computed independently with Python's zoneinfo). Then: the same days picked as a custom range are
// the same range, a chart's day buckets are as many as the label's days, no bucket after now is
// drawn, and a custom range ending in the future is refused.
import { type DatePreset, localCalendarDay, presetRange } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { bucketLabels, bucketOf, bucketsUpToNow } from "./buckets.js";
import { defaultInterval, resolveDateRange } from "./date-range.js";
import { QueryError } from "./errors.js";

type Fixed = Exclude<DatePreset, "custom">;
/** [first day, last day (inclusive), first instant, first instant after] */
type Expected = [string, string, string, string];
interface DstCase {
  timezone: string;
  now: string;
  today: string;
  ranges: Record<Fixed, Expected>;
}

export const DST_CASES: DstCase[] = [
  {
    timezone: "America/New_York",
    // Saturday 7 March 23:30 EST, the evening before spring forward
    now: "2026-03-08T04:30:00Z",
    today: "2026-03-07",
    ranges: {
      today: ["2026-03-07", "2026-03-07", "2026-03-07T05:00:00Z", "2026-03-08T05:00:00Z"],
      yesterday: ["2026-03-06", "2026-03-06", "2026-03-06T05:00:00Z", "2026-03-07T05:00:00Z"],
      last_7_days: ["2026-03-01", "2026-03-07", "2026-03-01T05:00:00Z", "2026-03-08T05:00:00Z"],
      last_30_days: ["2026-02-06", "2026-03-07", "2026-02-06T05:00:00Z", "2026-03-08T05:00:00Z"],
      last_90_days: ["2025-12-08", "2026-03-07", "2025-12-08T05:00:00Z", "2026-03-08T05:00:00Z"],
      month_to_date: ["2026-03-01", "2026-03-07", "2026-03-01T05:00:00Z", "2026-03-08T05:00:00Z"],
      last_month: ["2026-02-01", "2026-02-28", "2026-02-01T05:00:00Z", "2026-03-01T05:00:00Z"],
      year_to_date: ["2026-01-01", "2026-03-07", "2026-01-01T05:00:00Z", "2026-03-08T05:00:00Z"],
      last_12_months: ["2025-04-01", "2026-03-07", "2025-04-01T04:00:00Z", "2026-03-08T05:00:00Z"],
      all_time: ["2021-01-01", "2026-03-07", "2021-01-01T05:00:00Z", "2026-03-08T05:00:00Z"],
    },
  },
  {
    timezone: "America/New_York",
    // Sunday 8 March 23:30 EDT, the evening of spring forward (a 23-hour day)
    now: "2026-03-09T03:30:00Z",
    today: "2026-03-08",
    ranges: {
      today: ["2026-03-08", "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z"],
      yesterday: ["2026-03-07", "2026-03-07", "2026-03-07T05:00:00Z", "2026-03-08T05:00:00Z"],
      last_7_days: ["2026-03-02", "2026-03-08", "2026-03-02T05:00:00Z", "2026-03-09T04:00:00Z"],
      last_30_days: ["2026-02-07", "2026-03-08", "2026-02-07T05:00:00Z", "2026-03-09T04:00:00Z"],
      last_90_days: ["2025-12-09", "2026-03-08", "2025-12-09T05:00:00Z", "2026-03-09T04:00:00Z"],
      month_to_date: ["2026-03-01", "2026-03-08", "2026-03-01T05:00:00Z", "2026-03-09T04:00:00Z"],
      last_month: ["2026-02-01", "2026-02-28", "2026-02-01T05:00:00Z", "2026-03-01T05:00:00Z"],
      year_to_date: ["2026-01-01", "2026-03-08", "2026-01-01T05:00:00Z", "2026-03-09T04:00:00Z"],
      last_12_months: ["2025-04-01", "2026-03-08", "2025-04-01T04:00:00Z", "2026-03-09T04:00:00Z"],
      all_time: ["2021-01-01", "2026-03-08", "2021-01-01T05:00:00Z", "2026-03-09T04:00:00Z"],
    },
  },
  {
    timezone: "Europe/Berlin",
    // Sunday 29 March 00:30 CET, half an hour after midnight on the switch day
    now: "2026-03-28T23:30:00Z",
    today: "2026-03-29",
    ranges: {
      today: ["2026-03-29", "2026-03-29", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"],
      yesterday: ["2026-03-28", "2026-03-28", "2026-03-27T23:00:00Z", "2026-03-28T23:00:00Z"],
      last_7_days: ["2026-03-23", "2026-03-29", "2026-03-22T23:00:00Z", "2026-03-29T22:00:00Z"],
      last_30_days: ["2026-02-28", "2026-03-29", "2026-02-27T23:00:00Z", "2026-03-29T22:00:00Z"],
      last_90_days: ["2025-12-30", "2026-03-29", "2025-12-29T23:00:00Z", "2026-03-29T22:00:00Z"],
      month_to_date: ["2026-03-01", "2026-03-29", "2026-02-28T23:00:00Z", "2026-03-29T22:00:00Z"],
      last_month: ["2026-02-01", "2026-02-28", "2026-01-31T23:00:00Z", "2026-02-28T23:00:00Z"],
      year_to_date: ["2026-01-01", "2026-03-29", "2025-12-31T23:00:00Z", "2026-03-29T22:00:00Z"],
      last_12_months: ["2025-04-01", "2026-03-29", "2025-03-31T22:00:00Z", "2026-03-29T22:00:00Z"],
      all_time: ["2021-01-01", "2026-03-29", "2020-12-31T23:00:00Z", "2026-03-29T22:00:00Z"],
    },
  },
  {
    timezone: "Europe/Berlin",
    // Monday 30 March 00:30 CEST, the first night of summer time
    now: "2026-03-29T22:30:00Z",
    today: "2026-03-30",
    ranges: {
      today: ["2026-03-30", "2026-03-30", "2026-03-29T22:00:00Z", "2026-03-30T22:00:00Z"],
      yesterday: ["2026-03-29", "2026-03-29", "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"],
      last_7_days: ["2026-03-24", "2026-03-30", "2026-03-23T23:00:00Z", "2026-03-30T22:00:00Z"],
      last_30_days: ["2026-03-01", "2026-03-30", "2026-02-28T23:00:00Z", "2026-03-30T22:00:00Z"],
      last_90_days: ["2025-12-31", "2026-03-30", "2025-12-30T23:00:00Z", "2026-03-30T22:00:00Z"],
      month_to_date: ["2026-03-01", "2026-03-30", "2026-02-28T23:00:00Z", "2026-03-30T22:00:00Z"],
      last_month: ["2026-02-01", "2026-02-28", "2026-01-31T23:00:00Z", "2026-02-28T23:00:00Z"],
      year_to_date: ["2026-01-01", "2026-03-30", "2025-12-31T23:00:00Z", "2026-03-30T22:00:00Z"],
      last_12_months: ["2025-04-01", "2026-03-30", "2025-03-31T22:00:00Z", "2026-03-30T22:00:00Z"],
      all_time: ["2021-01-01", "2026-03-30", "2020-12-31T23:00:00Z", "2026-03-30T22:00:00Z"],
    },
  },
  {
    timezone: "Pacific/Auckland",
    // Sunday 5 April 01:30 NZDT, before the clocks go back at 03:00
    now: "2026-04-04T12:30:00Z",
    today: "2026-04-05",
    ranges: {
      today: ["2026-04-05", "2026-04-05", "2026-04-04T11:00:00Z", "2026-04-05T12:00:00Z"],
      yesterday: ["2026-04-04", "2026-04-04", "2026-04-03T11:00:00Z", "2026-04-04T11:00:00Z"],
      last_7_days: ["2026-03-30", "2026-04-05", "2026-03-29T11:00:00Z", "2026-04-05T12:00:00Z"],
      last_30_days: ["2026-03-07", "2026-04-05", "2026-03-06T11:00:00Z", "2026-04-05T12:00:00Z"],
      last_90_days: ["2026-01-06", "2026-04-05", "2026-01-05T11:00:00Z", "2026-04-05T12:00:00Z"],
      month_to_date: ["2026-04-01", "2026-04-05", "2026-03-31T11:00:00Z", "2026-04-05T12:00:00Z"],
      last_month: ["2026-03-01", "2026-03-31", "2026-02-28T11:00:00Z", "2026-03-31T11:00:00Z"],
      year_to_date: ["2026-01-01", "2026-04-05", "2025-12-31T11:00:00Z", "2026-04-05T12:00:00Z"],
      last_12_months: ["2025-05-01", "2026-04-05", "2025-04-30T12:00:00Z", "2026-04-05T12:00:00Z"],
      all_time: ["2021-01-01", "2026-04-05", "2020-12-31T11:00:00Z", "2026-04-05T12:00:00Z"],
    },
  },
  {
    timezone: "Pacific/Auckland",
    // Monday 6 April 02:30 NZST, after the 25-hour day
    now: "2026-04-05T14:30:00Z",
    today: "2026-04-06",
    ranges: {
      today: ["2026-04-06", "2026-04-06", "2026-04-05T12:00:00Z", "2026-04-06T12:00:00Z"],
      yesterday: ["2026-04-05", "2026-04-05", "2026-04-04T11:00:00Z", "2026-04-05T12:00:00Z"],
      last_7_days: ["2026-03-31", "2026-04-06", "2026-03-30T11:00:00Z", "2026-04-06T12:00:00Z"],
      last_30_days: ["2026-03-08", "2026-04-06", "2026-03-07T11:00:00Z", "2026-04-06T12:00:00Z"],
      last_90_days: ["2026-01-07", "2026-04-06", "2026-01-06T11:00:00Z", "2026-04-06T12:00:00Z"],
      month_to_date: ["2026-04-01", "2026-04-06", "2026-03-31T11:00:00Z", "2026-04-06T12:00:00Z"],
      last_month: ["2026-03-01", "2026-03-31", "2026-02-28T11:00:00Z", "2026-03-31T11:00:00Z"],
      year_to_date: ["2026-01-01", "2026-04-06", "2025-12-31T11:00:00Z", "2026-04-06T12:00:00Z"],
      last_12_months: ["2025-05-01", "2026-04-06", "2025-04-30T12:00:00Z", "2026-04-06T12:00:00Z"],
      all_time: ["2021-01-01", "2026-04-06", "2020-12-31T11:00:00Z", "2026-04-06T12:00:00Z"],
    },
  },
];

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");

describe.each(DST_CASES)("presets in $timezone at $now", ({ timezone, now, today, ranges }) => {
  const ctx = { timezone, now: new Date(now) };

  it("today is the local calendar day", () => {
    expect(localCalendarDay(timezone, ctx.now)).toBe(today);
  });

  for (const [preset, [firstDay, lastDay, from, to]] of Object.entries(ranges) as [Fixed, Expected][]) {
    it(`${preset}: ${firstDay}..${lastDay}`, () => {
      const days = presetRange({ preset }, today);
      expect([days.firstDay, days.lastDay]).toEqual([firstDay, lastDay]);
      const r = resolveDateRange({ preset }, ctx);
      expect([r.firstDay, r.lastDay, iso(r.from), iso(r.to)]).toEqual([firstDay, lastDay, from, to]);
      // The same days as a custom range: the same instants, so the same totals.
      const custom = resolveDateRange({ preset: "custom", from: firstDay, to: lastDay }, ctx);
      expect([iso(custom.from), iso(custom.to)]).toEqual([from, to]);
      // A chart by day has one bucket per day the label names.
      if (preset !== "all_time") expect(bucketLabels(r, "day", timezone)).toHaveLength(days.days);
      expect(days.running).toBe(lastDay === today);
      expect(defaultInterval({ preset }, r)).toBe(days.intervals.default);
    });
  }

  it("last 7 days name 7 days, the last of them today", () => {
    const days = presetRange({ preset: "last_7_days" }, today);
    expect(days).toMatchObject({ days: 7, lastDay: today, running: true, label: "Last 7 days" });
  });
});

describe("DST days are whole local days", () => {
  it("Berlin's spring-forward day is 23 hours, Auckland's fall-back day 25", () => {
    const berlin = resolveDateRange({ preset: "today" }, { timezone: "Europe/Berlin", now: new Date("2026-03-29T10:00:00Z") });
    expect((berlin.to.getTime() - berlin.from.getTime()) / 3_600_000).toBe(23);
    const auckland = resolveDateRange(
      { preset: "today" },
      { timezone: "Pacific/Auckland", now: new Date("2026-04-05T10:00:00Z") },
    );
    expect((auckland.to.getTime() - auckland.from.getTime()) / 3_600_000).toBe(25);
    expect(bucketLabels(auckland, "hour", "Pacific/Auckland")).toHaveLength(24); // 02:00 twice is one bucket
  });
});

describe("no bucket after now", () => {
  const timezone = "Europe/Berlin";
  // Wednesday 2026-11-25 14:20 in Berlin.
  const now = new Date("2026-11-25T13:20:00Z");
  const ctx = { timezone, now };

  it("names the bucket holding now for each interval", () => {
    expect(bucketOf("minute", timezone, now)).toBe("2026-11-25 14:20:00");
    expect(bucketOf("hour", timezone, now)).toBe("2026-11-25 14:00:00");
    expect(bucketOf("day", timezone, now)).toBe("2026-11-25");
    expect(bucketOf("week", timezone, now)).toBe("2026-11-23");
    expect(bucketOf("month", timezone, now)).toBe("2026-11-01");
  });

  it("today by hour stops at this hour; month to date and year to date at this day and month", () => {
    const today = resolveDateRange({ preset: "today" }, ctx);
    const hours = bucketsUpToNow(bucketLabels(today, "hour", timezone), "hour", timezone, now);
    expect(hours).toHaveLength(15);
    expect(hours.at(-1)).toBe("2026-11-25 14:00:00");
    const mtd = resolveDateRange({ preset: "month_to_date" }, ctx);
    expect(bucketsUpToNow(bucketLabels(mtd, "day", timezone), "day", timezone, now)).toHaveLength(25);
    const ytd = resolveDateRange({ preset: "year_to_date" }, ctx);
    const months = bucketsUpToNow(bucketLabels(ytd, "month", timezone), "month", timezone, now);
    expect(months).toHaveLength(11);
    expect(months.at(-1)).toBe("2026-11-01");
  });

  it("keeps every bucket of a past range", () => {
    const lastMonth = resolveDateRange({ preset: "last_month" }, ctx);
    const labels = bucketLabels(lastMonth, "day", timezone);
    expect(bucketsUpToNow(labels, "day", timezone, now)).toEqual(labels);
    expect(labels).toHaveLength(31);
  });
});

describe("custom ranges the API refuses", () => {
  const ctx = { timezone: "Pacific/Auckland", now: new Date("2026-11-25T10:30:00Z") }; // 25 Nov 23:30 NZDT

  it("refuses one that ends after today in the property's timezone, with a 400 naming date", () => {
    let err: unknown;
    try {
      resolveDateRange({ preset: "custom", from: "2026-11-20", to: "2026-11-26" }, ctx);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QueryError);
    expect(err).toMatchObject({ code: "invalid_parameter", param: "date" });
    expect((err as Error).message).toMatch(/ends in the future.*2026-11-25/);
  });

  it("accepts one that ends today there, and the day is the property's, not UTC's", () => {
    const r = resolveDateRange({ preset: "custom", from: "2026-11-19", to: "2026-11-25" }, ctx);
    expect(r).toMatchObject({ firstDay: "2026-11-19", lastDay: "2026-11-25" });
    // At 10:30 UTC it is the 25th in New York too (05:30): the 26th is refused there as well.
    expect(() =>
      resolveDateRange({ preset: "custom", from: "2026-11-26", to: "2026-11-26" }, { ...ctx, timezone: "America/New_York" }),
    ).toThrow(QueryError);
  });

  it("refuses one that starts after it ends", () => {
    expect(() => resolveDateRange({ preset: "custom", from: "2026-11-10", to: "2026-11-09" }, ctx)).toThrow(
      /start date is after/,
    );
  });
});
