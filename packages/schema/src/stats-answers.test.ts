// The Stats API answers as the server shapes them, and the surprises a client must refuse.
import { describe, expect, it } from "vitest";
import {
  AggregateAnswerSchema,
  BreakdownAnswerSchema,
  RealtimeVisitorsAnswerSchema,
  TimeseriesAnswerSchema,
} from "./stats-answers.js";

describe("Stats API answers", () => {
  it("reads an aggregate with and without a comparison", () => {
    const answer = {
      results: {
        visitors: { value: 12, comparison: 10, change: 20 },
        bounce_rate: { value: 41.5, comparison: null, change: null },
      },
    };
    expect(AggregateAnswerSchema.parse(answer)).toEqual(answer);
    expect(
      AggregateAnswerSchema.safeParse({ results: { visitors: { value: "12", comparison: null, change: null } } }).success,
    ).toBe(false);
    expect(AggregateAnswerSchema.safeParse({ results: { clicks: { value: 1, comparison: null, change: null } } }).success).toBe(
      false,
    );
    expect(AggregateAnswerSchema.safeParse({ visitors: 1 }).success).toBe(false);
  });

  it("reads timeseries points, their comparison buckets and a missing comparison", () => {
    const answer = {
      results: [
        { date: "2024-03-11", visitors: 3, comparison: { date: "2024-03-04", visitors: 1 } },
        { date: "2024-03-12", visitors: 0, comparison: null },
        { date: "2024-03-13", visitors: 0 },
      ],
    };
    expect(TimeseriesAnswerSchema.parse(answer)).toEqual(answer);
    expect(TimeseriesAnswerSchema.safeParse({ results: [{ visitors: 1 }] }).success).toBe(false);
    expect(TimeseriesAnswerSchema.safeParse({ results: [{ date: "x", visitors: Number.NaN }] }).success).toBe(false);
  });

  it("reads breakdown rows keyed by the dimension's name", () => {
    const answer = {
      results: [
        { page: "/", visitors: 4, pageviews: 9 },
        { page: "", visitors: 1, pageviews: 1 },
      ],
    };
    expect(BreakdownAnswerSchema.parse(answer)).toEqual(answer);
    expect(BreakdownAnswerSchema.safeParse({ results: [{ page: null }] }).success).toBe(false);
    expect(BreakdownAnswerSchema.safeParse({ results: {} }).success).toBe(false);
  });

  it("reads the realtime count", () => {
    expect(RealtimeVisitorsAnswerSchema.parse(3)).toBe(3);
    expect(RealtimeVisitorsAnswerSchema.safeParse(-1).success).toBe(false);
    expect(RealtimeVisitorsAnswerSchema.safeParse("3").success).toBe(false);
  });
});
