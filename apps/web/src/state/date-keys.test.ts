import { describe, expect, it } from "vitest";
import { type DateKeyAction, ignoresKey, rangeForKey, SHORTCUTS, type ShownRange } from "./date-keys";

const TODAY = "2025-03-15";
const shown = (preset: ShownRange["preset"], from = "", to = ""): ShownRange => ({ preset, from, to });
const custom = (from: string, to: string) => shown("custom", from, to);
const key = (k: string, r: ShownRange, today = TODAY): DateKeyAction | null => rangeForKey(k, r, today);

describe("rangeForKey: presets", () => {
  it.each([
    ["d", "today"],
    ["e", "yesterday"],
    ["7", "last_7_days"],
    ["w", "last_7_days"],
    ["3", "last_30_days"],
    ["t", "last_30_days"],
    ["n", "last_90_days"],
    ["m", "month_to_date"],
    ["p", "last_month"],
    ["y", "year_to_date"],
    ["l", "last_12_months"],
    ["a", "all_time"],
    ["D", "today"],
  ])("%s picks %s", (k, preset) => {
    expect(key(k, custom("2024-01-01", "2024-01-31"))).toEqual({ preset });
  });

  it("does nothing for the preset on show and for keys that are no shortcut", () => {
    expect(key("7", shown("last_7_days"))).toBeNull();
    for (const k of ["x", "Enter", " ", "ArrowUp", "0", "Escape"]) expect(key(k, shown("today"))).toBeNull();
  });

  it("lists every preset key in the help", () => {
    const listed = SHORTCUTS.flatMap((s) => s.keys.map((k) => k.toLowerCase()));
    for (const k of ["d", "e", "7", "w", "3", "t", "n", "m", "p", "y", "l", "a", "?", "←", "→"]) expect(listed).toContain(k);
  });
});

describe("rangeForKey: previous and next period", () => {
  it("steps day by day, naming today and yesterday, never past today", () => {
    expect(key("ArrowLeft", shown("today"))).toEqual({ preset: "yesterday" });
    expect(key("ArrowLeft", shown("yesterday"))).toEqual({ from: "2025-03-13", to: "2025-03-13" });
    expect(key("ArrowRight", custom("2025-03-13", "2025-03-13"))).toEqual({ preset: "yesterday" });
    expect(key("ArrowRight", shown("yesterday"))).toEqual({ preset: "today" });
    expect(key("ArrowRight", shown("today"))).toBeNull();
    // Across a month's and a year's end.
    expect(key("ArrowLeft", custom("2025-03-01", "2025-03-01"))).toEqual({ from: "2025-02-28", to: "2025-02-28" });
    expect(key("ArrowRight", custom("2024-12-31", "2024-12-31"))).toEqual({ from: "2025-01-01", to: "2025-01-01" });
  });

  it("steps whole calendar months, naming this and last month", () => {
    expect(key("ArrowLeft", shown("month_to_date"))).toEqual({ preset: "last_month" });
    expect(key("ArrowLeft", shown("last_month"))).toEqual({ from: "2025-01-01", to: "2025-01-31" });
    expect(key("ArrowLeft", custom("2025-01-01", "2025-01-31"))).toEqual({ from: "2024-12-01", to: "2024-12-31" });
    expect(key("ArrowLeft", custom("2024-03-01", "2024-03-31"))).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(key("ArrowRight", custom("2025-01-01", "2025-01-31"))).toEqual({ preset: "last_month" });
    expect(key("ArrowRight", shown("last_month"))).toEqual({ preset: "month_to_date" });
    expect(key("ArrowRight", shown("month_to_date"))).toBeNull();
  });

  it("steps whole calendar years, naming this year", () => {
    expect(key("ArrowLeft", shown("year_to_date"))).toEqual({ from: "2024-01-01", to: "2024-12-31" });
    expect(key("ArrowRight", custom("2024-01-01", "2024-12-31"))).toEqual({ preset: "year_to_date" });
    expect(key("ArrowRight", shown("year_to_date"))).toBeNull();
    expect(key("ArrowLeft", custom("1970-01-01", "1970-12-31"))).toBeNull();
  });

  it("steps any other custom range by its own length, never into the future", () => {
    expect(key("ArrowLeft", custom("2025-03-01", "2025-03-10"))).toEqual({ from: "2025-02-19", to: "2025-02-28" });
    expect(key("ArrowRight", custom("2025-02-19", "2025-02-28"))).toEqual({ from: "2025-03-01", to: "2025-03-10" });
    // 11–16 March would end after today (15 March).
    expect(key("ArrowRight", custom("2025-03-05", "2025-03-10"))).toBeNull();
    expect(key("ArrowRight", custom("2025-03-01", "2025-03-07"))).toEqual({ from: "2025-03-08", to: "2025-03-14" });
    expect(key("ArrowRight", custom("2025-03-02", "2025-03-08"))).toEqual({ from: "2025-03-09", to: "2025-03-15" });
  });

  it("does nothing on rolling ranges and all time, which have no previous period of their own", () => {
    for (const p of ["last_7_days", "last_30_days", "last_90_days", "last_12_months", "all_time"] as const) {
      expect(key("ArrowLeft", shown(p))).toBeNull();
      expect(key("ArrowRight", shown(p))).toBeNull();
    }
  });

  it("counts calendar days, not hours, across a DST change in any time zone", () => {
    // 2025-03-30 is 23 hours long in Europe; the arithmetic must still step whole days.
    expect(key("ArrowLeft", custom("2025-03-30", "2025-03-31"), "2025-04-10")).toEqual({ from: "2025-03-28", to: "2025-03-29" });
    expect(key("ArrowRight", custom("2025-03-29", "2025-03-29"), "2025-04-10")).toEqual({ from: "2025-03-30", to: "2025-03-30" });
  });
});

describe("ignoresKey", () => {
  const el = (tagName: string, extra: { isContentEditable?: boolean; inside?: string } = {}) => ({
    tagName,
    isContentEditable: extra.isContentEditable ?? false,
    closest: (s: string) => (extra.inside && s.includes(extra.inside) ? {} : null),
  });
  const press = (key: string, target: unknown, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) =>
    ignoresKey({
      key,
      altKey: false,
      ctrlKey: false,
      metaKey: false,
      defaultPrevented: false,
      ...mods,
      target: target as EventTarget,
    });

  it("answers keys on the page and on buttons", () => {
    expect(press("d", el("BODY"))).toBe(false);
    expect(press("ArrowLeft", el("BUTTON"))).toBe(false);
    expect(press("d", null)).toBe(false);
  });

  it("leaves alone keys typed in fields, with modifiers, or inside a modal", () => {
    for (const tag of ["INPUT", "TEXTAREA", "SELECT"]) expect(press("d", el(tag))).toBe(true);
    expect(press("d", el("DIV", { isContentEditable: true }))).toBe(true);
    expect(press("d", el("BODY"), { ctrlKey: true })).toBe(true);
    expect(press("d", el("BODY"), { metaKey: true })).toBe(true);
    expect(press("d", el("BODY"), { altKey: true })).toBe(true);
    expect(press("d", el("BUTTON", { inside: ".modal" }))).toBe(true);
  });

  it("leaves arrows to tab lists, but not letters", () => {
    expect(press("ArrowLeft", el("BUTTON", { inside: "tablist" }))).toBe(true);
    expect(press("d", el("BUTTON", { inside: "tablist" }))).toBe(false);
  });
});
