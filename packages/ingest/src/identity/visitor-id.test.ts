import { describe, expect, it } from "vitest";
import { DailySalts, MemorySaltStore } from "./salts.js";
import { cookielessHash, VisitorIds } from "./visitor-id.js";

const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe("VisitorIds", () => {
  const base = { property: "p1", clientId: undefined, cookieless: true, ip: "81.2.69.160", userAgent: UA };

  it("uses the client id as the visitor when the property stores ids", async () => {
    const ids = new VisitorIds(new DailySalts(new MemorySaltStore()));
    const who = await ids.resolve({ ...base, cookieless: false, clientId: "abcdEFGH1234", now: new Date() });
    expect(who).toEqual({ visitor_id: "abcdEFGH1234", client_id: "abcdEFGH1234" });
  });

  it("hashes in cookieless mode even if a client id is sent, and when storage failed", async () => {
    const ids = new VisitorIds(new DailySalts(new MemorySaltStore()));
    const now = new Date("2025-03-01T12:00:00Z");
    const a = await ids.resolve({ ...base, clientId: "abcdEFGH1234", now });
    expect(a.visitor_id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.client_id).toBe(a.visitor_id);
    const b = await ids.resolve({ ...base, cookieless: false, now });
    expect(b.visitor_id).toBe(a.visitor_id);
  });

  it("is stable within a UTC day and changes across days", async () => {
    const ids = new VisitorIds(new DailySalts(new MemorySaltStore()));
    const morning = await ids.resolve({ ...base, now: new Date("2025-03-01T00:10:00Z") });
    const evening = await ids.resolve({ ...base, now: new Date("2025-03-01T23:50:00Z") });
    const nextDay = await ids.resolve({ ...base, now: new Date("2025-03-02T00:10:00Z") });
    expect(evening.visitor_id).toBe(morning.visitor_id);
    expect(nextDay.visitor_id).not.toBe(morning.visitor_id);
  });

  it("differs by property, IP and user agent", async () => {
    const ids = new VisitorIds(new DailySalts(new MemorySaltStore()));
    const now = new Date("2025-03-01T12:00:00Z");
    const v = async (o: Partial<typeof base>) => (await ids.resolve({ ...base, ...o, now })).visitor_id;
    const seen = new Set([
      await v({}),
      await v({ property: "p2" }),
      await v({ ip: "8.8.8.8" }),
      await v({ userAgent: `${UA} x` }),
    ]);
    expect(seen.size).toBe(4);
  });
});

describe("cookielessHash", () => {
  it("is an HMAC: deterministic for one salt, unrelated under another", () => {
    expect(cookielessHash("s1", "p", "1.2.3.4", "ua")).toBe(cookielessHash("s1", "p", "1.2.3.4", "ua"));
    expect(cookielessHash("s2", "p", "1.2.3.4", "ua")).not.toBe(cookielessHash("s1", "p", "1.2.3.4", "ua"));
  });

  it("cannot be forged by moving text between fields", () => {
    expect(cookielessHash("s", "p", "1.2.3.4", "ua")).not.toBe(cookielessHash("s", "p1.2.3.4", "", "ua"));
  });
});
