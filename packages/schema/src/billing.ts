// Billing (DESIGN.md §3, §4 "billable events", §5 "billing"; issue #24): the plans an operator
// configures, the billing answer of an account (plan, status, limits, usage of the current
// period with its projection, the last periods, the split by property, the banner to show, the
// suggested plan, invoices), and the bodies and answers of checkout, portal and the banner call.
// Field names of the billing answer are binding (DESIGN.md §5); the rest is ours.
import { z } from "zod";

/** `LOOKOUT_BILLING`: off (self-hosted: no limits, usage shown only) or stripe (a paid service). */
export const BILLING_MODES = ["off", "stripe"] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

/**
 * active: within the plan (warnings may show); grace: the 7 days after enforcement started (or a
 * failed payment) during which everything works; locked: dashboards, Stats API and insights
 * answer 402 `account_locked` while collection, settings, exports and billing go on;
 * self_hosted: LOOKOUT_BILLING=off, no limits.
 */
export const BILLING_STATUSES = ["active", "grace", "locked", "self_hosted"] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

export const BILLING_INTERVALS = ["month", "year"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** The warnings of the current period, in % of the plan's monthly event limit. */
export const USAGE_THRESHOLDS = [80, 90, 100] as const;
export type UsageThreshold = (typeof USAGE_THRESHOLDS)[number];

/** Enforcement starts when the last two complete periods were both at or over limit × this. */
export const LIMIT_MARGIN = 1.1;
/** Days between the enforcement e-mail (or a failed payment) and the lock. */
export const GRACE_DAYS = 7;

/** Features a plan may include (shown on the plan cards; the suggestion asks for the ones in use). */
export const PLAN_FEATURES = [
  "goals",
  "shared_links",
  "stats_api",
  "insights",
  "funnels",
  "email_reports",
  "exports",
  "revenue_goals",
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

const PlanIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "is not a plan id (lowercase letters, digits, - and _)");

/** A limit: a whole number, or null for unlimited. */
const LimitSchema = z.number().int().min(0).nullable();

/** A price in the currency's minor unit (cents), per month or per year; null: not sold that way. */
const PriceSchema = z.number().int().min(0).nullable();

/** One plan as the plans file (LOOKOUT_BILLING_PLANS, default apps/server/billing-plans.json) defines it. */
export const PlanSchema = z
  .object({
    id: PlanIdSchema,
    name: z.string().min(1).max(100),
    limits: z.object({
      /** Billable events per billing period (DESIGN.md §4). */
      events: LimitSchema,
      properties: LimitSchema,
      members: LimitSchema,
    }),
    features: z.array(z.enum(PLAN_FEATURES)).default([]),
    prices: z.object({
      currency: z
        .string()
        .regex(/^[a-z]{3}$/, "is not a lowercase ISO 4217 code")
        .default("usd"),
      month: PriceSchema,
      year: PriceSchema,
    }),
    /** A plan nobody buys (the free plan every new account starts on; a custom plan). */
    hidden: z.boolean().default(false),
  })
  .strict();
export type Plan = z.infer<typeof PlanSchema>;

/** The plans file: the plans in order (smallest first) and the one accounts without a subscription are on. */
export const PlansFileSchema = z
  .object({
    default_plan: PlanIdSchema,
    plans: z.array(PlanSchema).min(1).max(50),
  })
  .strict()
  .superRefine((f, ctx) => {
    const ids = new Set<string>();
    for (const p of f.plans) {
      if (ids.has(p.id)) ctx.addIssue({ code: "custom", message: `plan "${p.id}" is defined twice`, path: ["plans"] });
      ids.add(p.id);
    }
    if (!ids.has(f.default_plan)) {
      ctx.addIssue({ code: "custom", message: `default_plan "${f.default_plan}" is not a plan`, path: ["default_plan"] });
    }
  });
export type PlansFile = z.infer<typeof PlansFileSchema>;

/**
 * The banner the app shows to an account's members, most urgent first (research/peers.md §5.1's
 * priority): locked, grace (enforcement or a failed payment), sustained (both last periods over
 * the limit, not yet over the margin), exceeded_last_period, reached_100 / approaching_90 /
 * approaching_80 (the current period), property_limit / member_limit (at the plan's limit).
 */
export const BILLING_NOTICE_KINDS = [
  "locked",
  "grace",
  "payment_failed",
  "sustained",
  "exceeded_last_period",
  "reached_100",
  "approaching_90",
  "approaching_80",
  "property_and_member_limit",
  "property_limit",
  "member_limit",
] as const;
export type BillingNoticeKind = (typeof BILLING_NOTICE_KINDS)[number];

export const BillingNoticeSchema = z.object({
  kind: z.enum(BILLING_NOTICE_KINDS),
  /** How the banner looks: danger (locked), warning (grace, over the limit), info (approaching). */
  level: z.enum(["info", "warning", "danger"]),
  /** A sentence for people, with the numbers in it. */
  message: z.string(),
});
export type BillingNotice = z.infer<typeof BillingNoticeSchema>;

const IsoInstant = z.string().describe("ISO 8601 instant (UTC)");

export const BillingPeriodUsageSchema = z.object({
  period_start: IsoInstant,
  /** Exclusive end of the period. */
  period_end: IsoInstant,
  events: z.number().int(),
  /** The plan's event limit in that period (null: unlimited). */
  limit: z.number().int().nullable(),
  /** events ≥ ceil(limit × 1.1): the period counts toward enforcement. */
  over_margin: z.boolean(),
});
export type BillingPeriodUsage = z.infer<typeof BillingPeriodUsageSchema>;

export const PropertyUsageSchema = z.object({
  /** The property's unique_id. */
  property_id: z.string(),
  name: z.string(),
  events: z.number().int(),
});

export const InvoiceSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  created_at: IsoInstant,
  /** Minor units (cents). */
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(["draft", "open", "paid", "uncollectible", "void"]),
  /** The provider's hosted page of the invoice (http(s) only). */
  url: z.string().nullable(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/** GET /api/v1/accounts/{accountId}/billing (owners). */
export const BillingAnswerSchema = z.object({
  mode: z.enum(BILLING_MODES),
  /** The plan's id ("self_hosted" when billing is off). */
  plan: z.string(),
  plan_name: z.string(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  status: z.enum(BILLING_STATUSES),
  /** When the grace period ends and the account locks (status grace), else null. */
  grace_ends_at: IsoInstant.nullable(),
  /** Whether the provider reported the last payment failed. */
  payment_failed: z.boolean(),
  /** Whether the subscription ends at the current period's end (cancelled in the portal). */
  cancel_at_period_end: z.boolean(),
  limits: z.object({ events: LimitSchema, properties: LimitSchema, members: LimitSchema }),
  /** The current billing period: its billable events so far and the projection to its end. */
  usage: z.object({
    period_start: IsoInstant,
    period_end: IsoInstant,
    events: z.number().int(),
    /** events scaled linearly from the time elapsed to the whole period. */
    projected: z.number().int(),
    /** events / limit in % (one decimal), null when unlimited. */
    percent: z.number().nullable(),
    by_property: z.array(PropertyUsageSchema),
  }),
  /** Properties and members the account has now (for the limits). */
  counts: z.object({ properties: z.number().int(), members: z.number().int() }),
  /** Up to the last 12 complete periods, oldest first. */
  history: z.array(BillingPeriodUsageSchema),
  /** The thresholds (80, 90, 100) the current period has reached. */
  thresholds_reached: z.array(z.number().int()),
  /** The banner to show (the most urgent), or null. */
  notice: BillingNoticeSchema.nullable(),
  /** The plans one can buy, smallest first (empty when billing is off). */
  plans: z.array(PlanSchema),
  /** The smallest plan that fits the usage (never below the current one); null: none fits (contact us). */
  suggested_plan: z.string().nullable(),
  /** The account's invoices, newest first (empty when billing is off or none yet). */
  invoices: z.array(InvoiceSchema),
});
export type BillingAnswer = z.infer<typeof BillingAnswerSchema>;

/** GET /api/v1/accounts/{accountId}/billing/notice (every member): what the app-wide banner needs. */
export const BillingNoticeAnswerSchema = z.object({
  mode: z.enum(BILLING_MODES),
  plan: z.string(),
  plan_name: z.string(),
  status: z.enum(BILLING_STATUSES),
  /** The current billing period's start (a dismissed usage banner stays dismissed for it). */
  period_start: IsoInstant,
  notice: BillingNoticeSchema.nullable(),
  grace_ends_at: IsoInstant.nullable(),
});
export type BillingNoticeAnswer = z.infer<typeof BillingNoticeAnswerSchema>;

/** POST …/billing/checkout: subscribe to a plan, or change to it. */
export const CheckoutBodySchema = z
  .object({
    plan: PlanIdSchema,
    interval: z.enum(BILLING_INTERVALS).default("month"),
  })
  .strict();
export type CheckoutBody = z.input<typeof CheckoutBodySchema>;

/** Where to send the browser: the provider's checkout or portal page (or back to /billing). */
export const BillingRedirectSchema = z.object({ url: z.string() });
export type BillingRedirect = z.infer<typeof BillingRedirectSchema>;

/** POST /api/v1/billing/webhook answer. */
export const WebhookAnswerSchema = z.object({
  received: z.literal(true),
  /** false when the event id was handled before (a replay), or its type is not one we act on. */
  handled: z.boolean(),
});

/** The 402 body of a locked account's dashboards, Stats API and insights reads. */
export const ACCOUNT_LOCKED_CODE = "account_locked";
