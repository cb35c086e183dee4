// The plans an operator sells (issue #24 §1): read once at start from the plans file
// (LOOKOUT_BILLING_PLANS, default the shipped apps/server/billing-plans.json), validated with the
// schema's PlansFileSchema; the plan an account is on; and the suggested plan (research/peers.md
// §5.1 `suggest_tier`: the smallest plan that fits the usage and the counts, never below the
// current one; none: contact the operator).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Plan, type PlansFile, PlansFileSchema } from "@lookout/schema";

/** The shipped plans file, beside the server's package.json (src/billing -> ../..; dist -> ..). */
export function defaultPlansPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, "..", "..", "billing-plans.json"), join(here, "..", "billing-plans.json")];
  for (const c of candidates) {
    try {
      readFileSync(c);
      return c;
    } catch {}
  }
  return candidates[0] as string;
}

/** Reads and validates a plans file; throws a message naming the file and the problem. */
export function loadPlans(path: string): PlansFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`LOOKOUT_BILLING_PLANS: cannot read ${path}: ${(err as Error).message}`);
  }
  const parsed = PlansFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`LOOKOUT_BILLING_PLANS: ${path} is not a valid plans file:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** The plan of self-hosted Lookout (LOOKOUT_BILLING=off): no limits. */
export const SELF_HOSTED_PLAN: Plan = {
  id: "self_hosted",
  name: "Self-hosted",
  limits: { events: null, properties: null, members: null },
  features: [],
  prices: { currency: "usd", month: null, year: null },
  hidden: true,
};

/** The plan a subscription row names, or the default plan when it names none of the file's. */
export function planById(plans: PlansFile, id: string | null | undefined): Plan {
  return plans.plans.find((p) => p.id === id) ?? (plans.plans.find((p) => p.id === plans.default_plan) as Plan);
}

const fits = (limit: number | null, need: number) => limit === null || need <= limit;

/**
 * The smallest plan one can buy (in the file's order) whose limits hold `need` and that is not
 * below the current plan; null when none does.
 */
export function suggestPlan(
  plans: PlansFile,
  current: Plan,
  need: { events: number; properties: number; members: number },
): string | null {
  const from = Math.max(
    0,
    plans.plans.findIndex((p) => p.id === current.id),
  );
  for (const p of plans.plans.slice(from)) {
    if (p.hidden && p.id !== current.id) continue;
    if (
      fits(p.limits.events, need.events) &&
      fits(p.limits.properties, need.properties) &&
      fits(p.limits.members, need.members)
    ) {
      return p.id;
    }
  }
  return null;
}
