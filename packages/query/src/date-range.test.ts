// Date ranges in the property's timezone (DESIGN.md §4): every preset, DST days, custom ranges,
// both comparisons, chart buckets, and the wall-clock helpers they stand on. Expected instants are
// written out by hand (New York is UTC-5 in winter, UTC-4 from 2024-03-10 03:00 local).
import type { Comparison, DatePreset, DateRange } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { bucketLabels } from "./buckets.js";
import { comparisonRange, defaultInterval, type RangeContext, resolveDateRange } from "./date-range.js";
import { QueryError } from "./errors.js";
import { formatTimestamp, instantOfWall, offsetMinutes, offsetSegments, startOfDay, wallMs } from "./tz.js";

const NY = "America/New_York";
/** Tuesday 2024-03-12 11:00 in New York, two days after the spring-forward change. */
const CTX: RangeContext = { timezone: NY, now: new Date("2024-03-12T15:00:00Z") };

const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
function resolved(range: DateRange, ctx: RangeContext = CTX) {
  const r = resolveDateRange(range, ctx);
  return { from: iso(r.from), to: iso(r.to), firstDay: r.firstDay, lastDay: r.lastDay };
}
function compared(range: DateRange, comparison: Comparison, ctx: RangeContext = CTX) {
  const cur = resolveDateRange(range, ctx);
  const c = comparisonRange(range, cur, comparison, ctx);
  return { from: iso(c.from), to: iso(c.to), elapsedTo: iso(c.elapsedTo), firstDay: c.firstDay, lastDay: c.lastDay };
}

describe("presets in America/New_York", () => {
  const expected: Record<Exclude<DatePreset, "custom">, ReturnType<typeof resolved>> = {
    today: { from: "2024-03-12T04:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2024-03-12", lastDay: "2024-03-12" },
    yesterday: { from: "2024-03-11T04:00:00Z", to: "2024-03-12T04:00:00Z", firstDay: "2024-03-11", lastDay: "2024-03-11" },
    // Starts in winter time: 7 local days are 167 hours.
    last_7_days: { from: "2024-03-06T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2024-03-06", lastDay: "2024-03-12" },
    last_30_days: { from: "2024-02-12T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2024-02-12", lastDay: "2024-03-12" },
    last_90_days: { from: "2023-12-14T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2023-12-14", lastDay: "2024-03-12" },
    month_to_date: { from: "2024-03-01T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2024-03-01", lastDay: "2024-03-12" },
    last_month: { from: "2024-02-01T05:00:00Z", to: "2024-03-01T05:00:00Z", firstDay: "2024-02-01", lastDay: "2024-02-29" },
    year_to_date: { from: "2024-01-01T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2024-01-01", lastDay: "2024-03-12" },
    last_12_months: {
      from: "2023-04-01T04:00:00Z",
      to: "2024-03-13T04:00:00Z",
      firstDay: "2023-04-01",
      lastDay: "2024-03-12",
    },
    all_time: { from: "2019-01-01T05:00:00Z", to: "2024-03-13T04:00:00Z", firstDay: "2019-01-01", lastDay: "2024-03-12" },
  };
  for (const [preset, want] of Object.entries(expected)) {
    it(preset, () => {
      expect(resolved({ preset: preset as DatePreset })).toEqual(want);
    });
  }

  it("all_time starts on the local day of `earliest`", () => {
    // 02:00 UTC on 2023-06-15 is still 2023-06-14 in New York.
    const ctx = { ...CTX, earliest: new Date("2023-06-15T02:00:00Z") };
    expect(resolved({ preset: "all_time" }, ctx)).toMatchObject({ from: "2023-06-14T04:00:00Z", firstDay: "2023-06-14" });
  });

  it("custom covers whole local days, inclusive", () => {
    expect(resolved({ preset: "custom", from: "2024-03-09", to: "2024-03-10" })).toEqual({
      from: "2024-03-09T05:00:00Z",
      to: "2024-03-11T04:00:00Z",
      firstDay: "2024-03-09",
      lastDay: "2024-03-10",
    });
    expect(resolved({ preset: "custom", from: "2024-02-29", to: "2024-02-29" })).toMatchObject({
      from: "2024-02-29T05:00:00Z",
      to: "2024-03-01T05:00:00Z",
    });
  });

  it("'today' follows the local date, not the UTC one", () => {
    // 01:30 UTC on the 13th is 21:30 on the 12th in New York.
    const late = { ...CTX, now: new Date("2024-03-13T01:30:00Z") };
    expect(resolved({ preset: "today" }, late).firstDay).toBe("2024-03-12");
    // and 23:30 on the 12th in Tokyo is still the 12th there, 14:30 UTC.
    const tokyo = { timezone: "Asia/Tokyo", now: new Date("2024-03-12T14:30:00Z") };
    expect(resolved({ preset: "today" }, tokyo)).toEqual({
      from: "2024-03-11T15:00:00Z",
      to: "2024-03-12T15:00:00Z",
      firstDay: "2024-03-12",
      lastDay: "2024-03-12",
    });
  });
});

describe("DST boundaries", () => {
  const hours = (r: ReturnType<typeof resolved>) => (Date.parse(r.to) - Date.parse(r.from)) / 3_600_000;

  it("a spring-forward day is 23 hours, a fall-back day 25", () => {
    const spring = resolved({ preset: "today" }, { timezone: NY, now: new Date("2024-03-10T12:00:00Z") });
    expect(spring).toMatchObject({ from: "2024-03-10T05:00:00Z", to: "2024-03-11T04:00:00Z" });
    expect(hours(spring)).toBe(23);
    const fall = resolved({ preset: "today" }, { timezone: NY, now: new Date("2024-11-03T12:00:00Z") });
    expect(fall).toMatchObject({ from: "2024-11-03T04:00:00Z", to: "2024-11-04T05:00:00Z" });
    expect(hours(fall)).toBe(25);
  });

  it("in Europe the change happens at 01:00 UTC on the last Sunday of March and October", () => {
    const berlin = { timezone: "Europe/Berlin", now: new Date("2024-03-31T12:00:00Z") };
    expect(resolved({ preset: "today" }, berlin)).toMatchObject({ from: "2024-03-30T23:00:00Z", to: "2024-03-31T22:00:00Z" });
    expect(resolved({ preset: "yesterday" }, { ...berlin, now: new Date("2024-10-28T12:00:00Z") })).toMatchObject({
      from: "2024-10-26T22:00:00Z",
      to: "2024-10-27T23:00:00Z",
    });
  });

  it("a day whose midnight falls in the gap starts when the clock jumps (Santiago, 2024-09-08)", () => {
    // Chile springs forward at 24:00 on Saturday: 00:00 local never happens, the day starts at 01:00 (-03).
    expect(iso(new Date(startOfDay("America/Santiago", { y: 2024, m: 9, d: 8 })))).toBe("2024-09-08T04:00:00Z");
    const r = resolved({ preset: "today" }, { timezone: "America/Santiago", now: new Date("2024-09-08T15:00:00Z") });
    expect(r).toMatchObject({ from: "2024-09-08T04:00:00Z", to: "2024-09-09T03:00:00Z", firstDay: "2024-09-08" });
  });

  it("wall time <-> instant around the changes", () => {
    // The skipped 02:30 reads with the old offset: 07:30 UTC, which is 03:30 EDT.
    expect(iso(new Date(instantOfWall(NY, Date.UTC(2024, 2, 10, 2, 30))))).toBe("2024-03-10T07:30:00Z");
    // The repeated 01:30 in November: the earlier instant (EDT) wins.
    expect(iso(new Date(instantOfWall(NY, Date.UTC(2024, 10, 3, 1, 30))))).toBe("2024-11-03T05:30:00Z");
    expect(wallMs(NY, Date.parse("2024-11-03T06:30:00Z"))).toBe(Date.UTC(2024, 10, 3, 1, 30));
    expect(offsetMinutes(NY, Date.parse("2024-03-10T06:59:00Z"))).toBe(-300);
    expect(offsetMinutes(NY, Date.parse("2024-03-10T07:00:00Z"))).toBe(-240);
    expect(offsetMinutes("Asia/Kolkata", Date.parse("2024-03-10T07:00:00Z"))).toBe(330);
  });

  it("offset segments split a span exactly at each change", () => {
    const segs = offsetSegments(NY, Date.parse("2024-03-01T05:00:00Z"), Date.parse("2024-12-01T05:00:00Z"));
    expect(segs).toEqual([
      { offsetMinutes: -300, untilMs: Date.parse("2024-03-10T07:00:00Z") },
      { offsetMinutes: -240, untilMs: Date.parse("2024-11-03T06:00:00Z") },
      { offsetMinutes: -300, untilMs: null },
    ]);
    // Lord Howe moves by 30 minutes.
    const lh = offsetSegments("Australia/Lord_Howe", Date.parse("2024-03-01T00:00:00Z"), Date.parse("2024-05-01T00:00:00Z"));
    expect(lh.map((s) => s.offsetMinutes)).toEqual([660, 630]);
    expect(offsetSegments("UTC", 0, Date.parse("2024-01-01T00:00:00Z"))).toEqual([{ offsetMinutes: 0, untilMs: null }]);
  });

  it("hour buckets follow the wall clock: 23 on a spring-forward day, 24 on a fall-back day", () => {
    const spring = resolveDateRange({ preset: "today" }, { timezone: NY, now: new Date("2024-03-10T12:00:00Z") });
    const sb = bucketLabels(spring, "hour", NY);
    expect(sb).toHaveLength(23);
    expect(sb.slice(0, 3)).toEqual(["2024-03-10 00:00:00", "2024-03-10 01:00:00", "2024-03-10 03:00:00"]);
    const fall = resolveDateRange({ preset: "today" }, { timezone: NY, now: new Date("2024-11-03T12:00:00Z") });
    const fb = bucketLabels(fall, "hour", NY);
    expect(fb).toHaveLength(24);
    expect(new Set(fb).size).toBe(24);
    expect(fb.at(-1)).toBe("2024-11-03 23:00:00");
    // A half-hour zone still labels whole local hours.
    const india = resolveDateRange({ preset: "today" }, { timezone: "Asia/Kolkata", now: new Date("2024-03-12T10:00:00Z") });
    expect(bucketLabels(india, "hour", "Asia/Kolkata")[0]).toBe("2024-03-12 00:00:00");
  });
});

describe("comparison periods", () => {
  it("previous period of a running range stops at the same elapsed wall time", () => {
    // last_7_days = 03-06..03-12, now 11:00 on the 12th; previous = 02-28..03-05, cut at 11:00 on 03-05.
    expect(compared({ preset: "last_7_days" }, "previous_period")).toEqual({
      from: "2024-02-28T05:00:00Z",
      to: "2024-03-06T05:00:00Z",
      elapsedTo: "2024-03-05T16:00:00Z",
      firstDay: "2024-02-28",
      lastDay: "2024-03-05",
    });
    // today (EDT) vs yesterday until the same wall time, across the change: 11:00 EDT vs 11:00 EST.
    const ctx = { timezone: NY, now: new Date("2024-03-10T15:00:00Z") };
    expect(compared({ preset: "today" }, "previous_period", ctx)).toMatchObject({
      from: "2024-03-09T05:00:00Z",
      to: "2024-03-10T05:00:00Z",
      elapsedTo: "2024-03-09T16:00:00Z",
    });
  });

  it("a finished range compares whole periods", () => {
    expect(compared({ preset: "yesterday" }, "previous_period")).toEqual({
      from: "2024-03-10T05:00:00Z",
      to: "2024-03-11T04:00:00Z",
      elapsedTo: "2024-03-11T04:00:00Z",
      firstDay: "2024-03-10",
      lastDay: "2024-03-10",
    });
    expect(compared({ preset: "custom", from: "2024-02-01", to: "2024-02-10" }, "previous_period")).toMatchObject({
      firstDay: "2024-01-22",
      lastDay: "2024-01-31",
    });
  });

  it("last_month compares with the month before, month_to_date with the same days of last month", () => {
    expect(compared({ preset: "last_month" }, "previous_period")).toMatchObject({
      firstDay: "2024-01-01",
      lastDay: "2024-01-31",
      from: "2024-01-01T05:00:00Z",
      to: "2024-02-01T05:00:00Z",
    });
    expect(compared({ preset: "month_to_date" }, "previous_period")).toMatchObject({
      firstDay: "2024-02-01",
      lastDay: "2024-02-12",
      elapsedTo: "2024-02-12T16:00:00Z",
    });
    // On 31 March, "last month so far" is all of February (no 30th or 31st to spill into March).
    const eom = { timezone: NY, now: new Date("2024-03-31T15:00:00Z") };
    expect(compared({ preset: "month_to_date" }, "previous_period", eom)).toMatchObject({
      firstDay: "2024-02-01",
      lastDay: "2024-02-29",
      to: "2024-03-01T05:00:00Z",
    });
  });

  it("year over year takes the same local dates a year earlier", () => {
    expect(compared({ preset: "last_7_days" }, "year_over_year")).toEqual({
      from: "2023-03-06T05:00:00Z",
      to: "2023-03-13T04:00:00Z", // 2023's change was on 03-12: the same days, other offsets
      elapsedTo: "2023-03-12T15:00:00Z",
      firstDay: "2023-03-06",
      lastDay: "2023-03-12",
    });
    expect(compared({ preset: "last_month" }, "year_over_year")).toMatchObject({ firstDay: "2023-02-01", lastDay: "2023-02-28" });
    // A leap day has no twin: the range ends on 2023-02-28.
    expect(compared({ preset: "custom", from: "2024-02-29", to: "2024-02-29" }, "year_over_year")).toMatchObject({
      firstDay: "2023-02-28",
      lastDay: "2023-02-28",
    });
  });

  it("never overlaps the main range", () => {
    const r = { preset: "custom", from: "2022-01-01", to: "2024-03-01" } as const;
    const c = compared(r, "year_over_year");
    expect(c.firstDay).toBe("2021-01-01");
    expect(c.to).toBe("2022-01-01T05:00:00Z");
    expect(c.elapsedTo).toBe("2022-01-01T05:00:00Z");
  });
});

describe("chart intervals and buckets", () => {
  it("picks a default interval by range length", () => {
    const di = (range: DateRange) => defaultInterval(range, resolveDateRange(range, CTX));
    expect(di({ preset: "today" })).toBe("hour");
    expect(di({ preset: "yesterday" })).toBe("hour");
    expect(di({ preset: "last_7_days" })).toBe("day");
    expect(di({ preset: "last_90_days" })).toBe("day");
    expect(di({ preset: "custom", from: "2023-06-01", to: "2024-03-01" })).toBe("week");
    expect(di({ preset: "custom", from: "2021-06-01", to: "2024-03-01" })).toBe("month");
    expect(di({ preset: "year_to_date" })).toBe("month");
    expect(di({ preset: "last_12_months" })).toBe("month");
    expect(di({ preset: "all_time" })).toBe("month");
  });

  it("labels day, week and month buckets by local date", () => {
    const r = resolveDateRange({ preset: "custom", from: "2024-02-27", to: "2024-03-05" }, CTX);
    expect(bucketLabels(r, "day", NY)).toEqual([
      "2024-02-27",
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
      "2024-03-02",
      "2024-03-03",
      "2024-03-04",
      "2024-03-05",
    ]);
    expect(bucketLabels(r, "week", NY)).toEqual(["2024-02-26", "2024-03-04"]);
    expect(bucketLabels(r, "month", NY)).toEqual(["2024-02-01", "2024-03-01"]);
    const minutes = bucketLabels(resolveDateRange({ preset: "today" }, CTX), "minute", NY);
    expect(minutes).toHaveLength(1440);
    expect(minutes[1]).toBe("2024-03-12 00:01:00");
  });

  it("refuses more than 1500 buckets with QueryError", () => {
    const r = resolveDateRange({ preset: "last_7_days" }, CTX);
    expect(() => bucketLabels(r, "minute", NY)).toThrow(QueryError);
    const long = resolveDateRange({ preset: "custom", from: "2019-01-01", to: "2024-01-01" }, CTX);
    expect(() => bucketLabels(long, "day", NY)).toThrow(expect.objectContaining({ code: "interval_too_fine" }));
    expect(bucketLabels(long, "week", NY)).toHaveLength(262);
  });

  it("prints parameters as whole UTC seconds", () => {
    expect(formatTimestamp(Date.parse("2024-03-10T07:00:00.999Z"))).toBe("2024-03-10 07:00:00");
  });
});
