// The plan cards' decisions, pure: which plans are offered (the ones one can buy, plus the current
// one even when hidden, such as the free plan every account starts on), what choosing a plan is
// (the current one, an upgrade or a downgrade by the plans file's order, smallest first, or a
// switch of billing interval), the price a card shows for the chosen interval, and what yearly
// billing saves.
import type { BillingInterval, Plan } from "@lookout/schema";

export type PlanChoice = "current" | "upgrade" | "downgrade" | "switch_interval" | "unavailable";

/** Plans shown as cards: not hidden, or the current plan. */
export function offeredPlans(plans: readonly Plan[], currentId: string): Plan[] {
  return plans.filter((p) => !p.hidden || p.id === currentId);
}

/** What picking `plan` at `interval` means for an account on `currentId` billed by `currentInterval`. */
export function choiceFor(
  plans: readonly Plan[],
  plan: Plan,
  interval: BillingInterval,
  currentId: string,
  currentInterval: BillingInterval | null,
): PlanChoice {
  if (plan.prices[interval] === null && plan.id !== currentId) return "unavailable";
  if (plan.id === currentId) {
    // The free plan (no interval) or the same billing: nothing to buy.
    if (currentInterval === null || currentInterval === interval) return "current";
    return plan.prices[interval] === null ? "unavailable" : "switch_interval";
  }
  const here = plans.findIndex((p) => p.id === currentId);
  const there = plans.findIndex((p) => p.id === plan.id);
  // An unknown current plan (removed from the file): anything bought is a move up.
  if (here < 0) return "upgrade";
  return there > here ? "upgrade" : "downgrade";
}

/** The button's words for a choice. */
export const CHOICE_LABEL: Record<PlanChoice, string> = {
  current: "Current plan",
  upgrade: "Upgrade",
  downgrade: "Downgrade",
  switch_interval: "Switch billing",
  unavailable: "Not available",
};

/** What a year costs against twelve months, in whole percent; null when one of them is not sold. */
export function yearlySaving(plan: Plan): number | null {
  const { month, year } = plan.prices;
  if (month === null || year === null || month === 0) return null;
  const saving = Math.round((1 - year / (month * 12)) * 100);
  return saving > 0 ? saving : null;
}

/** The best yearly saving among the plans (for the toggle: "Yearly · save up to 17 %"). */
export function bestYearlySaving(plans: readonly Plan[]): number | null {
  const savings = plans.map(yearlySaving).filter((s): s is number => s !== null);
  return savings.length ? Math.max(...savings) : null;
}

/** Whether any offered plan can be bought yearly (else the toggle is not shown). */
export function sellsYearly(plans: readonly Plan[]): boolean {
  return plans.some((p) => !p.hidden && p.prices.year !== null);
}
