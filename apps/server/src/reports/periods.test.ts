// The due-time math apart from any store: Monday / the 1st at the send hour in the property's
// timezone, across the autumn DST changes of New York and Berlin.
import { describe, expect, it } from "vitest";
import { currentDue, lastComplete, monthName, nextDue } from "./periods.js";

const at = (iso: string) => new Date(iso);

describe("weekly reports", () => {
  it("go out Monday 09:00 in Berlin, in summer and winter time around the last Sunday of October", () => {
    // Monday 19 Oct 2026 09:00 CEST = 07:00 UTC; Monday 26 Oct 09:00 CET (after 25 Oct) = 08:00 UTC.
    const before = currentDue("weekly", at("2026-10-26T07:59:59Z"), "Europe/Berlin", 9);
    expect(before).toEqual({ id: "2026-W42", from: "2026-10-12", to: "2026-10-18", dueAt: at("2026-10-19T07:00:00Z") });
    const after = currentDue("weekly", at("2026-10-26T08:00:00Z"), "Europe/Berlin", 9);
    expect(after).toEqual({ id: "2026-W43", from: "2026-10-19", to: "2026-10-25", dueAt: at("2026-10-26T08:00:00Z") });
    expect(nextDue("weekly", at("2026-10-20T12:00:00Z"), "Europe/Berlin", 9).dueAt).toEqual(at("2026-10-26T08:00:00Z"));
  });

  it("go out Monday 09:00 in New York around the first Sunday of November", () => {
    // Monday 26 Oct 09:00 EDT = 13:00 UTC; Monday 2 Nov 09:00 EST (after 1 Nov) = 14:00 UTC.
    expect(currentDue("weekly", at("2026-11-02T13:59:00Z"), "America/New_York", 9)).toMatchObject({
      id: "2026-W43",
      dueAt: at("2026-10-26T13:00:00Z"),
    });
    expect(currentDue("weekly", at("2026-11-02T14:00:00Z"), "America/New_York", 9)).toEqual({
      id: "2026-W44",
      from: "2026-10-26",
      to: "2026-11-01",
      dueAt: at("2026-11-02T14:00:00Z"),
    });
    // Sunday evening in New York is already Monday in UTC: still the week before.
    expect(currentDue("weekly", at("2026-11-09T03:00:00Z"), "America/New_York", 9).id).toBe("2026-W44");
  });

  it("respect the send hour and ISO week numbers across a year's end", () => {
    expect(currentDue("weekly", at("2027-01-04T06:00:00Z"), "UTC", 6)).toMatchObject({
      id: "2026-W53",
      from: "2026-12-28",
      to: "2027-01-03",
    });
    expect(nextDue("weekly", at("2027-01-04T06:00:00Z"), "UTC", 6).dueAt).toEqual(at("2027-01-11T06:00:00Z"));
  });
});

describe("monthly reports", () => {
  it("go out on the 1st at 09:00 local, the DST day itself included, covering the month before", () => {
    // 1 Nov 2026 is New York's change day: 09:00 is already EST (14:00 UTC).
    expect(currentDue("monthly", at("2026-11-01T14:00:00Z"), "America/New_York", 9)).toEqual({
      id: "2026-10",
      from: "2026-10-01",
      to: "2026-10-31",
      dueAt: at("2026-11-01T14:00:00Z"),
    });
    expect(currentDue("monthly", at("2026-11-01T13:59:00Z"), "America/New_York", 9)).toMatchObject({
      id: "2026-09",
      dueAt: at("2026-10-01T13:00:00Z"),
    });
    expect(nextDue("monthly", at("2026-11-15T00:00:00Z"), "Europe/Berlin", 9)).toMatchObject({
      id: "2026-11",
      from: "2026-11-01",
      to: "2026-11-30",
      dueAt: at("2026-12-01T08:00:00Z"),
    });
  });

  it("name the month for the subject", () => {
    expect(monthName("2026-11-01")).toBe("November");
  });
});

describe("send now", () => {
  it("previews the last whole period whatever the hour", () => {
    expect(lastComplete("weekly", at("2026-11-02T05:00:00Z"), "UTC")).toMatchObject({ id: "2026-W44", from: "2026-10-26" });
    expect(lastComplete("monthly", at("2026-12-01T00:30:00Z"), "Europe/Berlin")).toMatchObject({ id: "2026-11" });
  });

  it("refuses an unknown timezone", () => {
    expect(() => currentDue("weekly", new Date(), "Mars/Olympus", 9)).toThrow(RangeError);
  });
});
