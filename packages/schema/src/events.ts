// The wide events row (DESIGN.md §3). One column list drives the DuckDB and ClickHouse DDL,
// the ingest writer and the query compiler, so they cannot drift apart.

export type ColumnType = "string" | "timestamp" | "uint16" | "float64" | "map";

export const EVENT_COLUMNS = {
  property: "string", // the property's unique_id
  ts: "timestamp", // UTC
  name: "string", // "pageview", "engagement", "pageleave", custom names
  visitor_id: "string",
  session_id: "string",
  client_id: "string",
  hostname: "string",
  path: "string",
  url: "string", // query-less URL
  title: "string",
  referrer: "string",
  referrer_source: "string",
  channel: "string",
  utm_source: "string",
  utm_medium: "string",
  utm_campaign: "string",
  utm_term: "string",
  utm_content: "string",
  country: "string", // ISO 3166-1 alpha-2, "" when unknown
  region: "string",
  city: "string",
  browser: "string",
  browser_version: "string",
  os: "string",
  os_version: "string",
  device: "string", // desktop | mobile | tablet
  screen: "string", // width class
  language: "string",
  props: "map", // string -> string
  revenue: "float64",
  revenue_currency: "string",
  engaged_ms: "float64", // engagement pings carry the engaged time since the last ping
} as const satisfies Record<string, ColumnType>;

export type EventColumn = keyof typeof EVENT_COLUMNS;

type ColumnTs<T extends ColumnType> = T extends "timestamp"
  ? Date
  : T extends "float64" | "uint16"
    ? number
    : T extends "map"
      ? Record<string, string>
      : string;

export type EventRow = { [K in EventColumn]: ColumnTs<(typeof EVENT_COLUMNS)[K]> };

export const EVENT_COLUMN_NAMES = Object.keys(EVENT_COLUMNS) as EventColumn[];

const BLANK: { [T in ColumnType]: () => ColumnTs<T> } = {
  string: () => "",
  timestamp: () => new Date(0),
  uint16: () => 0,
  float64: () => 0,
  map: () => ({}),
};

/**
 * A row with every column at its empty value, as the store would default it, and a direct
 * pageview: generators and fixtures name only the columns they are about.
 */
export function eventRow(over: Partial<EventRow> & Pick<EventRow, "property" | "ts">): EventRow {
  const row = Object.fromEntries(EVENT_COLUMN_NAMES.map((c) => [c, BLANK[EVENT_COLUMNS[c]]()])) as EventRow;
  return Object.assign(row, { name: "pageview", path: "/", channel: "direct" }, over);
}

/** Names the collector treats specially; everything else is a custom event. */
export const RESERVED_EVENT_NAMES = ["pageview", "engagement", "pageleave", "identify"] as const;

export const CHANNELS = ["direct", "search", "social", "email", "paid", "referral"] as const;
export type Channel = (typeof CHANNELS)[number];

export const DEVICES = ["desktop", "mobile", "tablet"] as const;
export type Device = (typeof DEVICES)[number];

/** Screen width classes, as Plausible buckets them. */
export function screenClass(width: number | undefined): string {
  if (width === undefined || !Number.isFinite(width) || width <= 0) return "";
  if (width < 576) return "mobile";
  if (width < 992) return "tablet";
  if (width < 1440) return "laptop";
  return "desktop";
}

/** A visitor's identified profile (DESIGN.md §3 visitors table). */
export interface VisitorProfile {
  property: string;
  client_id: string;
  email: string;
  name: string;
  traits: Record<string, string>;
  first_seen: Date;
  last_seen: Date;
}
