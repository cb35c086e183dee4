// wallMs reuses one offset per UTC hour: for any instant it must say what Intl says, in zones with
// DST, half-hour and quarter-hour offsets, historic local mean time (offsets with seconds) and
// instants at and around the changes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { intlWallMs, offsetSegments, wallMs } from "./tz.js";

const ZONES = [
  "UTC",
  "America/New_York",
  "Europe/Dublin",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "America/St_Johns",
  "Africa/Monrovia",
  "Pacific/Apia",
];
const FROM = Date.UTC(1880, 0, 1);
const TO = Date.UTC(2060, 0, 1);

describe("wallMs", () => {
  it("says what Intl says for any instant", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: TO }), (tz, t) => {
        expect(wallMs(tz, t)).toBe(intlWallMs(tz, t));
      }),
      { numRuns: 5000 },
    );
  });

  it("says what Intl says a millisecond either side of every offset change of 2020-2025", () => {
    for (const tz of ZONES) {
      const changes = offsetSegments(tz, Date.UTC(2020, 0, 1), Date.UTC(2025, 0, 1)).flatMap((s) => s.untilMs ?? []);
      for (const change of changes) {
        for (const t of [change - 3_600_001, change - 1, change, change + 1, change + 3_599_999]) {
          expect(wallMs(tz, t), `${tz} at ${new Date(t).toISOString()}`).toBe(intlWallMs(tz, t));
        }
      }
    }
  });
});
