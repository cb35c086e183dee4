import { describe, expect, it } from "vitest";
import { DailySalts, MemorySaltStore, type SaltStore, utcDay } from "./salts.js";

const HOUR = 3_600_000;

describe("MemorySaltStore", () => {
  it("creates one random salt per day and keeps it", async () => {
    const store = new MemorySaltStore();
    const a = await store.forDay("2025-03-01");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.forDay("2025-03-01")).toBe(a);
    expect(await store.forDay("2025-03-02")).not.toBe(a);
  });
});

describe("DailySalts", () => {
  it("rotates at UTC midnight", async () => {
    const salts = new DailySalts(new MemorySaltStore());
    const morning = await salts.salt(new Date("2025-03-01T00:00:01Z"));
    expect(await salts.salt(new Date("2025-03-01T23:59:59Z"))).toBe(morning);
    expect(await salts.salt(new Date("2025-03-02T00:00:00Z"))).not.toBe(morning);
    expect(utcDay(new Date("2025-03-01T23:59:59-05:00"))).toBe("2025-03-02");
  });

  it("deletes salts 48 hours after creation, so an old day can never be recomputed", async () => {
    let now = new Date("2025-03-01T10:00:00Z");
    const store = new MemorySaltStore(() => now);
    const salts = new DailySalts(store);
    const first = await salts.salt(now);

    now = new Date(now.getTime() + 47 * HOUR);
    await salts.salt(now);
    expect(store.days()).toEqual(["2025-03-01", "2025-03-03"]);

    now = new Date(now.getTime() + 2 * HOUR); // 49 h after the first salt was made
    await salts.salt(now);
    expect(store.days()).toEqual(["2025-03-03"]);
    // Asking for the deleted day again yields a new, unrelated salt.
    expect(await store.forDay("2025-03-01")).not.toBe(first);
  });

  it("reads the store once per day, not once per event", async () => {
    let reads = 0;
    const inner = new MemorySaltStore();
    const counting: SaltStore = {
      forDay: (d) => {
        reads++;
        return inner.forDay(d);
      },
      deleteOlderThan: (c) => inner.deleteOlderThan(c),
    };
    const salts = new DailySalts(counting);
    const t = new Date("2025-03-01T10:00:00Z");
    await Promise.all(Array.from({ length: 100 }, () => salts.salt(t)));
    expect(reads).toBe(1);
  });

  it("retries a failed store read and survives a failing purge", async () => {
    let fail = true;
    const store: SaltStore = {
      forDay: async () => {
        if (fail) throw new Error("db down");
        return "s";
      },
      deleteOlderThan: async () => {
        throw new Error("db down");
      },
    };
    const salts = new DailySalts(store);
    const t = new Date("2025-03-01T10:00:00Z");
    await expect(salts.salt(t)).rejects.toThrow("db down");
    fail = false;
    expect(await salts.salt(t)).toBe("s");
  });
});
