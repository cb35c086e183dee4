// bucketLabeller answers bucketOf for many instants from one label per local hour (per minute for
// minute buckets): the same label for any instant, across DST changes and half-hour zones.
import { INTERVALS } from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketLabeller, bucketOf } from "./buckets.js";

const ZONES = ["UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"];
const FROM = Date.UTC(2023, 0, 1);
const TO = Date.UTC(2026, 0, 1);

describe("bucketLabeller", () => {
  it("labels every instant as bucketOf does", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INTERVALS),
        fc.constantFrom(...ZONES),
        fc.array(fc.integer({ min: FROM, max: TO }), { minLength: 1, maxLength: 50 }),
        (interval, tz, instants) => {
          const label = bucketLabeller(interval, tz);
          // Instants close together share hours: the memo is exercised, not just filled.
          for (const t of [...instants, ...instants.map((x) => x + 1_234_567)]) {
            expect(label(t)).toBe(bucketOf(interval, tz, new Date(t)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
