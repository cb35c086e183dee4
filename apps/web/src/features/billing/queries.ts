// Billing's server state as queries, keyed by account so a switch of account never shows the
// previous account's plan. The notice is polled gently (usage grows while the app is open, and a
// lock or an unlock should reach every member's banner without a reload); checkout and portal
// answer a URL the page then navigates to.
import type { CheckoutBody } from "@lookout/schema";
import { useMutation, useQuery } from "@tanstack/react-query";
import { getBilling, getBillingNotice, openPortal, startCheckout } from "./api";

export const billingKeys = {
  all: ["billing"] as const,
  account: (accountId: string) => ["billing", accountId] as const,
  billing: (accountId: string) => ["billing", accountId, "billing"] as const,
  notice: (accountId: string) => ["billing", accountId, "notice"] as const,
};

/**
 * The whole billing answer; owners only (the server refuses the rest, so it is not asked). `poll`
 * asks again every few seconds: back from checkout, the provider's webhook may not have arrived.
 */
export function useBilling(accountId: string, enabled: boolean, poll = false) {
  return useQuery({
    queryKey: billingKeys.billing(accountId),
    queryFn: ({ signal }) => getBilling(accountId, signal),
    enabled,
    refetchInterval: poll ? 3_000 : false,
  });
}

/** How often the banner asks again: often enough for a lock to show within minutes. */
const NOTICE_POLL_MS = 5 * 60_000;

export function useBillingNotice(accountId: string) {
  return useQuery({
    queryKey: billingKeys.notice(accountId),
    queryFn: ({ signal }) => getBillingNotice(accountId, signal),
    staleTime: 60_000,
    refetchInterval: NOTICE_POLL_MS,
    enabled: accountId !== "",
  });
}

export function useCheckout(accountId: string) {
  return useMutation({ mutationFn: (body: CheckoutBody) => startCheckout(accountId, body) });
}

export function usePortal(accountId: string) {
  return useMutation({ mutationFn: () => openPortal(accountId) });
}
