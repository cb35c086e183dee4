// The registry of query kinds: one compiler per kind, in a record the type checker proves
// complete (a kind of QUERY_KINDS without a compiler, or a compiler for another kind's spec, does
// not compile). A new kind: its spec in @lookout/schema's union, one file here, one line below.
import type { QueryKind, QuerySpec, SpecOfKind } from "@lookout/schema";
import { settledParamsOf } from "../clickhouse-visits.js";
import type { CompileContext, CompiledStats } from "../compiled.js";
import type { SqlDialect } from "../dialects.js";
import { compileAggregate } from "./aggregate.js";
import { compileBreakdown } from "./breakdown.js";
import type { Compiler } from "./compiler.js";
import { compileGoals } from "./goals.js";
import { compileTimeseries } from "./timeseries.js";

/** Record<QueryKind, Compiler>, each compiler typed to its own kind's spec. */
export type CompilerRegistry = { readonly [K in QueryKind]: Compiler<K> };

export const COMPILERS: CompilerRegistry = {
  aggregate: compileAggregate,
  timeseries: compileTimeseries,
  breakdown: compileBreakdown,
  goals: compileGoals,
};

/** QuerySpec -> SQL text + bound parameters for `dialect`, by the spec's kind's compiler. */
export function compileQuery(spec: QuerySpec, dialect: SqlDialect, ctx: CompileContext): CompiledStats {
  const out = compileKind(spec.kind, spec, dialect, ctx);
  // The settled visits the statement was planned with are the ones it reads.
  return ctx.settledVisits ? { ...out, params: { ...out.params, ...settledParamsOf(out.sql, ctx.settledVisits) } } : out;
}

function compileKind<K extends QueryKind>(kind: K, spec: SpecOfKind<K>, dialect: SqlDialect, ctx: CompileContext): CompiledStats {
  return COMPILERS[kind](spec, dialect, ctx);
}
