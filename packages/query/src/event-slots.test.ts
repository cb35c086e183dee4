// slotCover and slotAligned (event-slots.ts): which stretches of a range whole quarter hours cover,
// what is left to read from events, and which timezones' buckets fall on quarter hours.
import { describe, expect, it } from "vitest";
import { SLOT_MS, slotAligned, slotCover } from "./event-slots.js";
import { offsetSegments } from "./tz.js";

const T = Date.parse("2024-05-20T00:00:00Z");
const q = (n: number) => T + n * SLOT_MS;
const MIN = 60_000;

describe("slotCover", () => {
  it("takes a span on slot boundaries whole, and leaves no pieces", () => {
    expect(slotCover([{ from: q(0), to: q(96) }])).toEqual({ slots: [{ from: q(0), to: q(96) }], pieces: [] });
  });

  it("leaves the ends off the boundaries as pieces, each inside one slot", () => {
    const from = q(2) + 7 * MIN + 13_000;
    const to = q(10) + 1;
    const c = slotCover([{ from, to }]);
    expect(c).toEqual({
      slots: [{ from: q(3), to: q(10) }],
      pieces: [
        { from, to: q(3) },
        { from: q(10), to },
      ],
    });
    for (const p of c.pieces) expect(Math.floor(p.from / SLOT_MS)).toBe(Math.floor((p.to - 1) / SLOT_MS));
  });

  it("reads a span inside one slot as one piece, and one over a single boundary as two", () => {
    expect(slotCover([{ from: q(1) + MIN, to: q(1) + 2 * MIN }])).toEqual({
      slots: [],
      pieces: [{ from: q(1) + MIN, to: q(1) + 2 * MIN }],
    });
    expect(slotCover([{ from: q(1) + MIN, to: q(2) + MIN }])).toEqual({
      slots: [],
      pieces: [
        { from: q(1) + MIN, to: q(2) },
        { from: q(2), to: q(2) + MIN },
      ],
    });
  });

  it("joins adjacent runs, keeps a cut inside a slot as two pieces, and skips empty spans", () => {
    // A comparison's earlier period cut where its total stops (until), then this period.
    const until = q(40) + 5 * MIN;
    const c = slotCover([
      { from: q(0), to: until },
      { from: until, to: q(96) },
      { from: q(96), to: q(192) },
      { from: q(200), to: q(200) },
    ]);
    expect(c.slots).toEqual([
      { from: q(0), to: q(40) },
      { from: q(41), to: q(192) },
    ]);
    expect(c.pieces).toEqual([
      { from: q(40), to: until },
      { from: until, to: q(41) },
    ]);
  });
});

describe("slotAligned", () => {
  const year = (tz: string) => offsetSegments(tz, Date.parse("2024-01-01T00:00:00Z"), Date.parse("2025-01-01T00:00:00Z"));
  it("holds for whole-, half- and three-quarter-hour offsets and their DST changes", () => {
    for (const tz of ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide"])
      expect([tz, slotAligned(year(tz))]).toEqual([tz, true]);
  });
  it("fails for an offset or a change off a quarter hour", () => {
    expect(slotAligned([{ offsetMinutes: 7, untilMs: null }])).toBe(false);
    expect(
      slotAligned([
        { offsetMinutes: 60, untilMs: q(3) + MIN },
        { offsetMinutes: 120, untilMs: null },
      ]),
    ).toBe(false);
  });
});
