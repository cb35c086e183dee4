// The lock of an account over its quota (issue #24 §3): "the account's dashboards and Stats API
// answer locked ... while collection goes on and settings, exports and billing stay reachable".
// Which routes read stats is declared on each route (http/route.ts `readsStats`), not listed here:
// mountRoutes calls this gate for every such route and refuses to mount one without it, and
// lock-routes.test.ts holds every registered route's declaration to a hand-written table. The
// live socket (live/socket.ts) and scheduled reports (reports/report-job.ts) ask isLocked.
import type { MetaStore } from "@lookout/storage";
import type { StatsGate } from "../http/route.js";
import type { BillingService } from "./service.js";

/** The account whose data a route reads: its property's, or a saved insight's. */
async function accountOf(meta: MetaStore, params: unknown): Promise<string | undefined> {
  const shortId = (params as { shortId?: unknown } | undefined)?.shortId;
  if (typeof shortId !== "string") return undefined;
  const insight = await meta.insights.findByShortId(shortId);
  const uniqueId = insight ? await meta.insights.propertyUniqueId(insight) : null;
  return uniqueId ? (await meta.properties.findByUniqueId(uniqueId))?.account_id : undefined;
}

/** The gate mountRoutes runs around every route that declares `readsStats`. */
export function statsGate(meta: MetaStore, billing: Pick<BillingService, "mode" | "assertReadable">): StatsGate {
  return async ({ property, params }) => {
    // Self-hosted nothing is ever locked: not even the saved insight's account is looked up.
    if (billing.mode === "off") return;
    const accountId = property ? property.account_id : await accountOf(meta, params);
    if (accountId) await billing.assertReadable(accountId);
  };
}
