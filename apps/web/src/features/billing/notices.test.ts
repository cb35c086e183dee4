import { BILLING_NOTICE_KINDS } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { DISMISSED_KEY, dismissKey, isDismissible, readDismissed, withDismissed } from "./notices";

describe("isDismissible", () => {
  it("keeps the notices that ask for action now, and lets every other kind go", () => {
    const staying = BILLING_NOTICE_KINDS.filter((k) => !isDismissible(k));
    expect(staying).toEqual(["locked", "grace", "payment_failed"]);
  });
});

describe("dismissKey", () => {
  it("keys a dismissal by account, period and kind", () => {
    const keys = [
      dismissKey("acc1", "approaching_80", "2026-11-01T00:00:00.000Z"),
      dismissKey("acc1", "approaching_90", "2026-11-01T00:00:00.000Z"),
      dismissKey("acc1", "approaching_80", "2026-12-01T00:00:00.000Z"),
      dismissKey("acc2", "approaching_80", "2026-11-01T00:00:00.000Z"),
    ];
    expect(keys[0]).toBe("acc1:2026-11-01:approaching_80");
    expect(new Set(keys).size).toBe(4);
  });

  it("has no key for a notice that stays", () => {
    expect(dismissKey("acc1", "locked", "2026-11-01T00:00:00.000Z")).toBeNull();
    expect(dismissKey("acc1", "grace", null)).toBeNull();
  });

  it("still keys by kind when the period is not known", () => {
    expect(dismissKey("acc1", "reached_100", undefined)).toBe("acc1:-:reached_100");
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
