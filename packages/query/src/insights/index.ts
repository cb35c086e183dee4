// The registry of insight kinds (DESIGN.md §6): one compiler per kind of @lookout/schema's
// InsightSpec union, in a record the type checker proves complete. A new kind (funnel,
// retention, …): its spec in the union, its file here, one line below.
import type { InsightKind, InsightSpec } from "@lookout/schema";
import type { CompileContext } from "../compiled.js";
import type { SqlDialect } from "../dialects.js";
import { type CompiledFunnel, compileFunnel } from "./funnel.js";
import { type CompiledLifecycle, compileLifecycle } from "./lifecycle.js";
import { type CompiledPaths, compilePaths } from "./paths.js";
import { type CompiledRetention, compileRetention } from "./retention.js";
import { type CompiledStickiness, compileStickiness } from "./stickiness.js";
import { type CompiledTrends, compileTrends } from "./trends.js";

type SpecOf<K extends InsightKind> = Extract<InsightSpec, { kind: K }>;

/** What each kind compiles to. */
export interface CompiledInsights {
  trends: CompiledTrends;
  paths: CompiledPaths;
  funnel: CompiledFunnel;
  retention: CompiledRetention;
  lifecycle: CompiledLifecycle;
  stickiness: CompiledStickiness;
}

export type InsightCompiler<K extends InsightKind> = (
  spec: SpecOf<K>,
  property: string,
  dialect: SqlDialect,
  ctx: CompileContext,
) => CompiledInsights[K];

export const INSIGHT_COMPILERS: { readonly [K in InsightKind]: InsightCompiler<K> } = {
  trends: compileTrends,
  paths: compilePaths,
  funnel: compileFunnel,
  retention: compileRetention,
  lifecycle: compileLifecycle,
  stickiness: compileStickiness,
};
