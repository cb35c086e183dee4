// The quota ladder as a table: Plausible's worked example (research/peers.md §5.1, a 10 000
// event plan) and the ways out (an upgrade, a period back under the margin, a payment).
import { describe, expect, it } from "vitest";
import { type Grace, type LadderInput, limitWithMargin, quotaLadder } from "./ladder.js";

const NOW = new Date("2026-06-10T00:00:00Z");
const DAY = 86_400_000;
const base: LadderInput = {
  limit: 10_000,
  current: 0,
  last: null,
  penultimate: null,
  grace: null,
  paymentFailed: false,
  now: NOW,
};
const usageGrace = (endsInDays: number): Grace => ({ endsAt: new Date(NOW.getTime() + endsInDays * DAY), reason: "usage" });

describe("quota ladder", () => {
  it("margins in integers", () => {
    expect([limitWithMargin(10_000), limitWithMargin(100), limitWithMargin(1), limitWithMargin(15)]).toEqual([
      11_000, 110, 2, 17,
    ]);
  });

  it.each([
    // [what, input, status, notice, grace starts/keeps, thresholds]
    ["under 80 %", { current: 7_999 }, "active", null, false, []],
    ["80 %", { current: 8_000 }, "active", "approaching_80", false, [80]],
    ["9 000: approaching", { current: 9_000 }, "active", "approaching_90", false, [80, 90]],
    ["the limit reached", { current: 10_000 }, "active", "reached_100", false, [80, 90, 100]],
    ["10 500 once: exceeded last period", { last: 10_500, penultimate: 4_000 }, "active", "exceeded_last_period", false, []],
    ["10 500 + 10 200: sustained, no lock", { penultimate: 10_500, last: 10_200 }, "active", "sustained", false, []],
    ["12 000 + 11 500: grace", { penultimate: 12_000, last: 11_500 }, "grace", "grace", true, []],
    ["exactly the margin twice: grace", { penultimate: 11_000, last: 11_000 }, "grace", "grace", true, []],
    ["a margin short once: no grace", { penultimate: 11_000, last: 10_999 }, "active", "sustained", false, []],
    ["only one complete period: no grace", { penultimate: null, last: 50_000 }, "active", "exceeded_last_period", false, []],
    ["unlimited", { limit: null, current: 10 ** 9, last: 10 ** 9, penultimate: 10 ** 9 }, "active", null, false, []],
    ["a failed payment: grace", { paymentFailed: true }, "grace", "payment_failed", true, []],
    ["at the property limit", { propertyLimitReached: true }, "active", "property_limit", false, []],
    [
      "at both limits",
      { propertyLimitReached: true, memberLimitReached: true },
      "active",
      "property_and_member_limit",
      false,
      [],
    ],
  ] as const)("%s", (_what, over, status, notice, graceRuns, thresholds) => {
    const r = quotaLadder({ ...base, ...over });
    expect([r.status, r.notice, r.grace !== null, r.thresholds]).toEqual([status, notice, graceRuns, thresholds]);
    if (graceRuns && !("grace" in over)) expect(r.grace?.endsAt.getTime()).toBe(NOW.getTime() + 7 * DAY);
  });

  it("12 000 + 11 500: locked once the 7 days of grace are over, collection untouched", () => {
    const started = quotaLadder({ ...base, penultimate: 12_000, last: 11_500 });
    const grace = started.grace as Grace;
    const day6 = quotaLadder({ ...base, penultimate: 12_000, last: 11_500, grace, now: new Date(NOW.getTime() + 6 * DAY) });
    expect([day6.status, day6.grace]).toEqual(["grace", grace]);
    const day7 = quotaLadder({ ...base, penultimate: 12_000, last: 11_500, grace, now: new Date(NOW.getTime() + 7 * DAY) });
    expect([day7.status, day7.notice, day7.grace]).toEqual(["locked", "locked", grace]);
  });

  it("an upgrade unlocks at once", () => {
    const r = quotaLadder({ ...base, limit: 100_000, penultimate: 12_000, last: 11_500, grace: usageGrace(-1) });
    expect([r.status, r.grace, r.notice]).toEqual(["active", null, null]);
  });

  it("a complete period back under the margin unlocks at once", () => {
    // The next period: the last one is now the one that was current during the lock.
    const r = quotaLadder({ ...base, penultimate: 11_500, last: 10_900, grace: usageGrace(-3) });
    expect([r.status, r.grace]).toEqual(["active", null]);
    expect(r.notice).toBe("sustained");
  });

  it("a payment that goes through ends a payment grace; usage over the margin keeps it running", () => {
    const paymentGrace: Grace = { endsAt: new Date(NOW.getTime() + 2 * DAY), reason: "payment" };
    expect(quotaLadder({ ...base, grace: paymentGrace }).status).toBe("active");
    const r = quotaLadder({ ...base, grace: paymentGrace, penultimate: 12_000, last: 12_000 });
    expect([r.status, r.grace]).toEqual(["grace", { endsAt: paymentGrace.endsAt, reason: "usage" }]);
  });
});
