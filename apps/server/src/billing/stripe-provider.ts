// The Stripe adapter of PaymentProvider (the `stripe` package): Checkout in subscription mode
// with the plan's price inline (no price ids to configure: the plans file is the one source),
// the Customer Portal, and webhooks verified with the package's own signature check over the raw
// body. STRIPE_API_URL points the client at another host (the local server tests use).
import type { BillingInterval } from "@lookout/schema";
import type Stripe from "stripe";
import {
  type CheckoutInput,
  InvalidSignatureError,
  type PaymentProvider,
  ProviderError,
  type ProviderEvent,
  type ProviderInvoice,
  type ProviderSubscription,
} from "./provider.js";

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  apiUrl?: string | undefined;
}

const seconds = (n: unknown): Date | null => (typeof n === "number" && n > 0 ? new Date(n * 1000) : null);
const idOf = (v: unknown): string | null =>
  typeof v === "string"
    ? v
    : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string"
      ? (v as { id: string }).id
      : null;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const INVOICE_STATUSES = new Set(["draft", "open", "paid", "uncollectible", "void"]);

function subscriptionOf(o: Record<string, unknown>): ProviderSubscription {
  const meta = (o.metadata ?? {}) as Record<string, unknown>;
  const item = ((o.items as { data?: Record<string, unknown>[] } | undefined)?.data ?? [])[0] ?? {};
  const recurring = ((item.price as Record<string, unknown> | undefined)?.recurring ?? {}) as Record<string, unknown>;
  const interval = str(meta.interval) ?? str(recurring.interval);
  return {
    subscriptionId: String(o.id),
    customerId: idOf(o.customer) ?? "",
    accountId: str(meta.account_id),
    plan: str(meta.plan),
    interval: interval === "month" || interval === "year" ? (interval as BillingInterval) : null,
    status: str(o.status) ?? "active",
    anchor: seconds(o.billing_cycle_anchor),
    // Since API 2025-03-31 the period lives on the items; older versions keep it on the subscription.
    periodStart: seconds(item.current_period_start ?? o.current_period_start),
    periodEnd: seconds(item.current_period_end ?? o.current_period_end),
    cancelAtPeriodEnd: o.cancel_at_period_end === true,
    replaces: str(meta.replaces),
  };
}

function invoiceOf(o: Record<string, unknown>): ProviderInvoice {
  const status = str(o.status) ?? "open";
  const url = str(o.hosted_invoice_url);
  return {
    id: String(o.id),
    customerId: idOf(o.customer) ?? "",
    number: str(o.number),
    amount: Number(o.status === "paid" ? (o.amount_paid ?? o.total ?? 0) : (o.amount_due ?? o.total ?? 0)) || 0,
    currency: str(o.currency) ?? "usd",
    status: (INVOICE_STATUSES.has(status) ? status : "open") as ProviderInvoice["status"],
    // Shown as a link: http(s) only (DESIGN.md §7).
    url: url && /^https?:\/\//i.test(url) ? url : null,
    createdAt: seconds(o.created) ?? new Date(),
  };
}

export function stripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
  const options: Stripe.StripeConfig = {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "https:" ? 443 : 80),
          protocol: api.protocol === "https:" ? "https" : "http",
        }
      : {}),
  };
  // The package loads on first use, not with the server: most servers never bill through Stripe,
  // and it is the heaviest of the optional adapters to import (~0.3 s of a start).
  let client: Promise<Stripe> | undefined;
  const stripe = () => (client ??= import("stripe").then(({ default: Client }) => new Client(opts.secretKey, options)));
  const call = async <T>(what: string, f: (client: Stripe) => Promise<T>): Promise<T> => {
    try {
      return await f(await stripe());
    } catch (err) {
      throw new ProviderError(`Stripe: ${what} failed: ${(err as Error).message}`);
    }
  };

  return {
    name: "stripe",

    async checkout(input: CheckoutInput) {
      const amount = input.plan.prices[input.interval];
      if (amount === null) throw new ProviderError(`the plan ${input.plan.id} has no ${input.interval}ly price`);
      const customerId =
        input.customerId ??
        (
          await call("creating the customer", (client) =>
            client.customers.create({ email: input.email, name: input.accountName, metadata: { account_id: input.accountId } }),
          )
        ).id;
      const metadata: Record<string, string> = {
        account_id: input.accountId,
        plan: input.plan.id,
        interval: input.interval,
        ...(input.replaces ? { replaces: input.replaces } : {}),
      };
      const session = await call("creating the checkout session", (client) =>
        client.checkout.sessions.create({
          mode: "subscription",
          customer: customerId,
          client_reference_id: input.accountId,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.plan.prices.currency,
                unit_amount: amount,
                recurring: { interval: input.interval },
                product_data: { name: `Lookout ${input.plan.name}` },
              },
            },
          ],
          subscription_data: { metadata },
          metadata,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        }),
      );
      if (!session.url) throw new ProviderError("Stripe: the checkout session has no URL");
      return { url: session.url, customerId };
    },

    async portal(customerId, returnUrl) {
      const s = await call("creating the portal session", (client) =>
        client.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: s.url };
    },

    async cancelSubscription(subscriptionId) {
      await call("cancelling the replaced subscription", (client) => client.subscriptions.cancel(subscriptionId));
    },

    async parseWebhook(rawBody, signature) {
      const verifier = await stripe();
      let event: { id: string; type: string; data: { object: unknown } };
      try {
        event = verifier.webhooks.constructEvent(rawBody, signature ?? "", opts.webhookSecret) as never;
      } catch (err) {
        throw new InvalidSignatureError((err as Error).message);
      }
      const o = (event.data?.object ?? {}) as Record<string, unknown>;
      const head = { id: event.id, type: event.type };
      switch (event.type) {
        case "customer.subscription.created":
        case "customer.subscription.updated":
          return { ...head, kind: "subscription", subscription: subscriptionOf(o) };
        case "customer.subscription.deleted":
          return { ...head, kind: "subscription_deleted", subscription: subscriptionOf(o) };
        case "invoice.paid":
          return { ...head, kind: "invoice_paid", invoice: invoiceOf(o) };
        case "invoice.payment_failed":
          return { ...head, kind: "invoice_failed", invoice: invoiceOf(o) };
        default:
          return { ...head, kind: "ignored" } satisfies ProviderEvent;
      }
    },
  };
}
