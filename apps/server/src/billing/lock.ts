// The lock of an account over its quota (issue #24 §3): the dashboards' reads — the Stats API,
// insights, visitors — answer 402 account_locked while collection, settings, exports, team and
// billing stay reachable. Applied to a domain's route list in app.ts: each read route's service
// call first asks billing.assertReadable for the account of the property it reads.
import type { MetaStore } from "@lookout/storage";
import type { Route } from "../http/route.js";
import type { BillingService } from "./service.js";

type Ctx = { property?: { account_id: string }; params?: Record<string, unknown> };

/** Routes that stay open while locked: exports (a person must be able to take their data). */
const OPEN = [/\/export$/, /\/visitors\.csv$/];

function isRead(r: Route): boolean {
  if (OPEN.some((re) => re.test(r.url))) return false;
  return r.method === "GET" || r.url.endsWith("/insights/query");
}

/** The account whose data a route reads: its property's, or a saved insight's. */
async function accountOf(meta: MetaStore, ctx: Ctx): Promise<string | undefined> {
  if (ctx.property) return ctx.property.account_id;
  const shortId = ctx.params?.shortId;
  if (typeof shortId !== "string") return undefined;
  const insight = await meta.insights.findByShortId(shortId);
  const uniqueId = insight ? await meta.insights.propertyUniqueId(insight) : null;
  return uniqueId ? (await meta.properties.findByUniqueId(uniqueId))?.account_id : undefined;
}

export function lockedOverQuota(meta: MetaStore, billing: BillingService, routes: Route[]): Route[] {
  if (billing.mode === "off") return routes;
  return routes.map((r) => {
    if (!isRead(r)) return r;
    const handle = r.handle;
    return {
      ...r,
      responses: { ...r.responses, 402: "The account is locked over its plan's quota (account_locked)." },
      handle: async (ctx) => {
        const c = ctx as unknown as Ctx;
        if (c.property) {
          await billing.assertReadable(c.property.account_id);
          return handle(ctx);
        }
        // A saved insight's route authorizes in its service: ask after it, so that an id the
        // caller may not read answers 404 as before, never "locked".
        const answer = await handle(ctx);
        const accountId = await accountOf(meta, c);
        if (accountId) await billing.assertReadable(accountId);
        return answer;
      },
    };
  });
}
