// Billing (DESIGN.md §3, issue #24): an account's subscription row (plan, provider ids, billing
// anchor, grace period, failed payment), its usage per complete billing period, the e-mails sent
// per period and kind (claimed before sending, so two servers send one), the provider's webhook
// event ids (a replay is recognised by its id) and the invoices the provider reported.
import type { Kysely, Selectable, Updateable } from "kysely";
import type { MetaDatabase, SubscriptionsTable } from "../tables.js";

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type SubscriptionPatch = Omit<Updateable<SubscriptionsTable>, "account_id" | "updated_at">;

export interface InvoiceRow {
  id: string;
  account_id: string;
  number: string | null;
  amount: number;
  currency: string;
  status: string;
  url: string | null;
  created_at: Date;
}

export function billingRepo(db: Kysely<MetaDatabase>) {
  return {
    subscription(accountId: string): Promise<SubscriptionRow | undefined> {
      return db.selectFrom("subscriptions").selectAll().where("account_id", "=", accountId).executeTakeFirst();
    },

    /** The account whose subscription has this provider customer id. */
    async accountOfCustomer(customerId: string): Promise<string | undefined> {
      const r = await db
        .selectFrom("subscriptions")
        .select("account_id")
        .where("provider_customer_id", "=", customerId)
        .executeTakeFirst();
      return r?.account_id;
    },

    /** Creates the row (plan `plan`, status "none" unless the patch says) or changes what `patch` names. */
    async upsertSubscription(accountId: string, plan: string, patch: SubscriptionPatch = {}): Promise<SubscriptionRow> {
      const now = new Date();
      return db
        .insertInto("subscriptions")
        .values({ account_id: accountId, plan, status: "none", ...patch, updated_at: now } as never)
        .onConflict((oc) => oc.column("account_id").doUpdateSet({ ...patch, updated_at: now } as never))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Stored usage of complete periods, by period start (epoch ms). */
    async usage(accountId: string, periodStarts: readonly Date[]): Promise<Map<number, number>> {
      if (periodStarts.length === 0) return new Map();
      const rows = await db
        .selectFrom("billing_usage")
        .select(["period_start", "events"])
        .where("account_id", "=", accountId)
        .where("period_start", "in", periodStarts)
        .execute();
      return new Map(rows.map((r) => [new Date(r.period_start).getTime(), Number(r.events)]));
    },

    async saveUsage(accountId: string, periodStart: Date, periodEnd: Date, events: number): Promise<void> {
      await db
        .insertInto("billing_usage")
        .values({ account_id: accountId, period_start: periodStart, period_end: periodEnd, events })
        .onConflict((oc) => oc.columns(["account_id", "period_start"]).doUpdateSet({ events, counted_at: new Date() }))
        .execute();
    },

    /** Forgets stored usage (a property's events were deleted or reset: its periods count again). */
    async forgetUsage(accountId: string): Promise<void> {
      await db.deleteFrom("billing_usage").where("account_id", "=", accountId).execute();
    },

    /** Claims the e-mail of `kind` for the period: true the first time only. */
    async claimMail(accountId: string, periodStart: Date, kind: string): Promise<boolean> {
      const r = await db
        .insertInto("billing_mails")
        .values({ account_id: accountId, period_start: periodStart, kind })
        .onConflict((oc) => oc.columns(["account_id", "period_start", "kind"]).doNothing())
        .returning("kind")
        .executeTakeFirst();
      return r !== undefined;
    },

    /** Gives a claim back (the mail could not be sent; the next check tries again). */
    async releaseMail(accountId: string, periodStart: Date, kind: string): Promise<void> {
      await db
        .deleteFrom("billing_mails")
        .where("account_id", "=", accountId)
        .where("period_start", "=", periodStart)
        .where("kind", "=", kind)
        .execute();
    },

    async mailsSent(accountId: string): Promise<{ period_start: Date; kind: string }[]> {
      const rows = await db
        .selectFrom("billing_mails")
        .select(["period_start", "kind"])
        .where("account_id", "=", accountId)
        .execute();
      return rows.map((r) => ({ period_start: new Date(r.period_start), kind: r.kind }));
    },

    /** Records a webhook event id: true the first time, false for a replay. */
    async recordWebhookEvent(id: string, type: string): Promise<boolean> {
      const r = await db
        .insertInto("billing_webhook_events")
        .values({ id, type })
        .onConflict((oc) => oc.column("id").doNothing())
        .returning("id")
        .executeTakeFirst();
      return r !== undefined;
    },

    /** Forgets a webhook event id (its handling failed: the provider's retry is then handled). */
    async forgetWebhookEvent(id: string): Promise<void> {
      await db.deleteFrom("billing_webhook_events").where("id", "=", id).execute();
    },

    async upsertInvoice(inv: InvoiceRow): Promise<void> {
      const { id, ...rest } = inv;
      await db
        .insertInto("billing_invoices")
        .values(inv)
        .onConflict((oc) => oc.column("id").doUpdateSet(rest))
        .execute();
    },

    async invoices(accountId: string, limit = 24): Promise<InvoiceRow[]> {
      const rows = await db
        .selectFrom("billing_invoices")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, amount: Number(r.amount), created_at: new Date(r.created_at) }));
    },

    /** Every account id (the usage check's round). */
    async accountIds(): Promise<string[]> {
      const rows = await db.selectFrom("accounts").select("id").orderBy("id").execute();
      return rows.map((r) => r.id);
    },
  };
}
