// The payment provider's webhooks (issue #24 §4): the raw body's signature is verified before
// anything is parsed (a bad one: 400 invalid_signature), each event id is handled once (a replay
// answers handled: false), and the events move the account's subscription: created/updated set
// the plan, interval, anchor and status (a change of plan cancels the subscription it replaces);
// deleted returns the account to the default plan; invoice paid/failed record the invoice and
// clear or set the failed payment, which starts the same grace path as usage. The ladder is asked
// again at once, so an upgrade or a payment unlocks immediately.
import { WebhookAnswerSchema } from "@lookout/schema";
import type { MetaStore } from "@lookout/storage";
import type { FastifyInstance } from "fastify";
import { DomainError } from "../http/domain-errors.js";
import { defineRoute, mountRoutes } from "../http/route.js";
import { wholeSeconds } from "./periods.js";
import { InvalidSignatureError, type ProviderEvent, type ProviderSubscription } from "./provider.js";
import type { BillingService } from "./service.js";

/** Subscription statuses in which the plan applies (past_due: a payment failed, grace runs). */
const LIVE = new Set(["active", "trialing", "past_due", "unpaid"]);

export async function handleProviderEvent(billing: BillingService, meta: MetaStore, event: ProviderEvent): Promise<boolean> {
  const { plans } = billing;
  const accountOf = async (s: { accountId?: string | null; customerId: string }) =>
    (s.customerId ? await meta.billing.accountOfCustomer(s.customerId) : undefined) ??
    (s.accountId && (await meta.accounts.findById(s.accountId)) ? s.accountId : undefined);

  let accountId: string | undefined;
  switch (event.kind) {
    case "subscription": {
      const s: ProviderSubscription = event.subscription;
      accountId = await accountOf(s);
      if (!accountId || !LIVE.has(s.status)) return false;
      const row = await meta.billing.subscription(accountId);
      // An update of a subscription this account has replaced since says nothing about it now.
      const current = !row?.provider_subscription_id || row.provider_subscription_id === s.subscriptionId;
      if (!current && event.type !== "customer.subscription.created") return false;
      const plan = s.plan && plans.plans.some((p) => p.id === s.plan) ? s.plan : (row?.plan ?? plans.default_plan);
      const anchor = s.anchor ? wholeSeconds(s.anchor) : row?.anchor ? new Date(row.anchor) : null;
      await meta.billing.upsertSubscription(accountId, plan, {
        plan,
        status: s.status,
        interval: s.interval,
        provider_customer_id: s.customerId,
        provider_subscription_id: s.subscriptionId,
        ...(anchor ? { anchor } : {}),
        period_start: s.periodStart,
        period_end: s.periodEnd,
        cancel_at_period_end: s.cancelAtPeriodEnd,
      });
      if (s.replaces && s.replaces !== s.subscriptionId) {
        // The old plan's subscription ends now that the new one runs (a failure is retried by the
        // provider's redelivery: the event id is forgotten when this throws).
        await billing.provider?.cancelSubscription(s.replaces);
      }
      break;
    }
    case "subscription_deleted": {
      const s = event.subscription;
      accountId = await accountOf(s);
      if (!accountId) return false;
      const row = await meta.billing.subscription(accountId);
      if (row?.provider_subscription_id !== s.subscriptionId) return false; // a replaced one
      await meta.billing.upsertSubscription(accountId, plans.default_plan, {
        plan: plans.default_plan,
        status: "canceled",
        interval: null,
        provider_subscription_id: null,
        cancel_at_period_end: false,
        payment_failed: false,
      });
      break;
    }
    case "invoice_paid":
    case "invoice_failed": {
      const inv = event.invoice;
      accountId = await accountOf(inv);
      if (!accountId) return false;
      await meta.billing.upsertInvoice({
        id: inv.id,
        account_id: accountId,
        number: inv.number,
        amount: inv.amount,
        currency: inv.currency,
        status: inv.status,
        url: inv.url,
        created_at: inv.createdAt,
      });
      const row = await meta.billing.subscription(accountId);
      await meta.billing.upsertSubscription(accountId, row?.plan ?? plans.default_plan, {
        payment_failed: event.kind === "invoice_failed",
      });
      break;
    }
    case "ignored":
      return false;
  }
  if (!accountId) return false;
  await meta.audit.record({ action: `billing.${event.kind}`, accountId, detail: { event: event.id, type: event.type } });
  billing.forget(accountId);
  // Apply the change to the ladder now (an upgrade or a payment ends grace and lock at once).
  await billing.state(accountId);
  return true;
}

/**
 * POST /api/v1/billing/webhook in a scope of its own, whose one body parser keeps the raw bytes
 * (the signature is over them; parsing JSON first would lose them).
 */
export async function registerBillingWebhook(app: FastifyInstance, meta: MetaStore, billing: BillingService): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    mountRoutes(scope, meta, [
      defineRoute({
        method: "POST",
        url: "/api/v1/billing/webhook",
        summary:
          "The payment provider's webhook (Stripe): verified by the Stripe-Signature header over the raw body before parsing; each event id is handled once.",
        tags: ["billing"],
        access: "none",
        answer: WebhookAnswerSchema,
        responses: { 400: "The signature does not verify (invalid_signature).", 404: "Billing is off on this server." },
        handle: async ({ req }) => {
          const provider = billing.provider;
          if (billing.mode === "off" || !provider) throw new DomainError("not_found", "Billing is off on this server.");
          const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const signature = req.headers["stripe-signature"];
          let event: ProviderEvent;
          try {
            event = await provider.parseWebhook(raw, typeof signature === "string" ? signature : undefined);
          } catch (err) {
            if (err instanceof InvalidSignatureError) {
              throw new DomainError("invalid_signature", "The webhook's signature does not verify.");
            }
            throw err;
          }
          if (!(await meta.billing.recordWebhookEvent(event.id, event.type))) return { received: true as const, handled: false };
          try {
            return { received: true as const, handled: await handleProviderEvent(billing, meta, event) };
          } catch (err) {
            // Not handled: forget the id so that the provider's redelivery is.
            await meta.billing.forgetWebhookEvent(event.id);
            throw err;
          }
        },
      }),
    ]);
  });
}
