// The ClickHouse store's deletions (clickhouse-store.ts opens the store; EventStore's
// deleteProperty and deleteVisitor): which tables lose a property's or a visitor's rows, what is
// filled again from what is left, and the mutations that do it. ALTER TABLE ... DELETE is an
// asynchronous mutation in 18.16 (no mutations_sync yet): a deletion waits until system.mutations
// reports it done, so reads afterwards are correct. On a cluster each shard's local tables are
// mutated (Distributed tables take none) and each shard is waited for.
import type { ClickHouseClient } from "@clickhouse/client";
import {
  DONE_TABLES,
  EVENT_SLOTS_TABLE,
  VISIT_DAYS_TABLE,
  VISIT_DAYS_ZONES_TABLE,
  VISIT_PATH_VISITS_TABLE,
  VISIT_PATHS_TABLE,
  VISIT_TABLE_NAMES,
} from "@lookout/query";
import { inDays, refillSlotDays, slotDaysOf } from "./clickhouse-event-slots.js";
import { rows } from "./clickhouse-migrate.js";
import { literal } from "./clickhouse-sql.js";
import { VISITOR_TABLES } from "./visitor-tables.js";

export interface DeletionDeps {
  client: ClickHouseClient;
  /** Asks system.mutations on a single node. */
  admin: ClickHouseClient;
  database: string;
  /** A cluster's shards (mutated and waited for each), or none on a single node. */
  shards: readonly ClickHouseClient[];
  cluster: boolean;
  /** Where a table's rows are stored (`<name>_local` on each shard of a cluster). */
  stored(table: string): string;
  /** Before a mutation and once none is pending: reads from then on run their shared live parts anew (clickhouse-live-rows.ts). */
  changed(): void;
  /** The day rows of batches that lost rows are filled again (the settler's). */
  refillDayRows(): Promise<unknown>;
  /** The property's visitor timelines are read again. */
  forget(property: string): void;
  now(): number;
  mutationTimeoutMs: number;
}

export class Deletions {
  constructor(private readonly d: DeletionDeps) {}

  /** Every row of the property, in every table that holds one. */
  async property(property: string): Promise<void> {
    for (const table of [
      ...this.#tables(),
      VISIT_DAYS_TABLE,
      VISIT_PATHS_TABLE,
      VISIT_PATH_VISITS_TABLE,
      VISIT_DAYS_ZONES_TABLE,
      EVENT_SLOTS_TABLE,
    ]) {
      await this.mutate(`ALTER TABLE ${this.d.stored(table)} DELETE WHERE property = ${literal(property)}`);
    }
    await this.#awaitMutations();
    this.d.forget(property);
  }

  /** A visitor's rows (by client id); the derived rows they counted in are made again. Answers the events deleted. */
  async visitor(property: string, clientId: string): Promise<number> {
    const { client } = this.d;
    const where = `property = ${literal(property)} AND client_id = ${literal(clientId)}`;
    const counted = await rows<{ n: number }>(client, `SELECT count() AS n FROM events WHERE ${where}`);
    // The settle batches that hold the visitor's settled visits: their day rows sum them.
    const batches = await rows<{ b: string }>(
      client,
      `SELECT DISTINCT toString(batch) AS b FROM ${DONE_TABLES.visits} WHERE ${where}`,
    );
    // The UTC days of their events: those days' event slots are made again from what is left.
    const slotDays = await slotDaysOf(client, where, this.d.now());
    // The visit tables and the per-visitor tables lose the visitor's rows with the events (their
    // rows are keyed by client_id too), so the statistics stay in line with what is left; the day
    // and path rows of those batches go (their markers with them), and are filled again from what is left.
    for (const table of this.#tables()) await this.mutate(`ALTER TABLE ${this.d.stored(table)} DELETE WHERE ${where}`);
    if (batches.length > 0) {
      const list = batches.map((r) => String(BigInt(r.b))).join(", ");
      for (const table of [VISIT_DAYS_TABLE, VISIT_PATHS_TABLE, VISIT_PATH_VISITS_TABLE])
        await this.mutate(
          `ALTER TABLE ${this.d.stored(table)} DELETE WHERE property = ${literal(property)} AND batch IN (${list})`,
        );
    }
    await this.#awaitMutations();
    // Only once the events are gone, and then at once: an event appended between the slots'
    // deletion and their refill would count twice (refillSlotDays).
    await this.mutate(
      `ALTER TABLE ${this.d.stored(EVENT_SLOTS_TABLE)} DELETE WHERE property = ${literal(property)} AND ${inDays("slot", slotDays)}`,
    );
    await this.#awaitMutations();
    await refillSlotDays(client, EVENT_SLOTS_TABLE, literal(property), slotDays);
    if (batches.length > 0) await this.d.refillDayRows();
    this.d.forget(property);
    return Number(counted[0]?.n ?? 0);
  }

  /** Runs a mutation on the node, or on every shard of a cluster (Distributed tables take none). */
  async mutate(query: string): Promise<void> {
    // Reads issued from now on run their shared live parts and histories anew (again once it is done: #awaitMutations).
    this.d.changed();
    if (!this.d.cluster) await this.d.client.command({ query });
    else for (const shard of this.d.shards) await shard.command({ query });
  }

  /**
   * The tables that hold a property's rows. On a cluster the per-visitor tables are not kept (the
   * visitor reads there go to the events table): only events, profiles and the visit tables.
   */
  #tables(): readonly string[] {
    const kept = ["events", "visitors", ...VISIT_TABLE_NAMES, ...VISIT_TABLE_NAMES.map((t) => DONE_TABLES[t])];
    return this.d.cluster ? kept : [...kept, ...VISITOR_TABLES];
  }

  /** Waits until no mutation of this database's tables is pending (18.16: mutations are asynchronous). */
  async #awaitMutations(): Promise<void> {
    const deadline = Date.now() + this.d.mutationTimeoutMs;
    const nodes = this.d.cluster ? this.d.shards : [this.d.admin];
    for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
      let n = 0;
      for (const node of nodes) {
        const pending = await rows<{ n: number }>(
          node,
          `SELECT count() AS n FROM system.mutations WHERE database = ${literal(this.d.database)} AND is_done = 0`,
        );
        n += Number(pending[0]?.n ?? 0);
      }
      if (n === 0) {
        // Shared live parts begun before the deletion are not read after it, nor the histories.
        this.d.changed();
        return;
      }
      if (Date.now() > deadline) {
        this.d.changed();
        throw new Error("ClickHouse mutations still pending after the deletion's time limit");
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
