// The account's billing calls (DESIGN.md §5 "billing"; issue #24): the billing answer (owners:
// plan, status, limits, usage with its projection, the last periods, the split by property, the
// plans with the suggested one, invoices), the notice every member's banner shows, and the two
// calls that answer a provider page to go to (checkout to subscribe or change plan, the portal
// for the card and invoices). Answers are parsed with the shared schemas, so a surprise reads as
// an error where it is shown.
import {
  type BillingAnswer,
  BillingAnswerSchema,
  type BillingNoticeAnswer,
  BillingNoticeAnswerSchema,
  type BillingRedirect,
  BillingRedirectSchema,
  type CheckoutBody,
} from "@lookout/schema";
import { request } from "../../lib/http";

const billing = (accountId: string) => `/api/v1/accounts/${encodeURIComponent(accountId)}/billing`;

export async function getBilling(accountId: string, signal?: AbortSignal): Promise<BillingAnswer> {
  return BillingAnswerSchema.parse(await request("GET", billing(accountId), { signal }));
}

export async function getBillingNotice(accountId: string, signal?: AbortSignal): Promise<BillingNoticeAnswer> {
  return BillingNoticeAnswerSchema.parse(await request("GET", `${billing(accountId)}/notice`, { signal }));
}

/** The provider's checkout page for `plan` (a new subscription, or a change of plan). */
export async function startCheckout(accountId: string, body: CheckoutBody): Promise<BillingRedirect> {
  return BillingRedirectSchema.parse(await request("POST", `${billing(accountId)}/checkout`, { json: body }));
}

/** The provider's customer portal: the payment method, invoices, cancelling. */
export async function openPortal(accountId: string): Promise<BillingRedirect> {
  return BillingRedirectSchema.parse(await request("POST", `${billing(accountId)}/portal`));
}
