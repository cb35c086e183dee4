// The payment provider behind billing (issue #24 §4): what the billing service asks of it
// (a checkout page to subscribe or change plan, the customer portal, cancelling a replaced
// subscription) and the provider's webhooks as a few normalized events, verified by signature
// before anything is parsed. stripe-provider.ts is the one adapter; another provider (Paddle,
// Lemon Squeezy) would be another file implementing this.
import type { BillingInterval, Plan } from "@lookout/schema";

export interface CheckoutInput {
  accountId: string;
  /** The provider's customer of the account, if it has one already (else one is created). */
  customerId: string | null;
  email: string;
  accountName: string;
  plan: Plan;
  interval: BillingInterval;
  /** The subscription this one replaces (a change of plan): cancelled once the new one starts. */
  replaces: string | null;
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderSubscription {
  subscriptionId: string;
  customerId: string;
  /** From the checkout's metadata: the account and plan it was bought for. */
  accountId: string | null;
  plan: string | null;
  interval: BillingInterval | null;
  /** The provider's status (active, trialing, past_due, unpaid, canceled, incomplete, …). */
  status: string;
  anchor: Date | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  replaces: string | null;
}

export interface ProviderInvoice {
  id: string;
  customerId: string;
  number: string | null;
  amount: number;
  currency: string;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  url: string | null;
  createdAt: Date;
}

/** A verified webhook event, reduced to what billing acts on. */
export type ProviderEvent = { id: string; type: string } & (
  | { kind: "subscription"; subscription: ProviderSubscription }
  | { kind: "subscription_deleted"; subscription: ProviderSubscription }
  | { kind: "invoice_paid"; invoice: ProviderInvoice }
  | { kind: "invoice_failed"; invoice: ProviderInvoice }
  | { kind: "ignored" }
);

export class InvalidSignatureError extends Error {}

/** The provider could not be reached or refused the call. */
export class ProviderError extends Error {}

export interface PaymentProvider {
  readonly name: string;
  /** A hosted checkout page; resolves with its URL and the customer it is for. */
  checkout(input: CheckoutInput): Promise<{ url: string; customerId: string }>;
  /** The hosted portal (cards, invoices, cancellation) of a customer. */
  portal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** Verifies the signature over the raw body, then parses; InvalidSignatureError otherwise. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<ProviderEvent>;
}
