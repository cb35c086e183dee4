// Insights (DESIGN.md §5): run an unsaved spec, and a property's saved insights (list, create,
// read, change, duplicate, delete and its undo). Answers are parsed with the shared schemas, so a surprise reads as an
// error where it is shown, never as a crash.
import {
  INSIGHT_ANSWER_SCHEMAS,
  type Insight,
  type InsightActorsAnswer,
  InsightActorsAnswerSchema,
  type InsightAnswerOf,
  type InsightCreate,
  type InsightList,
  type InsightListQuery,
  InsightListSchema,
  type InsightPatch,
  InsightSchema,
  type InsightSpec,
} from "@lookout/schema";
import { request } from "../../lib/http";

const propertyUrl = (propertyId: string) => `/api/v1/properties/${encodeURIComponent(propertyId)}/insights`;
const insightUrl = (shortId: string) => `/api/v1/insights/${encodeURIComponent(shortId)}`;

/** Runs a spec; its answer is parsed with its own kind's schema. */
export async function runInsight<S extends InsightSpec>(
  propertyId: string,
  spec: S,
  signal?: AbortSignal,
): Promise<InsightAnswerOf<S["kind"]>> {
  const answer = await request("POST", `${propertyUrl(propertyId)}/query`, { json: spec, signal });
  return INSIGHT_ANSWER_SCHEMAS[spec.kind].parse(answer) as InsightAnswerOf<S["kind"]>;
}

/** The list as filtered, searched, tabbed and sorted by `query` (defaults left out of the URL). */
export async function listInsights(
  propertyId: string,
  query: Partial<InsightListQuery>,
  signal?: AbortSignal,
): Promise<InsightList> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) qs.set(k, v);
  const url = qs.size > 0 ? `${propertyUrl(propertyId)}?${qs}` : propertyUrl(propertyId);
  return InsightListSchema.parse(await request("GET", url, { signal }));
}

export async function getInsight(shortId: string, signal?: AbortSignal): Promise<Insight> {
  return InsightSchema.parse(await request("GET", insightUrl(shortId), { signal }));
}

export async function createInsight(propertyId: string, body: InsightCreate): Promise<Insight> {
  return InsightSchema.parse(await request("POST", propertyUrl(propertyId), { json: body }));
}

export async function updateInsight(shortId: string, patch: InsightPatch): Promise<Insight> {
  return InsightSchema.parse(await request("PATCH", insightUrl(shortId), { json: patch }));
}

export async function deleteInsight(shortId: string): Promise<void> {
  await request("DELETE", insightUrl(shortId));
}

/** Undoes a delete. */
export async function restoreInsight(shortId: string): Promise<Insight> {
  return InsightSchema.parse(await request("POST", `${insightUrl(shortId)}/restore`));
}

export async function duplicateInsight(shortId: string): Promise<Insight> {
  return InsightSchema.parse(await request("POST", `${insightUrl(shortId)}/duplicate`));
}

/** One page of the visitors behind a point (`at`, in the spec's kind's terms) of an insight. */
export async function insightActors(
  propertyId: string,
  body: { spec: InsightSpec; at: unknown; limit?: number; offset?: number },
  signal?: AbortSignal,
): Promise<InsightActorsAnswer> {
  return InsightActorsAnswerSchema.parse(await request("POST", `${propertyUrl(propertyId)}/actors`, { json: body, signal }));
}
