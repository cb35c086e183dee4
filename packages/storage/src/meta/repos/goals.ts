// Goals (DESIGN.md §3): a property's conversions, a custom event by name or pageviews by a path
// pattern, each with a display name and an optional revenue currency. One goal per (property,
// kind, match): the table's unique constraint decides, so two servers adding the same goal at
// once create one.
import type { Kysely, Selectable } from "kysely";
import { newId } from "../ids.js";
import type { GoalsTable, MetaDatabase } from "../tables.js";

export type GoalRow = Selectable<GoalsTable>;

export function goalsRepo(db: Kysely<MetaDatabase>) {
  return {
    /** A property's goals, oldest first. */
    list(propertyId: string): Promise<GoalRow[]> {
      return db
        .selectFrom("goals")
        .selectAll()
        .where("property_id", "=", propertyId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
    /** The new goal, or null when the property has one of this kind and match already. */
    async create(input: {
      propertyId: string;
      kind: GoalRow["kind"];
      match: string;
      displayName: string;
      currency: string | null;
    }): Promise<GoalRow | null> {
      const row = await db
        .insertInto("goals")
        .values({
          id: newId(),
          property_id: input.propertyId,
          kind: input.kind,
          match: input.match,
          display_name: input.displayName,
          currency: input.currency,
        })
        .onConflict((oc) => oc.constraint("goals_property_kind_match").doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },
    /** Deletes one goal of the property; the deleted row, or null when it has no such goal. */
    async delete(propertyId: string, id: string): Promise<GoalRow | null> {
      const row = await db
        .deleteFrom("goals")
        .where("property_id", "=", propertyId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },
  };
}
