// What a kind compiler is, and the pieces every web-analytics kind shares: the plan input its
// spec's common part (property, filters, metrics, goal) and the store's abilities give, and the
// period of a resolved range.
import type { QueryKind, QuerySpec, SpecOfKind } from "@lookout/schema";
import type { CompileContext, CompiledStats } from "../compiled.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import type { Period } from "../parts.js";
import type { PlanInput } from "../plan.js";

/** Compiles one kind's spec: pure, no I/O (the caller passes "now" in ctx). */
export type Compiler<K extends QueryKind> = (spec: SpecOfKind<K>, dialect: SqlDialect, ctx: CompileContext) => CompiledStats;

/** The plan input of the spec parts every kind has; the kind adds key, periods, order and cap. */
export function commonInput(
  spec: QuerySpec,
  dialect: SqlDialect,
  ctx: CompileContext,
): Omit<PlanInput, "key" | "periods" | "order" | "limit" | "offset"> {
  const d = DIALECTS[dialect];
  return {
    property: spec.property,
    timezone: ctx.timezone,
    metrics: spec.metrics,
    filters: spec.filters,
    goal: spec.goal,
    prevColumns: d.prevColumns,
    dayRollups: d.dayRows,
    dayRollupThrough: ctx.dayRollupThrough,
    settledVisits: ctx.settledVisits,
  };
}

export const periodOf = (from: Date, to: Date): Period => ({ from: from.getTime(), to: to.getTime() });
