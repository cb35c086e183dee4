// The Live View's client-side figures: tops, countries, recently left, and the per-minute series.
import { liveCount } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { liveVisitor } from "../../lib/test-live-visitor";
import {
  activeVisitors,
  describeDevice,
  formatAgo,
  formatDuration,
  ofProperty,
  perMinute,
  recentlyLeft,
  topCountries,
  topPages,
  topSources,
  uncountedActive,
  uncountedNote,
} from "./live-stats";
import type { LiveEntry } from "./live-store";

const MIN = 60_000;
const NOW = 1_700_000_000_000 - (1_700_000_000_000 % MIN) + 30_000; // half past a minute

const entry = (clientid: string, over: Partial<LiveEntry> = {}) =>
  liveVisitor<LiveEntry>(clientid, { arrivedAt: NOW - 5 * MIN, lastSeen: NOW, ...over });

describe("tops", () => {
  const list = [
    entry("a", { page: "/pricing", source: "Google" }),
    entry("b", { page: "/pricing", source: "Google" }),
    entry("c", { page: "/", source: "Direct / None", country: "FR" }),
    entry("d", { page: "/blog", active: false, source: "Google" }),
    entry("e", { page: "/", country: undefined }),
  ];

  it("ranks pages and sources by active visitors", () => {
    expect(topPages(list)).toEqual([
      { label: "/", visitors: 2 },
      { label: "/pricing", visitors: 2 },
    ]);
    expect(topSources(list)).toEqual([
      { label: "Direct / None", visitors: 2 },
      { label: "Google", visitors: 2 },
    ]);
  });

  it("counts countries of active visitors that have one", () => {
    expect(topCountries(list)).toEqual([
      { label: "DE", visitors: 2 },
      { label: "FR", visitors: 1 },
    ]);
    expect(uncountedActive(list)).toBe(1);
  });

  it("counts a repeated clientid once", () => {
    expect(topPages([entry("a", { page: "/x" }), entry("a", { page: "/x", propertyId: "p1" })])).toEqual([
      { label: "/x", visitors: 1 },
    ]);
  });
});

describe("who the live count leaves out", () => {
  // SPEC.md §5: the count is distinct active clientids of the property with a country.
  const list = [
    entry("a"),
    entry("b", { country: undefined }),
    entry("c", { country: undefined }),
    entry("d", { country: undefined, active: false }),
    entry("e", { country: undefined, propertyId: "p2" }),
  ];
  const mine = ofProperty(list, "p1");

  it("counts active visitors of the property without a country, beside the count", () => {
    expect(liveCount(list, "p1")).toBe(1);
    expect(uncountedActive(mine)).toBe(2);
    expect(uncountedNote(uncountedActive(mine))).toBe("+ 2 live visitors whose country is unknown, not in this count");
  });

  it("says nothing when everyone is counted, and speaks of one visitor in the singular", () => {
    expect(uncountedNote(uncountedActive([entry("a")]))).toBeNull();
    expect(uncountedNote(0)).toBeNull();
    expect(uncountedNote(1)).toBe("+ 1 live visitor whose country is unknown, not in this count");
  });

  it("adds up with the count to everyone active on the property", () => {
    expect(liveCount(mine, "p1") + uncountedActive(mine)).toBe(activeVisitors(mine).length);
  });
});

describe("visitor lists", () => {
  it("lists active visitors newest first", () => {
    const list = [
      entry("old", { arrivedAt: NOW - 9 * MIN }),
      entry("new", { arrivedAt: NOW - MIN }),
      entry("gone", { active: false }),
    ];
    expect(activeVisitors(list).map((e) => e.clientid)).toEqual(["new", "old"]);
  });

  it("lists who left in the last 30 minutes, most recent first", () => {
    const list = [
      entry("a", { active: false, leftAt: NOW - 2 * MIN }),
      entry("b", { active: false, leftAt: NOW - 31 * MIN }),
      entry("c", { active: false, leftAt: NOW - MIN }),
      entry("d"),
    ];
    expect(recentlyLeft(list, NOW).map((e) => e.clientid)).toEqual(["c", "a"]);
  });
});

describe("per minute", () => {
  it("has 30 buckets ending with the current minute", () => {
    const buckets = perMinute([], NOW);
    expect(buckets).toHaveLength(30);
    expect(buckets.at(-1)!.start).toBe(NOW - 30_000);
    expect(buckets[0]!.start).toBe(NOW - 30_000 - 29 * MIN);
  });

  it("counts arrivals in their minute and presence until they left or now", () => {
    const buckets = perMinute(
      [
        entry("a", { arrivedAt: NOW - 3 * MIN }), // active for the last 4 minutes
        entry("b", { arrivedAt: NOW - 10 * MIN, active: false, leftAt: NOW - 8 * MIN }),
        entry("c", { arrivedAt: NOW - 60 * MIN }), // arrived before the window, still here
      ],
      NOW,
    );
    const at = (minutesAgo: number) => buckets[29 - minutesAgo]!;
    expect(at(3)).toMatchObject({ arrivals: 1, active: 2 });
    expect(at(0)).toMatchObject({ arrivals: 0, active: 2 });
    expect(at(10)).toMatchObject({ arrivals: 1, active: 2 });
    expect(at(8)).toMatchObject({ arrivals: 0, active: 2 });
    expect(at(7)).toMatchObject({ arrivals: 0, active: 1 });
    expect(at(29)).toMatchObject({ arrivals: 0, active: 1 });
    expect(buckets.reduce((n, b) => n + b.arrivals, 0)).toBe(2);
  });

  it("uses lastSeen for a departure of unknown time and clamps future timestamps", () => {
    const buckets = perMinute(
      [
        entry("a", { arrivedAt: NOW - 5 * MIN, active: false, lastSeen: NOW - 4 * MIN }),
        entry("b", { arrivedAt: NOW + 5 * MIN }), // a server clock ahead of ours
      ],
      NOW,
    );
    expect(buckets[29 - 5]!.active).toBe(1);
    expect(buckets[29 - 3]!.active).toBe(0);
    expect(buckets[29]).toMatchObject({ arrivals: 1, active: 1 });
  });
});

describe("formatting", () => {
  it("formats durations", () => {
    expect(formatDuration(-5)).toBe("0s");
    expect(formatDuration(45_900)).toBe("45s");
    expect(formatDuration(185_000)).toBe("3m 05s");
    expect(formatDuration(3_720_000)).toBe("1h 02m");
  });

  it("formats how long ago", () => {
    expect(formatAgo(10_000)).toBe("just now");
    expect(formatAgo(2 * MIN)).toBe("2 min ago");
    expect(formatAgo(125 * MIN)).toBe("2 h ago");
  });

  it("describes devices, skipping unknown parts", () => {
    expect(describeDevice({ device: "mobile", browser: "Safari", os: "iOS" })).toBe("Mobile · Safari · iOS");
    expect(describeDevice({ device: "", browser: "Unknown", os: "" })).toBe("Unknown device");
  });
});
