// The insights domain (DESIGN.md §3, §4, §5): run an unsaved insight spec, and a property's saved
// insights (list with filters, tabs and sorts, create, read, change, duplicate, soft delete and its
// undo, result), each delete and restore audited; results come from a cache per (spec, data
// version) with single flight (result-cache.ts), and every read waits in the fair queue of the
// property's account (event-reads/). A spec run, saved, changed or asked for its visitors must name
// only events and props the property knows (vocabulary.ts); a saved one runs unchecked. Access to a
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
  type InsightList,
  type InsightListQuery,
  type InsightPatch,
  type InsightSpec,
  InsightSpecSchema,
} from "@lookout/schema";
import {
  type InsightListRow,
  type InsightRow,
  type MetaStore,
  type PropertyRow,
  runInsight,
  runInsightActors,
} from "@lookout/storage";
import type { z } from "zod";
import { type EventReads, queryTimeoutAsDomainError } from "../event-reads/fair-reads.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError, type DomainErrorCode } from "../http/domain-errors.js";
import { authorizeProperty } from "../http/policy.js";
import type { Presence } from "../live/presence.js";
import { createResultCache, type ResultCache, stableKey } from "./result-cache.js";
import { createSpecVocabulary, type SpecVocabulary } from "./vocabulary.js";

type Extras = Pick<InsightListRow, "created_by_name" | "viewed_at">;

export function toInsight(row: InsightRow, extras: Extras = { created_by_name: null, viewed_at: null }): Insight {
  return {
    short_id: row.short_id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    spec: InsightSpecSchema.parse(row.query),
    created_by: row.created_by,
    created_by_name: extras.created_by_name,
    favourite: row.favourite,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_viewed_at: extras.viewed_at?.toISOString() ?? null,
  };
}

const notFound = () => new DomainError("not_found", "Insight not found.");

export function createInsightService({
  meta,
  reads,
  presence,
  cache = createResultCache<InsightAnswer>(),
  vocabulary = createSpecVocabulary(reads, presence),
}: {
  meta: MetaStore;
  /** The event store's reads, in the property's account's fair queue (event-reads/). */
  reads: EventReads;
  presence?: Pick<Presence, "onStored">;
  cache?: ResultCache<InsightAnswer>;
  /** The event names and prop keys each property knows (vocabulary.ts). */
  vocabulary?: SpecVocabulary;
}) {
  // Stored events of a property make its cached answers stale (in every server process).
  presence?.onStored((ids) => {
    for (const id of ids) cache.bump(id);
  });

  async function withExtras(actor: Actor, row: InsightRow): Promise<Insight> {
    return toInsight(row, await meta.insights.listExtras(row, actor.userId));
  }

  /** The live insight and its property, when the actor may `action` on that property; else 404. */
  async function authorized(actor: Actor, shortId: string, action: Action): Promise<{ row: InsightRow; property: PropertyRow }> {
    return authorizedRow(actor, await meta.insights.findByShortId(shortId), action);
  }

  async function authorizedRow(
    actor: Actor,
    row: InsightRow | null,
    action: Action,
  ): Promise<{ row: InsightRow; property: PropertyRow }> {
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
    // The timezone and the property's start date shape the answer as much as the spec does.
    const key = stableKey({ spec, tz: property.timezone, earliest: property.created_at.toISOString() });
    return badInputAs400(() =>
      cache.get(property.unique_id, key, () =>
        runInsight(reads.of(property), property.unique_id, spec, { timezone: property.timezone, earliest: property.created_at }),
      ),
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
      // The store cancelled it at its time limit (EventStore.query): 503.
      throw queryTimeoutAsDomainError(err);
    }
  }

  /** A spec naming an event or prop the property has never received: 400 naming the field (vocabulary.ts). */
  async function checkNames(property: PropertyRow, spec: InsightSpec, prefix: string[] = []): Promise<void> {
    try {
      await vocabulary.check(property, spec, prefix);
    } catch (err) {
      throw queryTimeoutAsDomainError(err);
    }
  }

  return {
    /** Runs an unsaved spec (`POST …/insights/query`): its names are checked first. */
    async run(property: PropertyRow, spec: InsightSpec): Promise<InsightAnswer> {
      await checkNames(property, spec);
      return run(property, spec);
    },

    async actors(property: PropertyRow, body: InsightActorsBody): Promise<InsightActorsAnswer> {
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
      await checkNames(property, body.spec, ["spec"]);
      return badInputAs400(() =>
        runInsightActors(reads.of(property), property.unique_id, body, {
          timezone: property.timezone,
          earliest: property.created_at,
        }),
      );
    },

    async list(actor: Actor, property: PropertyRow, q: InsightListQuery): Promise<InsightList> {
      const [rows, facets] = await Promise.all([
        meta.insights.listFor(property.id, { ...q, viewer: actor.userId }, INSIGHT_LIMITS.maxListed),
        meta.insights.facets(property.id),
      ]);
      return { results: rows.map((r) => toInsight(r, r)), ...facets };
    },

    async create(actor: Actor, property: PropertyRow, body: InsightCreate): Promise<Insight> {
      await checkNames(property, body.spec, ["spec"]);
      const row = await meta.insights.create(property.id, actor.userId, { ...body, kind: body.spec.kind });
      return withExtras(actor, row);
    },

    async get(actor: Actor, shortId: string): Promise<Insight> {
      const { row } = await authorized(actor, shortId, "read");
      // An API key has no user: nothing to remember as viewed.
      if (actor.userId !== "") await meta.insights.recordView(actor.userId, row.id);
      return withExtras(actor, row);
    },

    async update(actor: Actor, shortId: string, patch: InsightPatch): Promise<Insight> {
      const { row, property } = await authorized(actor, shortId, "write");
      if (patch.spec) await checkNames(property, patch.spec, ["spec"]);
      const changed = await meta.insights.update(row.id, { ...patch, ...(patch.spec ? { kind: patch.spec.kind } : {}) });
      if (!changed) throw notFound();
      return withExtras(actor, changed);
    },

    /** A copy of an insight on its property, created by the caller, named "… (copy)", not a favourite. */
    async duplicate(actor: Actor, shortId: string): Promise<Insight> {
      const { row, property } = await authorized(actor, shortId, "write");
      const suffix = " (copy)";
      const name = `${row.name.slice(0, INSIGHT_LIMITS.maxNameLength - suffix.length)}${suffix}`;
      const copy = await meta.insights.create(property.id, actor.userId, {
        kind: row.kind,
        name,
        description: row.description,
        spec: row.query,
        favourite: false,
        tags: row.tags,
      });
      return withExtras(actor, copy);
    },

    /** Undoes a delete (editors and up, audited); a live, unknown or foreign short id answers 404. */
    async restore(actor: Actor, shortId: string): Promise<Insight> {
      const { row, property } = await authorizedRow(actor, await meta.insights.findDeletedByShortId(shortId), "write");
      if (!(await meta.insights.restore(row.id))) throw notFound();
      await meta.audit.record({
        action: "insight.restore",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, short_id: row.short_id, name: row.name, kind: row.kind },
      });
      const restored = await meta.insights.findByShortId(shortId);
      if (!restored) throw notFound();
      return withExtras(actor, restored);
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
