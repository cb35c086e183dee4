// Paths (DESIGN.md §4 Paths, §5 the paths answer): the pages (or custom events, or both) of each
// visit in time order with consecutive repeats collapsed, from a start point and/or to an end
// point, 3–10 steps; an edge's weight is the number of distinct visitors who made that transition
// at that step; the top 50 edges, drawn as a Sankey. A node is a step and an item ("3" + "/pricing").
import { z } from "zod";
import { checkCustomDate, INSIGHT_LIMITS, insightCommon, limitedText } from "./common.js";

export const PATHS_LIMITS = { minSteps: 3, maxSteps: 10, defaultSteps: 5, maxEdges: 50 } as const;

/** What a node is: a pageview's page path, a custom event's name, or either. */
export const PATH_ITEM_TYPES = ["pageview", "event", "all"] as const;
export type PathItemType = (typeof PATH_ITEM_TYPES)[number];

const Point = limitedText(INSIGHT_LIMITS.maxEventNameLength).refine((s) => s.length > 0, "empty point");

export const PathsSpecSchema = z
  .object({
    kind: z.literal("paths"),
    ...insightCommon,
    type: z.enum(PATH_ITEM_TYPES).default("pageview"),
    /** The item every path starts from (its first occurrence in the visit). */
    start: Point.optional(),
    /** The item every path ends at (its first occurrence, after the start when there is one). */
    end: Point.optional(),
    steps: z.number().int().default(PATHS_LIMITS.defaultSteps),
  })
  .superRefine((s, ctx) => {
    checkCustomDate(s, ctx);
    if (s.steps > PATHS_LIMITS.maxSteps) {
      ctx.addIssue({ code: "custom", message: `too many steps (at most ${PATHS_LIMITS.maxSteps})`, path: ["steps"] });
    }
    if (s.steps < PATHS_LIMITS.minSteps) {
      ctx.addIssue({ code: "custom", message: `too few steps (at least ${PATHS_LIMITS.minSteps})`, path: ["steps"] });
    }
    if (s.start !== undefined && s.start === s.end) {
      ctx.addIssue({ code: "custom", message: "the end point must differ from the start point", path: ["end"] });
    }
  });
export type PathsSpec = z.infer<typeof PathsSpecSchema>;
export type PathsSpecInput = z.input<typeof PathsSpecSchema>;

/** One edge: `visitors` distinct visitors went from `source` at step `step` to `target` at step + 1. */
export const PathsEdgeSchema = z.object({
  step: z.number().int(),
  source: z.string(),
  target: z.string(),
  visitors: z.number().int(),
});
export type PathsEdge = z.infer<typeof PathsEdgeSchema>;

/** A node of the drawn edges: the distinct visitors whose path has `node` at `step`. */
export const PathsNodeSchema = z.object({
  step: z.number().int(),
  node: z.string(),
  visitors: z.number().int(),
});
export type PathsNode = z.infer<typeof PathsNodeSchema>;

export const PathsAnswerSchema = z.object({
  kind: z.literal("paths"),
  results: z.object({
    edges: z.array(PathsEdgeSchema),
    nodes: z.array(PathsNodeSchema),
    /** Visits whose path counted (they had the start/end point and at least one item). */
    paths: z.number().int(),
  }),
});
export type PathsAnswer = z.infer<typeof PathsAnswerSchema>;

/** A node whose visitors are listed: the item at a step (1-based). */
export const PathsActorSelectorSchema = z.object({
  step: z.number().int().min(1).max(PATHS_LIMITS.maxSteps),
  node: limitedText(2000),
});
export type PathsActorSelector = z.infer<typeof PathsActorSelectorSchema>;
