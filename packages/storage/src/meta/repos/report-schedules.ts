// Report schedules (a property's weekly and monthly e-mail reports) and their deliveries, one row
// per (schedule, period, recipient), which make the at-least-once job queue send each recipient's
// report once. Recipients are stored as typed; comparisons ignore case.
import { type Kysely, type Selectable, sql } from "kysely";
import { newId } from "../ids.js";
import type { MetaDatabase, ReportSchedulesTable } from "../tables.js";

export type ReportScheduleRow = Selectable<ReportSchedulesTable>;
export type ReportFrequencyName = ReportSchedulesTable["frequency"];

/** A schedule with what the scheduler needs of its property. */
export interface DueScheduleRow extends ReportScheduleRow {
  unique_id: string;
  timezone: string;
}

/** What claiming a delivery found: ours to send now, already sent, or being sent by a live attempt. */
export type DeliveryClaim = "claimed" | "sent" | "busy";

export function reportSchedulesRepo(db: Kysely<MetaDatabase>) {
  return {
    listForProperty(propertyId: string): Promise<ReportScheduleRow[]> {
      return db.selectFrom("report_schedules").selectAll().where("property_id", "=", propertyId).orderBy("frequency").execute();
    },

    get(id: string): Promise<ReportScheduleRow | undefined> {
      return db.selectFrom("report_schedules").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** Creates or replaces the property's schedule of `frequency` (its period bookkeeping kept). */
    async upsert(input: { propertyId: string; frequency: ReportFrequencyName; recipients: string[]; sendHour: number }) {
      return db
        .insertInto("report_schedules")
        .values({
          id: newId(),
          property_id: input.propertyId,
          frequency: input.frequency,
          recipients: JSON.stringify(input.recipients),
          send_hour: input.sendHour,
        })
        .onConflict((oc) =>
          oc.columns(["property_id", "frequency"]).doUpdateSet({
            recipients: JSON.stringify(input.recipients),
            send_hour: input.sendHour,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Removes the property's schedule of `frequency` (both when absent); how many went. */
    async remove(propertyId: string, frequency?: ReportFrequencyName): Promise<number> {
      let q = db.deleteFrom("report_schedules").where("property_id", "=", propertyId);
      if (frequency) q = q.where("frequency", "=", frequency);
      return Number((await q.executeTakeFirst()).numDeletedRows);
    },

    /** Drops one recipient (any case) from a schedule; false when it was not on it. */
    removeRecipient(id: string, recipient: string): Promise<boolean> {
      const lower = recipient.toLowerCase();
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .selectFrom("report_schedules")
          .select("recipients")
          .where("id", "=", id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return false;
        const kept = row.recipients.filter((r) => r.toLowerCase() !== lower);
        if (kept.length === row.recipients.length) return false;
        await tx
          .updateTable("report_schedules")
          .set({ recipients: JSON.stringify(kept) })
          .where("id", "=", id)
          .execute();
        return true;
      });
    },

    /** Every schedule with a recipient, with its property's public id and timezone. */
    listActive(): Promise<DueScheduleRow[]> {
      return db
        .selectFrom("report_schedules as s")
        .innerJoin("properties as p", "p.id", "s.property_id")
        .selectAll("s")
        .select(["p.unique_id", "p.timezone"])
        .where(sql<boolean>`jsonb_array_length(s.recipients) > 0`)
        .execute();
    },

    /** Records `period` as sent to everyone (never moving backwards). */
    async markPeriodSent(id: string, period: string): Promise<void> {
      await db
        .updateTable("report_schedules")
        .set({ last_sent_period: period, last_sent_at: sql<Date>`now()` })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("last_sent_period", "is", null), eb("last_sent_period", "<", period)]))
        .execute();
    },

    deliveries: {
      /**
       * Takes the delivery of (schedule, period, recipient) for sending: a new row, a failed one,
       * or a 'sending' one older than `staleMs` (its sender died mid-send) becomes 'sending' now.
       */
      async claim(scheduleId: string, period: string, recipient: string, staleMs: number): Promise<DeliveryClaim> {
        const key = { schedule_id: scheduleId, period, recipient: recipient.toLowerCase() };
        const taken = await db
          .insertInto("report_deliveries")
          .values({ ...key, state: "sending", updated_at: sql<Date>`now()` })
          .onConflict((oc) =>
            oc
              .columns(["schedule_id", "period", "recipient"])
              .doUpdateSet({
                state: "sending",
                updated_at: sql<Date>`now()`,
                attempts: sql<number>`report_deliveries.attempts + 1`,
              })
              .where((eb) =>
                eb.or([
                  eb("report_deliveries.state", "=", "failed"),
                  eb.and([
                    eb("report_deliveries.state", "=", "sending"),
                    eb("report_deliveries.updated_at", "<", sql<Date>`now() - ${staleMs}::float8 * interval '1 millisecond'`),
                  ]),
                ]),
              ),
          )
          .returning("state")
          .executeTakeFirst();
        if (taken) return "claimed";
        const row = await db
          .selectFrom("report_deliveries")
          .select("state")
          .where("schedule_id", "=", key.schedule_id)
          .where("period", "=", period)
          .where("recipient", "=", key.recipient)
          .executeTakeFirst();
        return row?.state === "sent" ? "sent" : "busy";
      },

      async finish(scheduleId: string, period: string, recipient: string, state: "sent" | "failed"): Promise<void> {
        await db
          .updateTable("report_deliveries")
          .set({ state, updated_at: sql<Date>`now()`, ...(state === "sent" ? { sent_at: sql<Date>`now()` } : {}) })
          .where("schedule_id", "=", scheduleId)
          .where("period", "=", period)
          .where("recipient", "=", recipient.toLowerCase())
          .execute();
      },

      /** The (lower-cased) recipients the period was sent to. */
      async sentTo(scheduleId: string, period: string): Promise<string[]> {
        const rows = await db
          .selectFrom("report_deliveries")
          .select("recipient")
          .where("schedule_id", "=", scheduleId)
          .where("period", "=", period)
          .where("state", "=", "sent")
          .execute();
        return rows.map((r) => r.recipient);
      },
    },
  };
}

export type ReportSchedulesRepo = ReturnType<typeof reportSchedulesRepo>;
