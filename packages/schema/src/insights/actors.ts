// The visitors behind a point of an insight (a funnel step's converted or dropped, a retention cell,
// a paths node, …): the request names the spec and, in `at`, the point in that kind's own terms
// (each kind's selector schema, registered in index.ts as INSIGHT_ACTOR_SELECTORS); the answer is
// one page of visitors, each linking to /customers/{clientId}.
import { z } from "zod";

export const INSIGHT_ACTOR_LIMITS = { defaultLimit: 50, maxLimit: 200, maxOffset: 10_000 } as const;

export const InsightActorSchema = z.object({
  client_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  last_seen: z.string().nullable(),
});
export type InsightActor = z.infer<typeof InsightActorSchema>;

export const InsightActorsAnswerSchema = z.object({
  visitors: z.array(InsightActorSchema),
  has_more: z.boolean(),
});
export type InsightActorsAnswer = z.infer<typeof InsightActorsAnswerSchema>;

/** Paging of an actors request. */
export const InsightActorsPageSchema = z.object({
  limit: z.number().int().min(1).max(INSIGHT_ACTOR_LIMITS.maxLimit).default(INSIGHT_ACTOR_LIMITS.defaultLimit),
  offset: z.number().int().min(0).max(INSIGHT_ACTOR_LIMITS.maxOffset).default(0),
});
