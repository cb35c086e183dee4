import { describe, expect, it } from "vitest";
import {
  daysLeft,
  formatDay,
  formatLastDay,
  formatMoney,
  formatPeriod,
  isFollowableUrl,
  periodShortLabel,
} from "./billing-format";

describe("formatMoney", () => {
  it("writes minor units in the currency, without cents when whole", () => {
    expect(formatMoney(1900, "usd", "en-US")).toBe("$19");
    expect(formatMoney(19050, "eur", "en-US")).toBe("€190.50");
    expect(formatMoney(0, "usd", "en-US")).toBe("$0");
  });

  it("knows currencies without minor units", () => {
    expect(formatMoney(1500, "jpy", "en-US")).toBe("¥1,500");
  });
});

describe("periods", () => {
  it("shows the last day before the exclusive end, in UTC", () => {
    expect(formatPeriod("2026-11-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z", "en-GB")).toBe("1 Nov – 30 Nov 2026");
    expect(formatPeriod("2026-12-15T00:00:00.000Z", "2027-01-15T00:00:00.000Z", "en-GB")).toBe("15 Dec 2026 – 14 Jan 2027");
  });

  it("labels bars by month, with the year in January", () => {
    expect(periodShortLabel("2026-11-01T00:00:00.000Z", "en-GB")).toBe("Nov");
    expect(periodShortLabel("2027-01-01T00:00:00.000Z", "en-GB")).toBe("Jan 2027");
    expect(formatDay("2026-11-08T00:00:00.000Z", "en-GB")).toBe("8 Nov 2026");
    expect(formatLastDay("2026-12-01T00:00:00.000Z", "en-GB")).toBe("30 Nov 2026");
  });

  it("counts whole days left, rounded up, never negative", () => {
    const now = new Date("2026-11-25T12:00:00.000Z");
    expect(daysLeft("2026-12-01T00:00:00.000Z", now)).toBe(6);
    expect(daysLeft("2026-11-25T12:00:00.001Z", now)).toBe(1);
    expect(daysLeft("2026-11-20T00:00:00.000Z", now)).toBe(0);
  });
});

describe("isFollowableUrl", () => {
  const origin = "https://lookout.example";
  it("follows http(s) pages and paths on this site", () => {
    expect(isFollowableUrl("https://checkout.stripe.com/c/pay/cs_test_a1", origin)).toBe(true);
    expect(isFollowableUrl("http://127.0.0.1:4000/portal", origin)).toBe(true);
    expect(isFollowableUrl("/billing?checkout=done", origin)).toBe(true);
  });

  it("refuses script and data URLs, protocol-relative and odd paths", () => {
    expect(isFollowableUrl("javascript:alert(1)", origin)).toBe(false);
    expect(isFollowableUrl("JavaScript:alert(1)", origin)).toBe(false);
    expect(isFollowableUrl("data:text/html,hi", origin)).toBe(false);
    expect(isFollowableUrl("//evil.example/x", origin)).toBe(false);
    expect(isFollowableUrl("/\\evil.example", origin)).toBe(false);
    expect(isFollowableUrl("", origin)).toBe(false);
    expect(isFollowableUrl("billing", origin)).toBe(false);
  });
});
