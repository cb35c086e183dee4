// Saved insights (DESIGN.md §3): a property's insights by their public short id (8 random
// [A-Za-z0-9] from node:crypto, unique), soft-deleted (deleted_at) so a delete can be undone, and
// when each user last viewed one. Every read and write is scoped to a property or filters out
// deleted rows: a foreign or deleted short id finds nothing.
import { randomInt } from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import { changeStamp, newId } from "../ids.js";
import type { InsightsTable, MetaDatabase } from "../tables.js";

export type InsightRow = Selectable<InsightsTable>;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 8 characters of [A-Za-z0-9], each drawn uniformly by node:crypto (~47.6 bits). */
export function newShortId(): string {
  let out = "";
  for (let i = 0; i < 8; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** A row as the list shows it to one user: its creator's name and when that user last opened it. */
export type InsightListRow = InsightRow & { created_by_name: string | null; viewed_at: Date | null };

/** The list's filters (all optional, combined with and); `viewer` is the user asking. */
export interface InsightListFilter {
  viewer: string;
  search?: string | undefined;
  kind?: string | undefined;
  tag?: string | undefined;
  creator?: string | undefined;
  tab: "all" | "mine" | "favourites" | "recent";
  sort: "updated" | "created" | "viewed" | "name";
}

/** `s` as a LIKE pattern that matches itself literally anywhere (its % _ and \\ escaped). */
const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How a creator is named: their name, or their e-mail while they have none. */
const creatorName = sql<string | null>`coalesce(nullif(u.name, ''), u.email)`;

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
    /**
     * A property's live insights as `f.viewer` sees the list: filtered, searched (name or
     * description, case-insensitive) and sorted in SQL, each with its creator's name and when the
     * viewer last opened it; at most `limit`.
     */
    listFor(propertyId: string, f: InsightListFilter, limit: number): Promise<InsightListRow[]> {
      let q = db
        .selectFrom("insights as i")
        .leftJoin("users as u", "u.id", "i.created_by")
        .leftJoin("insight_views as v", (j) => j.onRef("v.insight_id", "=", "i.id").on("v.user_id", "=", f.viewer))
        .selectAll("i")
        .select([creatorName.as("created_by_name"), "v.viewed_at as viewed_at"])
        .where("i.property_id", "=", propertyId)
        .where("i.deleted_at", "is", null);
      if (f.search) {
        const pattern = containsPattern(f.search);
        q = q.where((eb) =>
          eb.or([
            eb(sql`i.name`, "ilike", sql`${pattern} escape '\\'`),
            eb(sql`i.description`, "ilike", sql`${pattern} escape '\\'`),
          ]),
        );
      }
      if (f.kind) q = q.where("i.kind", "=", f.kind);
      // jsonb containment: the tags array holds this exact string.
      if (f.tag) q = q.where(sql<boolean>`i.tags @> ${JSON.stringify([f.tag])}::jsonb`);
      if (f.creator) q = q.where("i.created_by", "=", f.creator);
      if (f.tab === "mine") q = q.where("i.created_by", "=", f.viewer);
      if (f.tab === "favourites") q = q.where("i.favourite", "=", true);
      if (f.tab === "recent") q = q.where("v.viewed_at", "is not", null);
      if (f.sort === "name") q = q.orderBy(sql`lower(i.name)`).orderBy("i.name");
      else if (f.sort === "created") q = q.orderBy("i.created_at", "desc");
      else if (f.sort === "viewed") q = q.orderBy(sql`v.viewed_at desc nulls last`);
      // The recent tab is about what was opened: last opened first unless asked otherwise.
      if (f.tab === "recent" && f.sort === "updated") q = q.orderBy("v.viewed_at", "desc");
      return q.orderBy("i.updated_at", "desc").orderBy("i.id").limit(limit).execute() as Promise<InsightListRow[]>;
    },
    /** Every tag and creator among a property's live insights: the list's filter choices. */
    async facets(propertyId: string): Promise<{ tags: string[]; creators: { id: string; name: string }[] }> {
      const rows = await db
        .selectFrom("insights as i")
        .leftJoin("users as u", "u.id", "i.created_by")
        .select(["i.tags", "i.created_by", creatorName.as("name")])
        .where("i.property_id", "=", propertyId)
        .where("i.deleted_at", "is", null)
        .execute();
      const tags = new Set<string>();
      const creators = new Map<string, string>();
      for (const r of rows) {
        for (const t of r.tags) tags.add(t);
        if (r.name !== null) creators.set(r.created_by, r.name);
      }
      const byText = (a: string, b: string) => a.localeCompare(b);
      return {
        tags: [...tags].sort(byText),
        creators: [...creators].map(([id, name]) => ({ id, name })).sort((a, b) => byText(a.name, b.name)),
      };
    },
    /** One insight's creator name and when `viewer` last opened it. */
    async listExtras(row: InsightRow, viewer: string): Promise<{ created_by_name: string | null; viewed_at: Date | null }> {
      const [user, view] = await Promise.all([
        db.selectFrom("users as u").select(creatorName.as("name")).where("u.id", "=", row.created_by).executeTakeFirst(),
        db
          .selectFrom("insight_views")
          .select("viewed_at")
          .where("insight_id", "=", row.id)
          .where("user_id", "=", viewer)
          .executeTakeFirst(),
      ]);
      return { created_by_name: user?.name ?? null, viewed_at: view?.viewed_at ?? null };
    },
    /** A soft-deleted insight by short id (what an undo restores); null when none is deleted. */
    async findDeletedByShortId(shortId: string): Promise<InsightRow | null> {
      const row = await db
        .selectFrom("insights")
        .selectAll()
        .where("short_id", "=", shortId)
        .where("deleted_at", "is not", null)
        .executeTakeFirst();
      return row ?? null;
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
            updated_at: changeStamp(),
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
          updated_at: changeStamp(),
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
      const r = await db
        .updateTable("insights")
        .set({ deleted_at: null })
        .where("id", "=", id)
        .where("deleted_at", "is not", null)
        .executeTakeFirst();
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
