// Product-analytics insights (DESIGN.md §3 insight, §4 definitions, §5 insight query): every kind's
// spec as one zod discriminated union on `kind`, each kind's answer in a record the type checker
// proves complete, and the saved insight with its list/create/patch bodies. A new kind: its file
// beside trends.ts, one member in the union, one line in INSIGHT_ANSWER_SCHEMAS and INSIGHT_KINDS.
import { z } from "zod";
import { ACCOUNT_ID_RE } from "../strings.js";
import { InsightActorsPageSchema } from "./actors.js";
import { INSIGHT_LIMITS, limitedText } from "./common.js";
import { FunnelActorSelectorSchema, FunnelAnswerSchema, FunnelSpecSchema } from "./funnel.js";
import { LifecycleAnswerSchema, LifecycleSpecSchema } from "./lifecycle.js";
import { PathsActorSelectorSchema, PathsAnswerSchema, PathsSpecSchema } from "./paths.js";
import { RetentionActorSelectorSchema, RetentionAnswerSchema, RetentionSpecSchema } from "./retention.js";
import { StickinessAnswerSchema, StickinessSpecSchema } from "./stickiness.js";
import { TrendsAnswerSchema, TrendsSpecSchema } from "./trends.js";

export * from "./actors.js";
export * from "./common.js";
export * from "./funnel.js";
export * from "./lifecycle.js";
export * from "./paths.js";
export * from "./references.js";
export * from "./retention.js";
export * from "./stickiness.js";
export * from "./trends.js";

/** Every insight kind's spec (DESIGN.md §6): one member per kind as each is built. */
export const InsightSpecSchema = z.discriminatedUnion("kind", [
  TrendsSpecSchema,
  FunnelSpecSchema,
  PathsSpecSchema,
  RetentionSpecSchema,
  LifecycleSpecSchema,
  StickinessSpecSchema,
]);
export type InsightSpec = z.infer<typeof InsightSpecSchema>;
export type InsightSpecInput = z.input<typeof InsightSpecSchema>;
export type InsightKind = InsightSpec["kind"];
export const INSIGHT_KINDS = [
  "trends",
  "funnel",
  "retention",
  "paths",
  "stickiness",
  "lifecycle",
] as const satisfies readonly InsightKind[];

/** Each kind's answer schema (what `POST …/insights/query` returns for a spec of that kind). */
export const INSIGHT_ANSWER_SCHEMAS = {
  trends: TrendsAnswerSchema,
  funnel: FunnelAnswerSchema,
  paths: PathsAnswerSchema,
  retention: RetentionAnswerSchema,
  lifecycle: LifecycleAnswerSchema,
  stickiness: StickinessAnswerSchema,
} as const satisfies { readonly [K in InsightKind]: z.ZodType };
export type InsightAnswerOf<K extends InsightKind> = z.infer<(typeof INSIGHT_ANSWER_SCHEMAS)[K]>;
export type InsightAnswer = InsightAnswerOf<InsightKind>;
/** Any kind's answer: each names its kind, as the spec does. */
export const InsightAnswerSchema = z.discriminatedUnion("kind", [
  TrendsAnswerSchema,
  FunnelAnswerSchema,
  PathsAnswerSchema,
  RetentionAnswerSchema,
  LifecycleAnswerSchema,
  StickinessAnswerSchema,
]);

/**
 * Each kind's selector of a point whose visitors can be listed (`at` in an actors request), or null
 * where the kind has none yet. Funnel: a step and converted/dropped; retention: a cohort and period…
 */
export const INSIGHT_ACTOR_SELECTORS = {
  trends: null,
  funnel: FunnelActorSelectorSchema,
  paths: PathsActorSelectorSchema,
  retention: RetentionActorSelectorSchema,
  lifecycle: null,
  stickiness: null,
} as const satisfies { readonly [K in InsightKind]: z.ZodType | null };
export type InsightActorSelectorOf<K extends InsightKind> = (typeof INSIGHT_ACTOR_SELECTORS)[K] extends z.ZodType
  ? z.infer<(typeof INSIGHT_ACTOR_SELECTORS)[K]>
  : never;

/**
 * `POST …/insights/actors`: the spec, the point (`at`, in the spec's kind's terms: checked against
 * INSIGHT_ACTOR_SELECTORS by the service, after access is decided) and the page.
 */
export const InsightActorsBodySchema = InsightActorsPageSchema.extend({
  spec: InsightSpecSchema,
  at: z.unknown(),
});
export type InsightActorsBody = z.infer<typeof InsightActorsBodySchema>;

// --- saved insights ------------------------------------------------------------------------------

export const INSIGHT_SHORT_ID_RE = /^[A-Za-z0-9]{8}$/;
const Tags = z
  .array(limitedText(INSIGHT_LIMITS.maxTagLength).refine((s) => s.trim().length > 0, "empty tag"))
  .max(INSIGHT_LIMITS.maxTags);

export const InsightSchema = z.object({
  short_id: z.string(),
  kind: z.string(),
  name: z.string(),
  description: z.string(),
  spec: InsightSpecSchema,
  created_by: z.string().nullable(),
  /** The creator's display name (null once their user is gone). */
  created_by_name: z.string().nullable(),
  favourite: z.boolean(),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /** When the caller last opened it (GET /api/v1/insights/{shortId}); null: never. */
  last_viewed_at: z.string().nullable(),
});
export type Insight = z.infer<typeof InsightSchema>;

/** The saved-insights list's tabs: every one, the caller's, the favourites, the ones the caller opened. */
export const INSIGHT_LIST_TABS = ["all", "mine", "favourites", "recent"] as const;
export type InsightListTab = (typeof INSIGHT_LIST_TABS)[number];
/** Orders of the list: last modified, created and last viewed by me newest first; name A to Z. */
export const INSIGHT_LIST_SORTS = ["updated", "created", "viewed", "name"] as const;
export type InsightListSort = (typeof INSIGHT_LIST_SORTS)[number];

/** `GET …/insights` query: every filter is optional and they combine (and). */
export const InsightListQuerySchema = z.object({
  search: limitedText(INSIGHT_LIMITS.maxNameLength)
    .trim()
    .optional()
    .describe("Part of the name or description (case-insensitive)."),
  kind: z.enum(INSIGHT_KINDS).optional().describe("Only insights of this kind."),
  tag: limitedText(INSIGHT_LIMITS.maxTagLength).optional().describe("Only insights with this tag (exact)."),
  creator: z.string().regex(ACCOUNT_ID_RE, "is not a user id").optional().describe("Only insights created by this user id."),
  tab: z.enum(INSIGHT_LIST_TABS).default("all"),
  sort: z.enum(INSIGHT_LIST_SORTS).default("updated"),
});
export type InsightListQuery = z.output<typeof InsightListQuerySchema>;

export const InsightListSchema = z.object({
  results: z.array(InsightSchema),
  /** Every tag on the property's live insights, A to Z (the tag filter's choices). */
  tags: z.array(z.string()),
  /** Everyone who created one of them (the creator filter's choices). */
  creators: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type InsightList = z.infer<typeof InsightListSchema>;

export const InsightCreateSchema = z.object({
  name: limitedText(INSIGHT_LIMITS.maxNameLength).refine((s) => s.trim().length > 0, "name required"),
  description: limitedText(INSIGHT_LIMITS.maxDescriptionLength).default(""),
  spec: InsightSpecSchema,
  favourite: z.boolean().default(false),
  tags: Tags.default([]),
});
export type InsightCreate = z.infer<typeof InsightCreateSchema>;

export const InsightPatchSchema = z
  .object({
    name: limitedText(INSIGHT_LIMITS.maxNameLength).refine((s) => s.trim().length > 0, "name required"),
    description: limitedText(INSIGHT_LIMITS.maxDescriptionLength),
    spec: InsightSpecSchema,
    favourite: z.boolean(),
    tags: Tags,
  })
  .partial()
  .refine((p) => Object.keys(p).length > 0, "nothing to change");
export type InsightPatch = z.infer<typeof InsightPatchSchema>;
