// The world map's geometry: the antimeridian fix of its rings and where a country's marker goes.
import { describe, expect, it } from "vitest";
import { centreOf, pinAntimeridian } from "./world-map";

describe("pinAntimeridian", () => {
  it("leaves ordinary rings alone", () => {
    const ring = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 10],
    ];
    expect(pinAntimeridian(ring)).toBe(ring);
  });

  it("pins the far-side points of a mostly eastern ring to +180", () => {
    expect(
      pinAntimeridian([
        [170, 60],
        [179, 60],
        [-179, 61],
        [178, 62],
        [170, 60],
      ]),
    ).toEqual([
      [170, 60],
      [179, 60],
      [180, 61],
      [178, 62],
      [170, 60],
    ]);
  });

  it("pins the far-side points of a mostly western ring to -180", () => {
    expect(
      pinAntimeridian([
        [-170, -16],
        [-179, -16],
        [179, -17],
        [-170, -16],
      ]),
    ).toEqual([
      [-170, -16],
      [-179, -16],
      [-180, -17],
      [-170, -16],
    ]);
  });
});

describe("centreOf", () => {
  it("takes the middle of the largest part", () => {
    expect(
      centreOf({
        type: "MultiPolygon",
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
          [
            [
              [10, 10],
              [20, 10],
              [20, 30],
              [10, 10],
            ],
          ],
        ],
      }),
    ).toEqual([15, 20]);
    expect(centreOf({ type: "Point", coordinates: [1, 2] })).toBeUndefined();
  });
});
