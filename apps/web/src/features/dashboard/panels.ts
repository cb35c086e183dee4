// The breakdown panels and their tabs: which dimension each tab breaks down by, what its rows and
// its Details table show, and how an empty value reads.
import type { BaseDimension, Filter, Metric } from "@lookout/schema";
import type { StatsQuery } from "./api";

export type TabKind = "list" | "map" | "goals";

export interface TabDef {
  id: string;
  label: string;
  dimension: BaseDimension;
  kind: TabKind;
  /** The Details modal's title and the row header. */
  title: string;
  column: string;
  /** Metrics of the Details table, visitors first. */
  detailMetrics: Metric[];
  /** Tabs in a group show in one dropdown (the UTM tabs). */
  group?: string;
  /** Shown for the empty value ("" from the server). */
  emptyLabel: string;
  /** Rows with the empty value are left out (by a filter sent with the request). */
  hideEmpty?: boolean;
  /** Values are country codes: show name and flag. */
  country?: boolean;
  /** Values may be http(s) URLs worth a link out (never for other schemes). */
  linkOut?: boolean;
}

export interface PanelDef {
  id: string;
  title: string;
  tabs: TabDef[];
}

const VISIT_METRICS: Metric[] = ["visitors", "visits", "bounce_rate", "visit_duration"];

const tab = (t: Omit<TabDef, "kind" | "detailMetrics" | "emptyLabel"> & Partial<TabDef>): TabDef => ({
  kind: "list",
  detailMetrics: VISIT_METRICS,
  emptyLabel: "(not set)",
  ...t,
});

const utm = (dimension: BaseDimension, label: string): TabDef =>
  tab({ id: dimension, label, dimension, title: `UTM ${label}`, column: label, group: "UTM", hideEmpty: true });

export const PANELS: PanelDef[] = [
  {
    id: "pages",
    title: "Pages",
    tabs: [
      tab({
        id: "page",
        label: "Top pages",
        dimension: "page",
        title: "Top pages",
        column: "Page",
        detailMetrics: ["visitors", "pageviews", "bounce_rate", "time_on_page"],
      }),
      tab({ id: "entry_page", label: "Entry", dimension: "entry_page", title: "Entry pages", column: "Entry page" }),
      tab({
        id: "exit_page",
        label: "Exit",
        dimension: "exit_page",
        title: "Exit pages",
        column: "Exit page",
        detailMetrics: ["visitors", "visits", "pageviews"],
      }),
    ],
  },
  {
    id: "sources",
    title: "Sources",
    tabs: [
      tab({ id: "channel", label: "Channels", dimension: "channel", title: "Channels", column: "Channel" }),
      tab({
        id: "source",
        label: "Sources",
        dimension: "source",
        title: "Sources",
        column: "Source",
        emptyLabel: "Direct / none",
      }),
      tab({
        id: "referrer",
        label: "Referrers",
        dimension: "referrer",
        title: "Referrers",
        column: "Referrer",
        emptyLabel: "Direct / none",
        linkOut: true,
      }),
      utm("utm_source", "Source"),
      utm("utm_medium", "Medium"),
      utm("utm_campaign", "Campaign"),
      utm("utm_term", "Term"),
      utm("utm_content", "Content"),
    ],
  },
  {
    id: "locations",
    title: "Locations",
    tabs: [
      tab({ id: "map", label: "Map", dimension: "country", kind: "map", title: "Countries", column: "Country", country: true }),
      tab({ id: "country", label: "Countries", dimension: "country", title: "Countries", column: "Country", country: true }),
      tab({ id: "region", label: "Regions", dimension: "region", title: "Regions", column: "Region" }),
      tab({ id: "city", label: "Cities", dimension: "city", title: "Cities", column: "City" }),
    ],
  },
  {
    id: "devices",
    title: "Devices",
    tabs: [
      tab({ id: "browser", label: "Browsers", dimension: "browser", title: "Browsers", column: "Browser" }),
      tab({ id: "os", label: "OS", dimension: "os", title: "Operating systems", column: "Operating system" }),
      tab({ id: "device", label: "Devices", dimension: "device", title: "Devices", column: "Device" }),
      tab({ id: "screen", label: "Screen sizes", dimension: "screen", title: "Screen sizes", column: "Screen size" }),
    ],
  },
  {
    id: "goals",
    title: "Goals",
    tabs: [
      tab({
        id: "event_name",
        label: "Custom events",
        dimension: "event_name",
        kind: "goals",
        title: "Goals and custom events",
        column: "Event",
        detailMetrics: ["visitors", "events", "conversion_rate"],
      }),
    ],
  },
];

/** Extra filters a tab sends with its request (leaving out empty values where asked). */
export function tabFilters(t: TabDef): Filter[] {
  return t.hideEmpty ? [{ dimension: t.dimension, op: "is_not", values: [""] }] : [];
}

/** The request's metrics: conversion_rate is worked out here, so it is never asked for. */
export function requestMetrics(metrics: readonly Metric[]): Metric[] {
  return metrics.filter((m) => m !== "conversion_rate");
}

/** An http(s) URL to link to, or null: tracked text never becomes a javascript: or data: link. */
export function safeHttpUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export interface PanelContext {
  query: StatsQuery;
  /** All visitors under the dashboard's filters (for conversion rates). */
  totalVisitors: number | undefined;
  /** The property's address, for links to its pages (http(s) only). */
  website: string;
  onFilter: (filter: Filter) => void;
}

/** Where a row may link to: the page on the site, or an http(s) referrer. Never another scheme. */
export function rowLink(t: TabDef, value: string, website: string): string | null {
  if (value === "") return null;
  if (t.linkOut) return safeHttpUrl(value);
  if ((t.dimension === "page" || t.dimension === "entry_page" || t.dimension === "exit_page") && value.startsWith("/")) {
    const base = safeHttpUrl(website);
    if (!base) return null;
    try {
      const u = new URL(value, base);
      // "//elsewhere.example/x" is a path too: only links to the property's own host.
      return u.host === new URL(base).host ? safeHttpUrl(u.href) : null;
    } catch {
      return null;
    }
  }
  return null;
}

export function conversionRate(visitors: number, total: number | undefined): number | null {
  return total && total > 0 ? (100 * visitors) / total : null;
}
