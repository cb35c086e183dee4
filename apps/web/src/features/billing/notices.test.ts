import { describe, expect, it } from "vitest";
import { DISMISSED_KEY, type NoticeInput, noticeFor, readDismissed, thresholdReached, withDismissed } from "./notices";

const base: NoticeInput = {
  accountId: "acc1",
  status: "active",
  graceEndsAt: null,
  limit: 10_000,
  events: 0,
  periodStart: "2026-11-01T00:00:00.000Z",
};

describe("thresholdReached", () => {
  it("is exact at each edge", () => {
    expect(thresholdReached(7_999, 10_000)).toBeNull();
    expect(thresholdReached(8_000, 10_000)).toBe(80);
    expect(thresholdReached(8_999, 10_000)).toBe(80);
    expect(thresholdReached(9_000, 10_000)).toBe(90);
    expect(thresholdReached(9_999, 10_000)).toBe(90);
    expect(thresholdReached(10_000, 10_000)).toBe(100);
    expect(thresholdReached(25_000, 10_000)).toBe(100);
  });

  it("is exact where a float would round (a limit that is not a multiple of 10)", () => {
    // 0.8 × 3 = 2.4000000000000004 as a float; 2.4 events cannot happen, 3 reaches 80 %.
    expect(thresholdReached(2, 3)).toBeNull();
    expect(thresholdReached(3, 3)).toBe(100);
    expect(thresholdReached(8, 10)).toBe(80);
  });

  it("never fires without a limit", () => {
    expect(thresholdReached(1_000_000, null)).toBeNull();
    expect(thresholdReached(1, 0)).toBeNull();
  });
});

describe("noticeFor", () => {
  it("follows Plausible's worked example for a 10k plan: 9 000 approaches the limit", () => {
    expect(noticeFor({ ...base, events: 9_000 })).toMatchObject({ kind: "usage-90", tone: "warning", percent: 90 });
    expect(noticeFor({ ...base, events: 10_500 })).toMatchObject({ kind: "usage-100", tone: "danger" });
    expect(noticeFor({ ...base, events: 8_000 })).toMatchObject({ kind: "usage-80", tone: "info" });
    expect(noticeFor({ ...base, events: 7_000 })).toBeNull();
  });

  it("puts a locked account before a grace period before usage, and neither can be dismissed", () => {
    expect(noticeFor({ ...base, status: "locked", events: 20_000 })).toEqual({
      kind: "locked",
      tone: "danger",
      percent: null,
      dismissKey: null,
    });
    expect(noticeFor({ ...base, status: "grace", graceEndsAt: "2026-11-08T00:00:00Z", events: 20_000 })).toMatchObject({
      kind: "grace",
      dismissKey: null,
    });
  });

  it("shows nothing self-hosted, whatever the usage", () => {
    expect(noticeFor({ ...base, status: "self_hosted", limit: null, events: 10_000_000 })).toBeNull();
  });

  it("keys a dismissal by account, period and threshold", () => {
    const at80 = noticeFor({ ...base, events: 8_100 });
    const at90 = noticeFor({ ...base, events: 9_100 });
    const nextPeriod = noticeFor({ ...base, events: 8_100, periodStart: "2026-12-01T00:00:00.000Z" });
    const otherAccount = noticeFor({ ...base, accountId: "acc2", events: 8_100 });
    expect(at80?.dismissKey).toBe("acc1:2026-11-01:80");
    const keys = new Set([at80, at90, nextPeriod, otherAccount].map((n) => n?.dismissKey));
    expect(keys.size).toBe(4);
  });
});

describe("dismissed notices in storage", () => {
  const store = (value: string | null) => ({ getItem: (k: string) => (k === DISMISSED_KEY ? value : null) });

  it("reads a stored list and ignores what is not one", () => {
    expect(readDismissed(store('["a","b"]'))).toEqual(["a", "b"]);
    expect(readDismissed(store('["a",3]'))).toEqual(["a"]);
    expect(readDismissed(store("{"))).toEqual([]);
    expect(readDismissed(store('{"a":1}'))).toEqual([]);
    expect(readDismissed(store(null))).toEqual([]);
    expect(readDismissed(null)).toEqual([]);
  });

  it("adds a key once and keeps the 50 most recent", () => {
    expect(withDismissed(["a", "b"], "a")).toEqual(["b", "a"]);
    const many = Array.from({ length: 60 }, (_, i) => `k${i}`);
    const kept = withDismissed(many, "new");
    expect(kept).toHaveLength(50);
    expect(kept.at(-1)).toBe("new");
    expect(kept[0]).toBe("k11");
  });
});
