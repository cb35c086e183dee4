// The insights domain (DESIGN.md §3, §4, §5): run an unsaved insight spec, and a property's saved
// insights (list, create, read, change, soft delete, result), each delete audited. Access to a
// saved insight goes through its property: the caller's role on that property decides, and an
// unknown, deleted or foreign short id answers the same 404.
// No HTTP here: routes.ts authorizes property-scoped calls; short-id calls authorize here.
import { QueryError } from "@lookout/query";
import {
  type Action,
  INSIGHT_ACTOR_SELECTORS,
  INSIGHT_LIMITS,
  type Insight,
  type InsightActorsAnswer,
  type InsightActorsBody,
  type InsightAnswer,
  type InsightCreate,
  type InsightPatch,
  type InsightSpec,
  InsightSpecSchema,
} from "@lookout/schema";
import {
  type EventStore,
  type InsightRow,
  type MetaStore,
  type PropertyRow,
  runInsight,
  runInsightActors,
} from "@lookout/storage";
import type { z } from "zod";
import type { Actor } from "../http/authenticate.js";
import { DomainError, type DomainErrorCode } from "../http/domain-errors.js";
import { authorizeProperty } from "../http/policy.js";

export function toInsight(row: InsightRow): Insight {
  return {
    short_id: row.short_id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    spec: InsightSpecSchema.parse(row.query),
    created_by: row.created_by,
    favourite: row.favourite,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const notFound = () => new DomainError("not_found", "Insight not found.");

export function createInsightService({ meta, events }: { meta: MetaStore; events: EventStore }) {
  /** The live insight and its property, when the actor may `action` on that property; else 404. */
  async function authorized(actor: Actor, shortId: string, action: Action): Promise<{ row: InsightRow; property: PropertyRow }> {
    const row = await meta.insights.findByShortId(shortId);
    const uniqueId = row ? await meta.insights.propertyUniqueId(row) : null;
    if (!row || !uniqueId) throw notFound();
    try {
      return { row, property: await authorizeProperty(meta, actor, uniqueId, action) };
    } catch (err) {
      if (err instanceof DomainError && err.code === "property_not_found") throw notFound();
      throw err;
    }
  }

  async function run(property: PropertyRow, spec: InsightSpec): Promise<InsightAnswer> {
    return badInputAs400(() =>
      runInsight(events, property.unique_id, spec, { timezone: property.timezone, earliest: property.created_at }),
    );
  }

  async function badInputAs400<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // The compiler's codes (packages/query) are 400s naming the parameter to change.
      if (err instanceof QueryError) {
        throw new DomainError(err.code as DomainErrorCode, `${err.param}: ${err.message}`, { param: err.param });
      }
      throw err;
    }
  }

  return {
    run,

    actors(property: PropertyRow, body: InsightActorsBody): Promise<InsightActorsAnswer> {
      const selector = INSIGHT_ACTOR_SELECTORS[body.spec.kind] as z.ZodType | null;
      if (selector === null) {
        throw new DomainError("invalid_parameter", `at: a ${body.spec.kind} insight has no visitor list`, { param: "at" });
      }
      const at = selector.safeParse(body.at);
      if (!at.success) {
        const issue = at.error.issues[0];
        throw new DomainError(
          "invalid_parameter",
          `at${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message}`,
          {
            param: "at",
          },
        );
      }
      return badInputAs400(() =>
        runInsightActors(events, property.unique_id, body, { timezone: property.timezone, earliest: property.created_at }),
      );
    },

    async list(property: PropertyRow): Promise<{ results: Insight[] }> {
      return { results: (await meta.insights.list(property.id, INSIGHT_LIMITS.maxListed)).map(toInsight) };
    },

    async create(actor: Actor, property: PropertyRow, body: InsightCreate): Promise<Insight> {
      const row = await meta.insights.create(property.id, actor.userId, { ...body, kind: body.spec.kind });
      return toInsight(row);
    },

    async get(actor: Actor, shortId: string): Promise<Insight> {
      const { row } = await authorized(actor, shortId, "read");
      if (actor.userId !== "") await meta.insights.recordView(actor.userId, row.id);
      return toInsight(row);
    },

    async update(actor: Actor, shortId: string, patch: InsightPatch): Promise<Insight> {
      const { row } = await authorized(actor, shortId, "write");
      const changed = await meta.insights.update(row.id, { ...patch, ...(patch.spec ? { kind: patch.spec.kind } : {}) });
      if (!changed) throw notFound();
      return toInsight(changed);
    },

    async remove(actor: Actor, shortId: string): Promise<void> {
      const { row, property } = await authorized(actor, shortId, "write");
      if (!(await meta.insights.softDelete(row.id))) throw notFound();
      await meta.audit.record({
        action: "insight.delete",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, short_id: row.short_id, name: row.name, kind: row.kind },
      });
    },

    async result(actor: Actor, shortId: string): Promise<InsightAnswer> {
      const { row, property } = await authorized(actor, shortId, "read");
      return run(property, InsightSpecSchema.parse(row.query));
    },
  };
}
