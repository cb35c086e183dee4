// The goals domain (DESIGN.md §3, §4): a property's custom-event and pageview goals, listed,
// created (one per kind and match, display names unique, at most GOAL_LIMITS.maxGoals) and
// deleted, each change audited. Also the goals a goals query counts (stats/service.ts), so that
// patterns reach the query compiler only from the property's own goals.
// No HTTP here: the caller (routes.ts) has authorized the actor already.
import { type CreateGoalBody, defaultGoalName, GOAL_LIMITS, type Goal, type SpecGoal } from "@lookout/schema";
import type { GoalRow, MetaStore, PropertyRow } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";

export function toGoal(g: GoalRow): Goal {
  return {
    id: g.id,
    kind: g.kind,
    match: g.match,
    display_name: g.display_name,
    currency: g.currency,
    created_at: g.created_at.toISOString(),
  };
}

/** A property's goals as a goals query names them: display names unique, at most maxGoals. */
export async function specGoals(meta: MetaStore, property: PropertyRow): Promise<SpecGoal[]> {
  const seen = new Set<string>();
  const out: SpecGoal[] = [];
  for (const g of await meta.goals.list(property.id)) {
    // Two servers may race past the service's name check; the older goal keeps the name.
    if (seen.has(g.display_name) || out.length >= GOAL_LIMITS.maxGoals) continue;
    seen.add(g.display_name);
    out.push({ kind: g.kind, name: g.display_name, match: g.match });
  }
  return out;
}

export function createGoalService({ meta }: { meta: MetaStore }) {
  return {
    async list(property: PropertyRow): Promise<{ goals: Goal[] }> {
      return { goals: (await meta.goals.list(property.id)).map(toGoal) };
    },

    async create(actor: Actor, property: PropertyRow, body: CreateGoalBody): Promise<Goal> {
      const displayName = body.display_name ?? defaultGoalName(body.kind, body.match);
      const existing = await meta.goals.list(property.id);
      if (existing.length >= GOAL_LIMITS.maxGoals) {
        throw new DomainError("goal_limit", `A property has at most ${GOAL_LIMITS.maxGoals} goals; delete one first.`);
      }
      if (existing.some((g) => g.display_name === displayName)) {
        throw new DomainError("goal_exists", "A goal with this name exists already.", { field: "display_name" });
      }
      const row = await meta.goals.create({
        propertyId: property.id,
        kind: body.kind,
        match: body.match,
        displayName,
        currency: body.kind === "event" ? (body.currency ?? null) : null,
      });
      if (!row) {
        const what = body.kind === "event" ? "this custom event" : "this page pattern";
        throw new DomainError("goal_exists", `This property has a goal for ${what} already.`, { field: "match" });
      }
      await meta.audit.record({
        action: "goal.create",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, goal_id: row.id, kind: row.kind, match: row.match },
      });
      return toGoal(row);
    },

    async remove(actor: Actor, property: PropertyRow, id: string): Promise<void> {
      const row = await meta.goals.delete(property.id, id);
      if (!row) throw new DomainError("not_found", "Goal not found.");
      await meta.audit.record({
        action: "goal.delete",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, goal_id: row.id, kind: row.kind, match: row.match },
      });
    },
  };
}
