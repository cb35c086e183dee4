// The billing service (issue #24): an account's plan, usage and status (the quota ladder over
// the usage read from the event store, ladder.ts), the billing answer and the banner, the gates
// the rest of the server asks (locked reads, property and member limits), and checkout / portal
// through the payment provider. Webhooks: webhook.ts; the e-mails: usage-job.ts.
//
// With LOOKOUT_BILLING=off nothing is limited and nothing locks: the answer shows usage only.
import { type BillingAnswer, type BillingNoticeAnswer, type CheckoutBody, CheckoutBodySchema, type Plan } from "@lookout/schema";
import type { MetaStore, SubscriptionRow } from "@lookout/storage";
import { LRUCache } from "lru-cache";
import type { AuthService } from "../auth/auth-service.js";
import type { Config } from "../config/config.js";
import type { EventReads } from "../event-reads/fair-reads.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { type Grace, type GraceReason, type LadderResult, limitWithMargin, quotaLadder } from "./ladder.js";
import { noticeMessage } from "./notices.js";
import { planById, SELF_HOSTED_PLAN, suggestPlan } from "./plans.js";
import { type PaymentProvider, ProviderError } from "./provider.js";
import { stripeProvider } from "./stripe-provider.js";
import { type AccountUsage, accountUsage } from "./usage.js";

export interface BillingDeps {
  config: Config;
  meta: MetaStore;
  /** The event store's reads, in each account's fair queue (event-reads/). */
  reads: EventReads;
  auth: AuthService;
  /** Instead of the configured provider (tests). */
  provider?: PaymentProvider | null;
}

export interface BillingState {
  accountId: string;
  sub: SubscriptionRow | undefined;
  plan: Plan;
  usage: AccountUsage;
  counts: { properties: number; members: number };
  ladder: LadderResult;
}

/** Complete periods in the answer's history (issue #24 §2: the last 12). */
const HISTORY = 12;
/** How long a server trusts its "not locked" answer for an account whose grace period ended. */
const LOCK_CACHE_MS = 10_000;

const iso = (ms: number | Date) => new Date(ms).toISOString();
const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

export type BillingService = ReturnType<typeof createBillingService>;

export function createBillingService(deps: BillingDeps) {
  const { config, meta } = deps;
  const { mode, plans } = config.billing;
  const provider: PaymentProvider | null =
    deps.provider !== undefined ? deps.provider : config.billing.stripe ? stripeProvider(config.billing.stripe) : null;
  // Per account: whether its dashboards are locked, trusted until `until` on the caller's clock (the
  // request's `now`); the lru-cache bounds the entries and drops them LOCK_CACHE_MS after they were
  // set on the process clock.
  const lockCache = new LRUCache<string, { until: number; locked: boolean }>({ max: 10_000, ttl: LOCK_CACHE_MS });

  const planOf = (sub: SubscriptionRow | undefined): Plan => (mode === "off" ? SELF_HOSTED_PLAN : planById(plans, sub?.plan));

  async function anchorOf(accountId: string, sub: SubscriptionRow | undefined): Promise<Date> {
    if (sub?.anchor) return new Date(sub.anchor);
    const account = await meta.accounts.findById(accountId);
    return utcDay(account?.created_at ?? new Date(0));
  }

  /** Usage, counts and the ladder now; a grace period that starts or ends is stored at once. */
  async function state(accountId: string, now = new Date()): Promise<BillingState> {
    const sub = await meta.billing.subscription(accountId);
    const plan = planOf(sub);
    const usage = await accountUsage(deps, accountId, await anchorOf(accountId, sub), now, HISTORY);
    const counts = { properties: usage.byProperty.length, members: (await meta.members.list(accountId)).length };
    const grace: Grace | null =
      sub?.grace_ends_at && mode !== "off"
        ? { endsAt: new Date(sub.grace_ends_at), reason: (sub.grace_reason as GraceReason) ?? "usage" }
        : null;
    const atLimit = (limit: number | null, n: number) => limit !== null && n >= limit;
    const ladder = quotaLadder({
      limit: plan.limits.events,
      current: usage.current.events,
      last: usage.totals[HISTORY - 1] ?? null,
      penultimate: usage.totals[HISTORY - 2] ?? null,
      grace,
      paymentFailed: mode !== "off" && sub?.payment_failed === true,
      propertyLimitReached: atLimit(plan.limits.properties, counts.properties),
      memberLimitReached: atLimit(plan.limits.members, counts.members),
      now,
    });
    const changed =
      (grace?.endsAt.getTime() ?? null) !== (ladder.grace?.endsAt.getTime() ?? null) || grace?.reason !== ladder.grace?.reason;
    if (mode !== "off" && changed) {
      await meta.billing.upsertSubscription(accountId, sub?.plan ?? plans.default_plan, {
        grace_ends_at: ladder.grace?.endsAt ?? null,
        grace_reason: ladder.grace?.reason ?? null,
      });
      await meta.audit.record({
        action: ladder.grace ? (grace ? "billing.grace_changed" : "billing.grace_started") : "billing.grace_ended",
        accountId,
        detail: {
          reason: ladder.grace?.reason ?? grace?.reason ?? null,
          ends_at: ladder.grace ? iso(ladder.grace.endsAt) : null,
        },
      });
      lockCache.delete(accountId);
    }
    return { accountId, sub, plan, usage, counts, ladder };
  }

  const statusOf = (s: BillingState) => (mode === "off" ? "self_hosted" : s.ladder.status);
  const noticeOf = (s: BillingState) =>
    mode === "off" || !s.ladder.notice ? null : noticeMessage(s.ladder.notice, s.plan, s.usage, s.counts, s.ladder.grace);

  async function answer(accountId: string, now = new Date()): Promise<BillingAnswer> {
    const s = await state(accountId, now);
    const { usage, plan } = s;
    const elapsed = Math.max(1, now.getTime() - usage.current.start);
    const whole = usage.current.end - usage.current.start;
    const projected = Math.round((usage.current.events * whole) / Math.min(whole, elapsed));
    const limit = plan.limits.events;
    const history = usage.totals.slice(0, HISTORY).flatMap((events, i) =>
      events === null
        ? []
        : [
            {
              period_start: iso(usage.boundaries[i] as number),
              period_end: iso(usage.boundaries[i + 1] as number),
              events,
              limit,
              over_margin: limit !== null && events >= limitWithMargin(limit),
            },
          ],
    );
    const lastComplete = usage.totals[HISTORY - 1] ?? 0;
    const invoices = mode === "off" ? [] : await meta.billing.invoices(accountId);
    return {
      mode,
      plan: plan.id,
      plan_name: plan.name,
      interval: mode === "off" ? null : ((s.sub?.interval as "month" | "year" | null) ?? null),
      status: statusOf(s),
      grace_ends_at: mode !== "off" && s.ladder.grace ? iso(s.ladder.grace.endsAt) : null,
      payment_failed: mode !== "off" && s.sub?.payment_failed === true,
      cancel_at_period_end: mode !== "off" && s.sub?.cancel_at_period_end === true,
      limits: plan.limits,
      usage: {
        period_start: iso(usage.current.start),
        period_end: iso(usage.current.end),
        events: usage.current.events,
        projected,
        percent: limit === null ? null : limit === 0 ? 100 : Math.round((usage.current.events * 1000) / limit) / 10,
        by_property: usage.byProperty
          .map((p) => ({ property_id: p.property.unique_id, name: p.property.name, events: p.events }))
          .sort((a, b) => b.events - a.events || a.name.localeCompare(b.name)),
      },
      counts: s.counts,
      history,
      thresholds_reached: mode === "off" ? [] : s.ladder.thresholds,
      notice: noticeOf(s),
      plans: mode === "off" ? [] : plans.plans.filter((p) => !p.hidden || p.id === plan.id),
      suggested_plan:
        mode === "off" ? null : suggestPlan(plans, plan, { events: Math.max(projected, lastComplete), ...s.counts }),
      invoices: invoices.map((i) => ({
        id: i.id,
        number: i.number,
        created_at: iso(i.created_at),
        amount: i.amount,
        currency: i.currency,
        status: i.status as BillingAnswer["invoices"][number]["status"],
        url: i.url,
      })),
    };
  }

  async function notice(accountId: string, now = new Date()): Promise<BillingNoticeAnswer> {
    const s = await state(accountId, now);
    return {
      mode,
      plan: s.plan.id,
      plan_name: s.plan.name,
      status: statusOf(s),
      period_start: iso(s.usage.current.start),
      notice: noticeOf(s),
      grace_ends_at: mode !== "off" && s.ladder.grace ? iso(s.ladder.grace.endsAt) : null,
    };
  }

  /**
   * Whether the account's dashboards are locked. Cheap: one row read, unless a grace period has
   * ended, when the ladder is asked again (a new period or an upgrade unlocks).
   */
  async function isLocked(accountId: string, now = new Date()): Promise<boolean> {
    if (mode === "off") return false;
    const cached = lockCache.get(accountId);
    if (cached && cached.until > now.getTime()) return cached.locked;
    const sub = await meta.billing.subscription(accountId);
    const ended = !!sub?.grace_ends_at && new Date(sub.grace_ends_at).getTime() <= now.getTime();
    const locked = ended && (await state(accountId, now)).ladder.status === "locked";
    lockCache.set(accountId, { until: now.getTime() + LOCK_CACHE_MS, locked });
    return locked;
  }

  /** 402 account_locked when the account's dashboards are locked (isLocked). */
  async function assertReadable(accountId: string, now = new Date()): Promise<void> {
    if (await isLocked(accountId, now)) {
      throw new DomainError(
        "account_locked",
        "This account's dashboards are locked: its traffic has been over the plan's limit for two billing periods. Events are still being collected. An owner can upgrade on the Billing page (/billing) to unlock at once.",
      );
    }
  }

  async function limitsOf(accountId: string) {
    return planOf(await meta.billing.subscription(accountId)).limits;
  }

  /** 402 property_limit when the account has as many properties as its plan allows. */
  async function assertCanAddProperty(accountId: string): Promise<void> {
    if (mode === "off") return;
    const limit = (await limitsOf(accountId)).properties;
    if (limit === null) return;
    const n = (await meta.properties.listByAccount(accountId)).length;
    if (n >= limit) {
      throw new DomainError(
        "property_limit",
        `Your plan allows ${limit} ${limit === 1 ? "property" : "properties"}. Upgrade on the Billing page to add more.`,
        { limit, count: n },
      );
    }
  }

  /** 402 member_limit when `adding` more members (with the pending invitations) would pass the plan's limit. */
  async function assertCanAddMembers(accountId: string, adding: number): Promise<void> {
    if (mode === "off") return;
    const limit = (await limitsOf(accountId)).members;
    if (limit === null) return;
    const n = (await meta.members.list(accountId)).length + (await meta.invitations.listPending(accountId)).length;
    if (n + adding > limit) {
      throw new DomainError(
        "member_limit",
        `Your plan allows ${limit} ${limit === 1 ? "member" : "members"} (pending invitations included). Upgrade on the Billing page to invite more.`,
        { limit, count: n },
      );
    }
  }

  function needProvider(): PaymentProvider {
    if (mode === "off" || !provider) {
      throw new DomainError("billing_off", "Billing is off on this server (self-hosted): there is nothing to buy.");
    }
    return provider;
  }

  async function billingUrl(): Promise<string> {
    const base = await deps.auth.linkBase(config.publicUrl);
    if (!base) {
      throw new DomainError("public_url_missing", "Payment pages need the server's address: set LOOKOUT_PUBLIC_URL.");
    }
    return `${base}/billing`;
  }

  async function viaProvider<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (err) {
      if (err instanceof ProviderError) {
        throw new DomainError(
          "payment_provider_failed",
          "The payment provider could not be reached. Nothing was changed; try again.",
        );
      }
      throw err;
    }
  }

  async function checkout(actor: Actor, accountId: string, input: CheckoutBody): Promise<{ url: string }> {
    const p = needProvider();
    const body = CheckoutBodySchema.parse(input);
    const plan = plans.plans.find((x) => x.id === body.plan);
    if (!plan || plan.hidden || plan.prices[body.interval] === null) {
      throw new DomainError("unknown_plan", `There is no plan "${body.plan}" to buy ${body.interval}ly.`);
    }
    const sub = await meta.billing.subscription(accountId);
    const live = sub?.provider_subscription_id && sub.status !== "canceled" ? sub.provider_subscription_id : null;
    const [user, account, back] = await Promise.all([
      meta.users.findById(actor.userId),
      meta.accounts.findById(accountId),
      billingUrl(),
    ]);
    const r = await viaProvider(() =>
      p.checkout({
        accountId,
        customerId: sub?.provider_customer_id ?? null,
        email: user?.email ?? "",
        accountName: account?.name ?? "",
        plan,
        interval: body.interval,
        replaces: live,
        successUrl: `${back}?checkout=success`,
        cancelUrl: `${back}?checkout=cancel`,
      }),
    );
    if (sub?.provider_customer_id !== r.customerId) {
      await meta.billing.upsertSubscription(accountId, sub?.plan ?? plans.default_plan, { provider_customer_id: r.customerId });
    }
    await meta.audit.record({
      action: "billing.checkout_started",
      userId: actor.userId,
      accountId,
      detail: { plan: plan.id, interval: body.interval, replaces: live },
    });
    return { url: r.url };
  }

  async function portal(actor: Actor, accountId: string): Promise<{ url: string }> {
    const p = needProvider();
    const sub = await meta.billing.subscription(accountId);
    if (!sub?.provider_customer_id) {
      throw new DomainError("no_customer", "This account has not subscribed yet: choose a plan first.");
    }
    const customerId = sub.provider_customer_id;
    const back = await billingUrl();
    const r = await viaProvider(() => p.portal(customerId, back));
    await meta.audit.record({ action: "billing.portal_opened", userId: actor.userId, accountId, detail: {} });
    return r;
  }

  /** Where e-mails send people: the Billing page, or a description of it without a known address. */
  async function billingLink(): Promise<string> {
    const base = await deps.auth.linkBase(config.publicUrl);
    return base ? `${base}/billing` : "the Billing page of Lookout";
  }

  return {
    mode,
    plans,
    provider,
    billingLink,
    state,
    answer,
    notice,
    isLocked,
    assertReadable,
    assertCanAddProperty,
    assertCanAddMembers,
    checkout,
    portal,
    /** Forgets what this server remembers of an account's lock (after a plan or payment change). */
    forget: (accountId: string) => lockCache.delete(accountId),
  };
}
