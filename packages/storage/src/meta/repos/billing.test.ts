// The billing repository on PGlite (Postgres): the subscription upsert keeps what a patch does
// not name, e-mails and webhook events are claimed once, stored usage reads back by period.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MetaStore, openMetaStore } from "../meta-store.js";

let meta: MetaStore;
let accountId: string;

beforeAll(async () => {
  meta = await openMetaStore({ kind: "pglite", dir: null });
  const user = await meta.users.create({ email: "owner@example.com", passwordHash: "x" });
  accountId = (await meta.accounts.createWithOwner(user.id, "Acme")).id;
}, 60_000);
afterAll(async () => {
  await meta?.close();
});

describe("billing repository", () => {
  it("upserts the subscription, keeping what a patch leaves out", async () => {
    // Every account has its row from the start (accounts.createWithOwner), on no plan yet.
    expect((await meta.billing.subscription(accountId))?.plan).toBe("self-hosted");
    const anchor = new Date("2026-01-10T00:00:00Z");
    await meta.billing.upsertSubscription(accountId, "growth", { plan: "growth", anchor, provider_customer_id: "cus_1" });
    const graceEnds = new Date("2026-03-01T00:00:00Z");
    const row = await meta.billing.upsertSubscription(accountId, "growth", { grace_ends_at: graceEnds, grace_reason: "usage" });
    expect(row.plan).toBe("growth");
    expect(new Date(row.anchor as Date).toISOString()).toBe(anchor.toISOString());
    expect(new Date(row.grace_ends_at as Date).toISOString()).toBe(graceEnds.toISOString());
    expect(row.payment_failed).toBe(false);
    expect(await meta.billing.accountOfCustomer("cus_1")).toBe(accountId);
    expect(await meta.billing.accountOfCustomer("cus_2")).toBeUndefined();
  });

  it("claims each e-mail once per period and kind, and gives a claim back", async () => {
    const p = new Date("2026-02-10T00:00:00Z");
    expect(await meta.billing.claimMail(accountId, p, "threshold_80")).toBe(true);
    expect(await meta.billing.claimMail(accountId, p, "threshold_80")).toBe(false);
    expect(await meta.billing.claimMail(accountId, new Date("2026-03-10T00:00:00Z"), "threshold_80")).toBe(true);
    await meta.billing.releaseMail(accountId, p, "threshold_80");
    expect(await meta.billing.claimMail(accountId, p, "threshold_80")).toBe(true);
  });

  it("recognises a replayed webhook event by its id", async () => {
    expect(await meta.billing.recordWebhookEvent("evt_1", "invoice.paid")).toBe(true);
    expect(await meta.billing.recordWebhookEvent("evt_1", "invoice.paid")).toBe(false);
  });

  it("stores usage per period and invoices newest first", async () => {
    const a = new Date("2026-01-10T00:00:00Z");
    const b = new Date("2026-02-10T00:00:00Z");
    await meta.billing.saveUsage(accountId, a, b, 12_000);
    await meta.billing.saveUsage(accountId, a, b, 12_001);
    expect([...(await meta.billing.usage(accountId, [a, b]))]).toEqual([[a.getTime(), 12_001]]);
    await meta.billing.upsertInvoice({
      id: "in_1",
      account_id: accountId,
      number: "A-1",
      amount: 900,
      currency: "usd",
      status: "open",
      url: null,
      created_at: a,
    });
    await meta.billing.upsertInvoice({
      id: "in_2",
      account_id: accountId,
      number: "A-2",
      amount: 1900,
      currency: "usd",
      status: "paid",
      url: "https://pay.test/in_2",
      created_at: b,
    });
    await meta.billing.upsertInvoice({
      id: "in_1",
      account_id: accountId,
      number: "A-1",
      amount: 900,
      currency: "usd",
      status: "paid",
      url: null,
      created_at: a,
    });
    const list = await meta.billing.invoices(accountId);
    expect(list.map((i) => [i.id, i.status, i.amount])).toEqual([
      ["in_2", "paid", 1900],
      ["in_1", "paid", 900],
    ]);
  });
});
