// runInsight: where any insight spec meets an EventStore. One runner per kind of @lookout/schema's
// InsightSpec union, in a record the type checker proves complete (a new kind: its runner file
// beside trends.ts, one line below). Each runner compiles for the store's dialect, runs its
// statements through `queryInsight` and shapes the rows into its kind's answer.

import type { CompiledQuery } from "@lookout/query";
import { profilesSql, QueryError } from "@lookout/query";
import {
  INSIGHT_ACTOR_SELECTORS,
  type InsightActorSelectorOf,
  type InsightActorsAnswer,
  type InsightActorsBody,
  type InsightAnswerOf,
  type InsightKind,
  type InsightSpec,
  InsightSpecSchema,
} from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { runFunnel, runFunnelActors } from "./funnel.js";
import { runLifecycle } from "./lifecycle.js";
import { runPaths, runPathsActors } from "./paths.js";
import { runRetention, runRetentionActors } from "./retention.js";
import type { StatsContext } from "./stats.js";
import { runStickiness } from "./stickiness.js";
import { runTrends } from "./trends.js";

type SpecOf<K extends InsightKind> = Extract<InsightSpec, { kind: K }>;
export type InsightRunner<K extends InsightKind> = (
  store: EventReader,
  property: string,
  spec: SpecOf<K>,
  ctx: StatsContext,
) => Promise<InsightAnswerOf<K>>;

export const INSIGHT_RUNNERS: { readonly [K in InsightKind]: InsightRunner<K> } = {
  trends: runTrends,
  paths: runPaths,
  funnel: runFunnel,
  retention: runRetention,
  lifecycle: runLifecycle,
  stickiness: runStickiness,
};

/** Runs a spec of any kind (validated here, so callers may pass the raw body). */
export async function runInsight(
  store: EventReader,
  property: string,
  spec: InsightSpec,
  ctx: StatsContext,
): Promise<InsightAnswerOf<InsightKind>> {
  const parsed = InsightSpecSchema.parse(spec);
  const runner = INSIGHT_RUNNERS[parsed.kind] as InsightRunner<typeof parsed.kind>;
  return runner(store, property, parsed, ctx);
}

/** One page of the client ids behind a point of an insight; `has_more` when the page is full and more follow. */
export interface InsightActorIds {
  client_ids: string[];
  has_more: boolean;
}
export type InsightActorsRunner<K extends InsightKind> = (
  store: EventReader,
  property: string,
  spec: SpecOf<K>,
  at: InsightActorSelectorOf<K>,
  page: { limit: number; offset: number },
  ctx: StatsContext,
) => Promise<InsightActorIds>;

/**
 * Each kind's visitors-behind-a-point runner (null where the kind has no selector, as
 * INSIGHT_ACTOR_SELECTORS says). A runner orders its ids (client_id) so that pages neither repeat nor skip.
 */
export const INSIGHT_ACTORS: {
  readonly [K in InsightKind]: InsightActorSelectorOf<K> extends never ? null : InsightActorsRunner<K>;
} = {
  trends: null,
  paths: runPathsActors,
  funnel: runFunnelActors,
  retention: runRetentionActors,
  lifecycle: null,
  stickiness: null,
};

/** The visitors behind a point of an insight: the kind's runner pages the ids, profiles name them. */
export async function runInsightActors(
  store: EventReader,
  property: string,
  body: InsightActorsBody,
  ctx: StatsContext,
): Promise<InsightActorsAnswer> {
  const spec = InsightSpecSchema.parse(body.spec);
  const runner = INSIGHT_ACTORS[spec.kind] as InsightActorsRunner<InsightKind> | null;
  const selector = INSIGHT_ACTOR_SELECTORS[spec.kind] as { parse(v: unknown): unknown } | null;
  if (runner === null || selector === null) {
    // InsightActorsBodySchema refuses such a body with a 400 before it gets here.
    throw new Error(`a ${spec.kind} insight has no visitor list`);
  }
  const at = selector.parse(body.at) as InsightActorSelectorOf<InsightKind>;
  const { client_ids, has_more } = await runner(store, property, spec, at, { limit: body.limit, offset: body.offset }, ctx);
  if (client_ids.length === 0) return { visitors: [], has_more: false };
  const profiles = new Map<string, Record<string, unknown>>();
  for (const row of await store.query<Record<string, unknown>>(profilesSql(store.dialect, property, client_ids))) {
    profiles.set(String(row.client_id), row);
  }
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return {
    visitors: client_ids.map((id) => {
      const p = profiles.get(id);
      const last = p?.last_seen_ms === undefined || p.last_seen_ms === null ? null : Number(p.last_seen_ms);
      return {
        client_id: id,
        email: text(p?.email),
        name: text(p?.name),
        last_seen: last === null || !Number.isFinite(last) || last <= 0 ? null : new Date(last).toISOString(),
      };
    }),
    has_more,
  };
}

export const REGEX_ERROR = /regex|regular expression|re2|invalid escape sequence|repetition|invalid perl operator/i;

/** Runs one compiled insight statement; an RE2-invalid regex that JavaScript accepted is bad input, not a server error. */
export async function queryInsight<Row>(store: EventReader, compiled: CompiledQuery): Promise<Row[]> {
  try {
    return await store.query<Row>(compiled);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (REGEX_ERROR.test(msg)) throw new QueryError("invalid_regex", "invalid regular expression", "filters");
    throw err;
  }
}
