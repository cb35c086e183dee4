// Visitors (DESIGN.md §3, §4, §5; issue #21): the management API's visitor list, one visitor's
// profile and figures, their history grouped by visit, deletion and export. Field names listed in
// DESIGN.md §5 are binding (client_id, email, name, traits, first_seen, last_seen, visits,
// pageviews, events, engaged_seconds, revenue, country, devices[]; the history's ts, name, path,
// url, props, session_id; {results, next_cursor}); the rest are additions.
//
// A person: client ids identified with the same e-mail (a phone and a laptop) are one person. The
// visitor page of any of them shows the figures and history of all of them ("also_seen_as" names
// the others). Deletion and export act on the client id asked for only, never on the others: a
// deletion request names the id it is about, and the person's other devices may be another matter.
//
// Cursors are opaque to clients (base64url of a JSON position the server validates): pass
// next_cursor back unchanged; null means there is no more.
import { z } from "zod";
import { text } from "./strings.js";
import { CLIENT_ID_RE } from "./tracker.js";

/** A client id as the API takes it in a path: 1 to 128 visible ASCII characters (tracker.ts's rule). */
export const VisitorClientIdSchema = z.string().regex(CLIENT_ID_RE, "is not a client id (1 to 128 visible ASCII characters)");

export const VISITOR_ORDERS = ["last_seen", "first_seen", "visits", "events"] as const;
export type VisitorOrder = (typeof VISITOR_ORDERS)[number];
export const VISITOR_IDENTIFIED = ["all", "identified", "anonymous"] as const;
export type VisitorIdentified = (typeof VISITOR_IDENTIFIED)[number];

export const VISITOR_LIMITS = {
  /** Visitors per list page (default 50). */
  listPage: 100,
  /** Visits per history page (default 20). */
  historyPage: 50,
  /** Events shown per visit in a history page (a visit with more says so: events_total). */
  eventsPerVisit: 200,
  /**
   * Engagement pings read per visit of a history page (time on page: one every 20 s while a page
   * is in view, so 1 000 cover over five hours). The same read takes as many shown events, cut at
   * eventsPerVisit (one statement, one limit per kind on both engines).
   */
  pingsPerVisit: 1000,
  searchLength: 200,
  cursorLength: 1000,
  eventNameLength: 120,
  /** Rows of a list CSV export. */
  csvRows: 100_000,
  /** Events of one visitor's export. */
  exportEvents: 100_000,
  /** Client ids merged into one person (same e-mail). */
  personIds: 50,
  /** Top pages / top events / facet values shown. */
  top: 10,
} as const;
const L = VISITOR_LIMITS;

const Cursor = z
  .string()
  .min(1)
  .max(L.cursorLength)
  .regex(/^[A-Za-z0-9_-]+$/, "is not a cursor");
const Iso = z.string().describe("ISO 8601 UTC timestamp");

export const VisitorListQuerySchema = z.object({
  search: text().trim().max(L.searchLength).optional().describe("Part of an e-mail, name or client id (case-insensitive)."),
  order: z.enum(VISITOR_ORDERS).default("last_seen").describe("Newest / most first."),
  identified: z.enum(VISITOR_IDENTIFIED).default("all"),
  cursor: Cursor.optional(),
  limit: z.coerce.number().int().min(1).max(L.listPage).default(50),
});
export type VisitorListQuery = z.output<typeof VisitorListQuerySchema>;

export const VisitorSummarySchema = z.object({
  client_id: z.string(),
  /** "" when not identified. */
  email: z.string(),
  name: z.string(),
  identified: z.boolean(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  /** The device, browser and OS of the latest event. */
  device: z.string(),
  browser: z.string(),
  os: z.string(),
  first_seen: Iso,
  last_seen: Iso,
  visits: z.number().int(),
  pageviews: z.number().int(),
  /** Custom events. */
  events: z.number().int(),
  revenue: z.number(),
});
export type VisitorSummary = z.infer<typeof VisitorSummarySchema>;

export const VisitorListAnswerSchema = z.object({
  results: z.array(VisitorSummarySchema),
  next_cursor: z.string().nullable(),
});
export type VisitorListAnswer = z.infer<typeof VisitorListAnswerSchema>;

/** A value seen and in how many of the person's visits. */
export const FacetSchema = z.object({ value: z.string(), visits: z.number().int() });
export type Facet = z.infer<typeof FacetSchema>;

export const FirstSourceSchema = z.object({
  ts: Iso,
  referrer: z.string(),
  source: z.string(),
  channel: z.string(),
  landing_page: z.string(),
  utm_source: z.string(),
  utm_medium: z.string(),
  utm_campaign: z.string(),
  utm_term: z.string(),
  utm_content: z.string(),
});

export const AlsoSeenAsSchema = z.object({
  client_id: z.string(),
  device: z.string(),
  browser: z.string(),
  os: z.string(),
  last_seen: Iso,
});

export const VisitorDetailSchema = z.object({
  client_id: z.string(),
  email: z.string(),
  name: z.string(),
  identified: z.boolean(),
  traits: z.record(z.string(), z.string()),
  first_seen: Iso,
  last_seen: Iso,
  visits: z.number().int(),
  pageviews: z.number().int(),
  events: z.number().int(),
  /** Engaged time from engagement pings, whole seconds. */
  engaged_seconds: z.number().int(),
  /** Visit duration (last event minus first) averaged over visits, seconds. */
  avg_visit_seconds: z.number(),
  revenue: z.number(),
  /** The currency of all of the revenue when it is in one, else "" (none, or several). */
  revenue_currency: z.string(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  devices: z.array(FacetSchema),
  browsers: z.array(FacetSchema),
  oses: z.array(FacetSchema),
  screens: z.array(FacetSchema),
  languages: z.array(FacetSchema),
  countries: z.array(FacetSchema),
  first_source: FirstSourceSchema.nullable(),
  also_seen_as: z.array(AlsoSeenAsSchema),
  online: z.boolean(),
  /** Days with events over the last 12 months (property timezone), oldest first; days without none. */
  active_days: z.array(z.object({ date: z.string(), events: z.number().int() })),
  top_pages: z.array(z.object({ path: z.string(), pageviews: z.number().int() })),
  top_events: z.array(
    z.object({ name: z.string(), events: z.number().int(), revenue: z.number(), revenue_currency: z.string() }),
  ),
});
export type VisitorDetail = z.infer<typeof VisitorDetailSchema>;

const DateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

export const VisitorHistoryQuerySchema = z.object({
  cursor: Cursor.optional(),
  event: text()
    .trim()
    .min(1)
    .max(L.eventNameLength)
    .optional()
    .describe("Only visits with this event name, and only those events."),
  from: DateOnly.optional().describe("First day (property timezone), inclusive."),
  to: DateOnly.optional().describe("Last day (property timezone), inclusive."),
  limit: z.coerce.number().int().min(1).max(L.historyPage).default(20),
});
export type VisitorHistoryQuery = z.output<typeof VisitorHistoryQuerySchema>;

export const VisitorEventSchema = z.object({
  ts: Iso,
  name: z.string(),
  path: z.string(),
  url: z.string(),
  title: z.string(),
  props: z.record(z.string(), z.string()),
  revenue: z.number(),
  revenue_currency: z.string(),
  session_id: z.string(),
  client_id: z.string(),
  /**
   * Pageviews: engaged time on this page (engagement pings until the next pageview of the visit),
   * seconds; null for other events and for a pageview without pings (unknown, not zero).
   */
  time_on_page_seconds: z.number().nullable(),
});
export type VisitorEvent = z.infer<typeof VisitorEventSchema>;

export const VisitSchema = z.object({
  session_id: z.string(),
  client_id: z.string(),
  start: Iso,
  end: Iso,
  duration_seconds: z.number(),
  engaged_seconds: z.number().int(),
  pageviews: z.number().int(),
  entry_page: z.string(),
  entry_source: z.string(),
  channel: z.string(),
  device: z.string(),
  browser: z.string(),
  os: z.string(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
  /** Events of the visit in time order (engagement pings left out; at most VISITOR_LIMITS.eventsPerVisit). */
  events: z.array(VisitorEventSchema),
  /** How many events the visit has (under the event filter), shown or not. */
  events_total: z.number().int(),
});
export type Visit = z.infer<typeof VisitSchema>;

export const VisitorHistoryAnswerSchema = z.object({
  results: z.array(VisitSchema),
  next_cursor: z.string().nullable(),
});
export type VisitorHistoryAnswer = z.infer<typeof VisitorHistoryAnswerSchema>;

export const VisitorDeleteAnswerSchema = z.object({ deleted_events: z.number().int() });

export const VisitorExportSchema = z.object({
  exported_at: Iso,
  property: z.string(),
  client_id: z.string(),
  profile: z
    .object({ email: z.string(), name: z.string(), traits: z.record(z.string(), z.string()), first_seen: Iso, last_seen: Iso })
    .nullable(),
  /** Every event of this client id, oldest first (engagement pings included); at most VISITOR_LIMITS.exportEvents. */
  events: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
});
export type VisitorExport = z.infer<typeof VisitorExportSchema>;
