// Which table answers a visitor read (issue #21, DESIGN.md §6: decisions in a pure planner). The
// per-visitor tables (visitors-tables.ts) answer the visitor page, the unfiltered history and the
// list; the events table answers what those tables do not keep: a history filtered by event name
// or date range (a visit's start, end and counts then depend on which of its events match), the
// events of the shown visits themselves and an export. `events` may be forced (tests compare the
// two paths; a store without the tables).
import type { HistoryOptions } from "./visitors.js";

export type VisitorSource = "tables" | "events";

export type VisitorRead =
  | { read: "page" }
  | { read: "list" }
  | { read: "history"; options: Pick<HistoryOptions, "event" | "from" | "to"> }
  /** The shown visits' events and pings, and the export: event rows themselves. */
  | { read: "events" };

export interface VisitorPlanContext {
  /** The store keeps the per-visitor tables and they are current (every EventStore here does). */
  tables: boolean;
  /** Force one path (tests; "auto" lets the planner choose). */
  source?: VisitorSource | "auto";
}

export function planVisitorRead(r: VisitorRead, ctx: VisitorPlanContext): VisitorSource {
  if (!ctx.tables || ctx.source === "events") return "events";
  switch (r.read) {
    case "page":
    case "list":
      return "tables";
    case "history": {
      const o = r.options;
      return o.event === undefined && o.from === undefined && o.to === undefined ? "tables" : "events";
    }
    case "events":
      return "events";
  }
}
