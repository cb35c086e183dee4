// Shared links (DESIGN.md §3): a property's named public links at /share/{slug}. The slug is the
// credential of a link without a password, so it comes from node:crypto (128 bits); a password is
// stored as the caller's argon2id hash. Revoking deletes the row, so the link stops at once.
import { randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { newId } from "../ids.js";
import type { MetaDatabase, SharedLinksTable } from "../tables.js";

export type SharedLinkRow = Selectable<SharedLinksTable>;

/** A link with the property it shows, as the public page and the share credential need it. */
export interface ResolvedSharedLink extends SharedLinkRow {
  property_unique_id: string;
  property_name: string;
  property_website_url: string;
  property_timezone: string;
  account_id: string;
}

/** 22 url-safe characters, 128 random bits. */
export const newShareSlug = (): string => randomBytes(16).toString("base64url");

export function sharedLinksRepo(db: Kysely<MetaDatabase>) {
  return {
    /** The new link, or null when the property already has a link of that name. */
    async create(input: {
      propertyId: string;
      name: string;
      passwordHash: string | null;
      expiresAt: Date | null;
      createdBy: string;
    }): Promise<SharedLinkRow | null> {
      const row = await db
        .insertInto("shared_links")
        .values({
          id: newId(),
          property_id: input.propertyId,
          name: input.name,
          slug: newShareSlug(),
          password_hash: input.passwordHash,
          expires_at: input.expiresAt,
          created_by: input.createdBy,
        })
        .onConflict((oc) => oc.columns(["property_id", "name"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },

    listByProperty(propertyId: string): Promise<SharedLinkRow[]> {
      return db
        .selectFrom("shared_links")
        .selectAll()
        .where("property_id", "=", propertyId)
        .orderBy("created_at")
        .orderBy("name")
        .execute();
    },

    /** The link of `slug` with its property, expired or not (the caller decides), or null. */
    async findBySlug(slug: string): Promise<ResolvedSharedLink | null> {
      const r = await db
        .selectFrom("shared_links as l")
        .innerJoin("properties as p", "p.id", "l.property_id")
        .selectAll("l")
        .select([
          "p.unique_id as property_unique_id",
          "p.name as property_name",
          "p.website_url as property_website_url",
          "p.timezone as property_timezone",
          "p.account_id as account_id",
        ])
        .where("l.slug", "=", slug)
        .executeTakeFirst();
      return r ?? null;
    },

    /** Deletes the property's link `id`; false when it has none of that id. */
    async delete(propertyId: string, id: string): Promise<SharedLinkRow | null> {
      const r = await db
        .deleteFrom("shared_links")
        .where("property_id", "=", propertyId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return r ?? null;
    },
  };
}
