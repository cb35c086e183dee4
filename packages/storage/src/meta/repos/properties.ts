// Properties (websites): the public unique_id the tracker and client use, and per-site settings.
import type { Kysely } from "kysely";
import { newId, newUniqueId } from "../ids.js";
import type { MetaDatabase, PropertyRow, PropertySettings } from "../tables.js";

export const DEFAULT_PROPERTY_SETTINGS: PropertySettings = {
  cookieless: false,
  allowed_hostnames: [],
  excluded_ips: [],
  excluded_paths: [],
  public_share: { enabled: false, password_hash: null },
};

export function propertiesRepo(db: Kysely<MetaDatabase>) {
  return {
    create(input: {
      accountId: string;
      websiteUrl: string;
      name: string;
      timezone: string;
      isDemo?: boolean;
      settings?: Partial<PropertySettings>;
    }): Promise<PropertyRow> {
      return db
        .insertInto("properties")
        .values({
          id: newId(),
          unique_id: newUniqueId(),
          account_id: input.accountId,
          website_url: input.websiteUrl,
          name: input.name,
          timezone: input.timezone,
          is_demo: input.isDemo ?? false,
          settings: JSON.stringify({ ...DEFAULT_PROPERTY_SETTINGS, ...input.settings }),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    listByAccount(accountId: string): Promise<PropertyRow[]> {
      return db
        .selectFrom("properties")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
    findByUniqueId(uniqueId: string): Promise<PropertyRow | undefined> {
      return db.selectFrom("properties").selectAll().where("unique_id", "=", uniqueId).executeTakeFirst();
    },
    listAll(): Promise<PropertyRow[]> {
      return db.selectFrom("properties").selectAll().execute();
    },
    /** Changes the given fields (settings as a whole: the caller merges); the row after, or undefined if gone. */
    update(
      uniqueId: string,
      change: { name?: string; websiteUrl?: string; timezone?: string; settings?: PropertySettings },
    ): Promise<PropertyRow | undefined> {
      return db
        .updateTable("properties")
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.websiteUrl !== undefined ? { website_url: change.websiteUrl } : {}),
          ...(change.timezone !== undefined ? { timezone: change.timezone } : {}),
          ...(change.settings !== undefined ? { settings: JSON.stringify(change.settings) } : {}),
        })
        .where("unique_id", "=", uniqueId)
        .returningAll()
        .executeTakeFirst();
    },
    async updateSettings(uniqueId: string, settings: PropertySettings): Promise<void> {
      await db
        .updateTable("properties")
        .set({ settings: JSON.stringify(settings) })
        .where("unique_id", "=", uniqueId)
        .execute();
    },
    async delete(uniqueId: string): Promise<void> {
      await db.deleteFrom("properties").where("unique_id", "=", uniqueId).execute();
    },
  };
}
