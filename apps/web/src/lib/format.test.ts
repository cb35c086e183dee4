import { describe, expect, it } from "vitest";
import { changeTone, formatChange, formatCount, formatDecimal, formatDuration, formatPercent } from "./format";

describe("formatters", () => {
  it("shows counts in full below 10,000 and compact above", () => {
    expect(formatCount(0, "en-US")).toBe("0");
    expect(formatCount(9876, "en-US")).toBe("9,876");
    expect(formatCount(12_345, "en-US")).toBe("12.3K");
    expect(formatCount(4_500_000, "en-US")).toBe("4.5M");
    expect(formatCount(9876, "de-DE")).toBe("9.876");
  });

  it("shows ratios, percentages and changes", () => {
    expect(formatDecimal(1.8, "en-US")).toBe("1.8");
    expect(formatDecimal(1.856, "en-US")).toBe("1.86");
    expect(formatPercent(68.9, "en-US")).toBe("68.9%");
    expect(formatPercent(100, "en-US")).toBe("100%");
    expect(formatChange(20, "en-US")).toBe("+20%");
    expect(formatChange(-5.25, "en-US")).toBe("-5.3%");
    expect(formatChange(0, "en-US")).toBe("0%");
  });

  it("shows durations as minutes and two-digit seconds", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(-3)).toBe("0s");
    expect(formatDuration(Number.NaN)).toBe("0s");
    expect(formatDuration(45)).toBe("45s");
    expect(formatDuration(65)).toBe("1m 05s");
    expect(formatDuration(91.4)).toBe("1m 31s");
    expect(formatDuration(3600 + 3 * 60 + 4)).toBe("1h 03m 04s");
  });

  it("judges changes, lower being better for bounce rate", () => {
    expect(changeTone(10)).toBe("good");
    expect(changeTone(-10)).toBe("bad");
    expect(changeTone(10, true)).toBe("bad");
    expect(changeTone(-10, true)).toBe("good");
    expect(changeTone(0)).toBe("neutral");
    expect(changeTone(null)).toBe("neutral");
  });
});
