// Report deliveries, the record that makes the at-least-once job queue send a report once per
// recipient: who may take a delivery for sending, and when an abandoned one can be taken again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetaStore, openMetaStore } from "../meta-store.js";
import { reportSchedulesRepo } from "./report-schedules.js";

let meta: MetaStore;
let scheduleId: string;
let repo: ReturnType<typeof reportSchedulesRepo>;

beforeAll(async () => {
  meta = await openMetaStore({ kind: "pglite", dir: null });
  repo = reportSchedulesRepo(meta.db);
  const user = await meta.users.create({ email: "owner@example.com", passwordHash: "x" });
  const account = await meta.accounts.createWithOwner(user.id, "Acme");
  const property = await meta.properties.create({
    accountId: account.id,
    name: "Shop",
    websiteUrl: "https://shop.test",
    timezone: "UTC",
  });
  const s = await repo.upsert({
    propertyId: property.id,
    frequency: "weekly",
    recipients: ["Ann@example.com", "ben@example.com"],
    sendHour: 9,
  });
  scheduleId = s.id;
}, 60_000);
afterAll(async () => {
  await meta?.close();
});

describe("report deliveries", () => {
  it("are taken once; a failed one again; a sent one never", async () => {
    const d = repo.deliveries;
    expect(await d.claim(scheduleId, "2026-W44", "ann@example.com", 60_000)).toBe("claimed");
    expect(await d.claim(scheduleId, "2026-W44", "ANN@example.com", 60_000)).toBe("busy");
    await d.finish(scheduleId, "2026-W44", "ann@example.com", "failed");
    expect(await d.claim(scheduleId, "2026-W44", "ann@example.com", 60_000)).toBe("claimed");
    await d.finish(scheduleId, "2026-W44", "Ann@example.com", "sent");
    expect(await d.claim(scheduleId, "2026-W44", "ann@example.com", 0)).toBe("sent");
    expect(await d.sentTo(scheduleId, "2026-W44")).toEqual(["ann@example.com"]);
  });

  it("take back a 'sending' delivery only once it is older than the lock (its sender died)", async () => {
    const d = repo.deliveries;
    expect(await d.claim(scheduleId, "2026-W44", "ben@example.com", 60_000)).toBe("claimed");
    expect(await d.claim(scheduleId, "2026-W44", "ben@example.com", 60_000)).toBe("busy");
    await new Promise((r) => setTimeout(r, 20));
    expect(await d.claim(scheduleId, "2026-W44", "ben@example.com", 10)).toBe("claimed");
  });

  it("move the last sent period forward only, and drop one recipient ignoring case", async () => {
    await repo.markPeriodSent(scheduleId, "2026-W44");
    await repo.markPeriodSent(scheduleId, "2026-W43");
    expect((await repo.get(scheduleId))?.last_sent_period).toBe("2026-W44");
    expect(await repo.removeRecipient(scheduleId, "ann@EXAMPLE.com")).toBe(true);
    expect(await repo.removeRecipient(scheduleId, "ann@example.com")).toBe(false);
    expect((await repo.get(scheduleId))?.recipients).toEqual(["ben@example.com"]);
  });
});
