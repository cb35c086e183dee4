// The billing calls (DESIGN.md §5 "billing", §7: only owners manage billing): the account's
// billing answer, the banner every member sees, checkout and portal. The webhook is mounted in
// its own scope (webhook.ts) for its raw body.
import {
  AccountParamsSchema,
  BillingAnswerSchema,
  BillingNoticeAnswerSchema,
  BillingRedirectSchema,
  CheckoutBodySchema,
} from "@lookout/schema";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, type Route } from "../http/route.js";

export function billingRoutes(deps: AppDeps): Route[] {
  const { billing } = deps;
  const tags = ["billing"] as const;
  const params = AccountParamsSchema;
  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts/:accountId/billing",
      summary:
        "The account's plan, status (active, grace, locked, self_hosted), limits, the current billing period's billable events (pageviews and custom events) with the projection to its end and the split by property, the last 12 periods, the banner, the plans with the suggested one, and the invoices. Owners only.",
      tags,
      params,
      access: { account: ({ params }) => params.accountId, action: "own" },
      answer: BillingAnswerSchema,
      handle: ({ params }) => billing.answer(params.accountId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts/:accountId/billing/notice",
      summary: "The billing banner every member of the account sees (usage warnings, grace period, lock), and the status.",
      tags,
      params,
      access: { account: ({ params }) => params.accountId, action: "read" },
      answer: BillingNoticeAnswerSchema,
      handle: ({ params }) => billing.notice(params.accountId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/billing/checkout",
      summary:
        "Subscribes to a plan, or changes to it: answers the payment provider's checkout page to send the browser to (the new subscription replaces the old one once paid). Owners only.",
      tags,
      params,
      body: CheckoutBodySchema,
      access: { account: ({ params }) => params.accountId, action: "own" },
      answer: BillingRedirectSchema,
      responses: { 409: "Billing is off (billing_off).", 502: "The payment provider failed (payment_provider_failed)." },
      handle: ({ actor, params, body }) => billing.checkout(actor, params.accountId, body),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/billing/portal",
      summary: "The payment provider's customer portal (cards, invoices, cancellation) for the account. Owners only.",
      tags,
      params,
      access: { account: ({ params }) => params.accountId, action: "own" },
      answer: BillingRedirectSchema,
      responses: { 409: "Billing is off, or the account never subscribed (billing_off, no_customer)." },
      handle: ({ actor, params }) => billing.portal(actor, params.accountId),
    }),
  ];
}
