// Saved insights (DESIGN.md §3): a property's insights by their public short id (8 random
// [A-Za-z0-9] from node:crypto, unique), soft-deleted (deleted_at) so a delete can be undone, and
// when each user last viewed one. Every read and write is scoped to a property or filters out
// deleted rows: a foreign or deleted short id finds nothing.
import { randomInt } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { newId } from "../ids.js";
import type { InsightsTable, MetaDatabase } from "../tables.js";

export type InsightRow = Selectable<InsightsTable>;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 8 characters of [A-Za-z0-9], each drawn uniformly by node:crypto (~47.6 bits). */
export function newShortId(): string {
  let out = "";
  for (let i = 0; i < 8; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export interface InsightInput {
  kind: string;
  name: string;
  description: string;
  spec: unknown;
  favourite: boolean;
  tags: string[];
}

export function insightsRepo(db: Kysely<MetaDatabase>) {
  return {
    /** A property's live insights, last changed first, at most `limit`. */
    list(propertyId: string, limit: number): Promise<InsightRow[]> {
      return db
        .selectFrom("insights")
        .selectAll()
        .where("property_id", "=", propertyId)
        .where("deleted_at", "is", null)
        .orderBy("updated_at", "desc")
        .orderBy("id")
        .limit(limit)
        .execute();
    },
    /** A live insight by short id, whatever its property (the caller checks access to that property). */
    async findByShortId(shortId: string): Promise<InsightRow | null> {
      const row = await db
        .selectFrom("insights")
        .selectAll()
        .where("short_id", "=", shortId)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      return row ?? null;
    },
    /** The public id of an insight's property (deleted properties take their insights along). */
    async propertyUniqueId(row: InsightRow): Promise<string | null> {
      const p = await db.selectFrom("properties").select("unique_id").where("id", "=", row.property_id).executeTakeFirst();
      return p?.unique_id ?? null;
    },
    async create(propertyId: string, createdBy: string, input: InsightInput): Promise<InsightRow> {
      // A clash of 8 random characters is rare but possible: draw again on the unique index.
      for (let attempt = 0; ; attempt++) {
        const row = await db
          .insertInto("insights")
          .values({
            id: newId(),
            short_id: newShortId(),
            property_id: propertyId,
            kind: input.kind,
            name: input.name,
            description: input.description,
            query: JSON.stringify(input.spec),
            created_by: createdBy,
            favourite: input.favourite,
            tags: JSON.stringify(input.tags),
            updated_at: new Date(),
            deleted_at: null,
          })
          .onConflict((oc) => oc.column("short_id").doNothing())
          .returningAll()
          .executeTakeFirst();
        if (row) return row;
        if (attempt >= 5) throw new Error("could not draw a free insight short id");
      }
    },
    /** Changes a live insight; the changed row, or null when there is none. */
    async update(id: string, change: Partial<InsightInput>): Promise<InsightRow | null> {
      const row = await db
        .updateTable("insights")
        .set({
          ...(change.kind !== undefined ? { kind: change.kind } : {}),
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.description !== undefined ? { description: change.description } : {}),
          ...(change.spec !== undefined ? { query: JSON.stringify(change.spec) } : {}),
          ...(change.favourite !== undefined ? { favourite: change.favourite } : {}),
          ...(change.tags !== undefined ? { tags: JSON.stringify(change.tags) } : {}),
          updated_at: new Date(),
        })
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },
    /** Soft delete: the row stays (restore undoes it); true when a live insight was deleted. */
    async softDelete(id: string): Promise<boolean> {
      const r = await db
        .updateTable("insights")
        .set({ deleted_at: new Date() })
        .where("id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Undoes a soft delete. */
    async restore(id: string): Promise<boolean> {
      const r = await db.updateTable("insights").set({ deleted_at: null }).where("id", "=", id).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async recordView(userId: string, insightId: string, at = new Date()): Promise<void> {
      await db
        .insertInto("insight_views")
        .values({ user_id: userId, insight_id: insightId, viewed_at: at })
        .onConflict((oc) => oc.columns(["user_id", "insight_id"]).doUpdateSet({ viewed_at: at }))
        .execute();
    },
  };
}
