// Insights (DESIGN.md §5): run an unsaved spec, and a property's saved insights (list, create,
// read, change, delete). Answers are parsed with the shared schemas, so a surprise reads as an
// error where it is shown, never as a crash.
import {
  INSIGHT_ANSWER_SCHEMAS,
  type Insight,
  type InsightActorsAnswer,
  InsightActorsAnswerSchema,
  type InsightAnswerOf,
  type InsightCreate,
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

export async function listInsights(propertyId: string, signal?: AbortSignal): Promise<Insight[]> {
  return InsightListSchema.parse(await request("GET", propertyUrl(propertyId), { signal })).results;
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

/** One page of the visitors behind a point (`at`, in the spec's kind's terms) of an insight. */
export async function insightActors(
  propertyId: string,
  body: { spec: InsightSpec; at: unknown; limit?: number; offset?: number },
  signal?: AbortSignal,
): Promise<InsightActorsAnswer> {
  return InsightActorsAnswerSchema.parse(await request("POST", `${propertyUrl(propertyId)}/actors`, { json: body, signal }));
}
