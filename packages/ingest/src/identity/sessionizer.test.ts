import { describe, expect, it } from "vitest";
import { createSessionizer } from "./sessionizer.js";

const MIN = 60_000;
const t0 = new Date("2025-03-01T12:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * MIN);

describe("sessionizer", () => {
  it("keeps a visit together across gaps under 30 minutes", () => {
    const s = createSessionizer();
    const a = s.assign("p", "v", at(0));
    expect(s.assign("p", "v", at(29))).toBe(a);
    expect(s.assign("p", "v", at(58))).toBe(a); // each gap counts from the last event
  });

  it("starts a new visit after a gap of 30 minutes or more", () => {
    const s = createSessionizer();
    const a = s.assign("p", "v", at(0));
    const b = s.assign("p", "v", at(31));
    expect(b).not.toBe(a);
    expect(s.assign("p", "v", at(61))).not.toBe(b); // exactly 30 minutes: new visit
  });

  it("separates visitors and properties and uses random ids", () => {
    const s = createSessionizer();
    const ids = new Set([s.assign("p", "v1", t0), s.assign("p", "v2", t0), s.assign("q", "v1", t0)]);
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("puts slightly late events into the visit and does not let very late ones rewind it", () => {
    const s = createSessionizer();
    const a = s.assign("p", "v", at(10));
    expect(s.assign("p", "v", at(5))).toBe(a);
    expect(s.assign("p", "v", at(-60))).not.toBe(a);
    expect(s.assign("p", "v", at(20))).toBe(a);
  });

  it("forgets the least recently seen visitor past its bound", () => {
    const s = createSessionizer({ maxEntries: 2 });
    const a = s.assign("p", "a", t0);
    const b = s.assign("p", "b", t0);
    s.assign("p", "a", at(1)); // a is now the most recent
    s.assign("p", "c", at(1)); // evicts b
    expect(s.assign("p", "a", at(2))).toBe(a);
    expect(s.assign("p", "b", at(2))).not.toBe(b); // forgotten: a new visit
  });

  it("continues warmed visits after a restart, keeping the newer state", async () => {
    const s = createSessionizer();
    await s.warm([
      { property: "p", visitor_id: "v", session_id: "warm-1", last_ts: at(0) },
      { property: "p", visitor_id: "w", session_id: "warm-2", last_ts: at(-40) },
    ]);
    expect(s.assign("p", "v", at(10))).toBe("warm-1");
    expect(s.assign("p", "w", at(0))).not.toBe("warm-2");
    await s.warm([{ property: "p", visitor_id: "v", session_id: "stale", last_ts: at(-5) }]);
    expect(s.assign("p", "v", at(12))).toBe("warm-1");
  });
});
