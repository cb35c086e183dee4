// The visitor read planner (visitors-plan.ts), without printing SQL: the per-visitor tables answer
// what they hold (the page, the unfiltered history, the list); a filtered history, event rows and
// a forced "events" go to the events table.
import { describe, expect, it } from "vitest";
import { planVisitorRead, type VisitorRead } from "./visitors-plan.js";

const auto = { tables: true } as const;

describe("planVisitorRead", () => {
  it("reads the per-visitor tables for the page, the list and an unfiltered history", () => {
    expect(planVisitorRead({ read: "page" }, auto)).toBe("tables");
    expect(planVisitorRead({ read: "list" }, auto)).toBe("tables");
    expect(planVisitorRead({ read: "history", options: {} }, auto)).toBe("tables");
  });

  it.each<[string, VisitorRead]>([
    ["an event filter", { read: "history", options: { event: "signup" } }],
    ["a start", { read: "history", options: { from: 0 } }],
    ["an end", { read: "history", options: { to: 1 } }],
  ])("reads the events for a history with %s (a visit's counts then depend on its matching events)", (_what, r) => {
    expect(planVisitorRead(r, auto)).toBe("events");
  });

  it("reads the events for event rows, without the tables, or when told to", () => {
    expect(planVisitorRead({ read: "events" }, auto)).toBe("events");
    for (const r of [{ read: "page" }, { read: "list" }, { read: "history", options: {} }] as VisitorRead[]) {
      expect(planVisitorRead(r, { tables: false })).toBe("events");
      expect(planVisitorRead(r, { tables: true, source: "events" })).toBe("events");
      expect(planVisitorRead(r, { tables: true, source: "auto" })).toBe("tables");
    }
  });
});
