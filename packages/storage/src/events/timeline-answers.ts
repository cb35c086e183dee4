// A store's answers from its visitor timelines (timelines.ts keeps them): each kind planned as its
// statement would be, its rows or outcomes taken from the timelines, and shaped by the same
// function that shapes the statement's, so both paths answer alike. Both stores use it.
import {
  planFunnel,
  planLifecycle,
  planRetention,
  planStickiness,
  retentionAnswer,
  shapeFunnel,
  shapeLifecycle,
  shapeStickiness,
  stickinessStarts,
} from "@lookout/query";
import type { EventStore } from "./event-store.js";
import type { Timelines } from "./timelines.js";

/** A store's timeline answers (EventStore's funnelFromTimelines and the others) from its timelines (null: none). */
export function timelineAnswers<S>(
  timelines: Timelines<S> | null,
): Pick<
  EventStore,
  | "funnelFromTimelines"
  | "retentionFromTimelines"
  | "stickinessFromTimelines"
  | "lifecycleFromTimelines"
  | "funnelActorsFromTimelines"
> {
  return {
    funnelFromTimelines: async (property, spec, ctx) => {
      if (!timelines) return null;
      const plan = planFunnel(spec, ctx);
      const outcomes = await timelines.funnel(property, spec, plan);
      return outcomes && shapeFunnel(plan, outcomes);
    },
    retentionFromTimelines: async (property, spec, ctx) => {
      if (!timelines) return null;
      const plan = planRetention(spec, ctx);
      const cells = await timelines.retention(property, spec, plan, ctx.timezone);
      return cells && retentionAnswer(plan, cells);
    },
    stickinessFromTimelines: async (property, spec, ctx) => {
      if (!timelines) return null;
      const plan = planStickiness(spec, ctx);
      const rows = await timelines.stickiness(property, spec, plan, stickinessStarts(spec, plan, ctx), ctx.timezone);
      return rows && shapeStickiness(plan, rows);
    },
    lifecycleFromTimelines: async (property, spec, ctx) => {
      if (!timelines) return null;
      const plan = planLifecycle(spec, ctx);
      const rows = await timelines.lifecycle(property, spec, plan, ctx.timezone);
      return rows && shapeLifecycle(plan, rows);
    },
    funnelActorsFromTimelines: async (property, spec, at, page, ctx) => {
      const ids = timelines && (await timelines.funnelActors(property, spec, planFunnel(spec, ctx), ctx, at));
      if (!ids) return null;
      return { client_ids: ids.slice(page.offset, page.offset + page.limit), has_more: page.offset + page.limit < ids.length };
    },
  };
}
