// How dimensions, filters and chart buckets read on screen.
import { type BaseDimension, type Dimension, type Filter, type Interval, isPropDimension, propKey } from "@lookout/schema";
import { countryName } from "../../lib/countries";
import { OP_JOINERS, OP_WORDS } from "./filters";

const DIMENSION_LABELS: Record<BaseDimension, string> = {
  page: "Page",
  entry_page: "Entry page",
  exit_page: "Exit page",
  hostname: "Hostname",
  source: "Source",
  referrer: "Referrer",
  channel: "Channel",
  utm_source: "UTM source",
  utm_medium: "UTM medium",
  utm_campaign: "UTM campaign",
  utm_term: "UTM term",
  utm_content: "UTM content",
  country: "Country",
  region: "Region",
  city: "City",
  browser: "Browser",
  browser_version: "Browser version",
  os: "OS",
  os_version: "OS version",
  device: "Device",
  screen: "Screen size",
  event_name: "Event",
};

export function dimensionLabel(d: Dimension): string {
  return isPropDimension(d) ? `Property ${propKey(d)}` : DIMENSION_LABELS[d];
}

/** A value as a chip or a title says it: country names for codes, "(none)" for the empty value. */
export function valueText(d: Dimension, value: string): string {
  if (value === "") return "(none)";
  return d === "country" ? countryName(value) : value;
}

/** "Country is not Germany, France", "Page contains blog", "Page is /a or /b". */
export function filterText(f: Filter): string {
  const values = f.values.map((v) => valueText(f.dimension, v)).join(OP_JOINERS[f.op]);
  return `${dimensionLabel(f.dimension)} ${OP_WORDS[f.op]} ${values}`;
}

// --- chart buckets: the API's dates are wall-clock times in the property's time zone, read as such.

const BUCKET = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

export function parseBucket(s: string): Date | null {
  const m = BUCKET.exec(s);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
}

const fmt = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, o);
const SHORT_DAY = fmt({ day: "numeric", month: "short" });
const LONG_DAY = fmt({ weekday: "short", day: "numeric", month: "short", year: "numeric" });
const TIME = fmt({ hour: "2-digit", minute: "2-digit" });
const DAY_TIME = fmt({ day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const MONTH_SHORT = fmt({ month: "short", year: "numeric" });
const MONTH_LONG = fmt({ month: "long", year: "numeric" });

/** The x-axis label of a bucket; `multiDay` adds the day to hours and minutes. */
export function bucketLabel(s: string, interval: Interval, multiDay: boolean): string {
  const d = parseBucket(s);
  if (!d) return s;
  switch (interval) {
    case "minute":
    case "hour":
      return multiDay ? DAY_TIME.format(d) : TIME.format(d);
    case "day":
    case "week":
      return SHORT_DAY.format(d);
    case "month":
      return MONTH_SHORT.format(d);
  }
}

/** The tooltip's fuller date of a bucket. */
export function bucketTitle(s: string, interval: Interval): string {
  const d = parseBucket(s);
  if (!d) return s;
  switch (interval) {
    case "minute":
    case "hour":
      return DAY_TIME.format(d);
    case "day":
      return LONG_DAY.format(d);
    case "week":
      return `Week of ${LONG_DAY.format(d)}`;
    case "month":
      return MONTH_LONG.format(d);
  }
}

export const INTERVAL_LABELS: Record<Interval, string> = {
  minute: "Minute",
  hour: "Hour",
  day: "Day",
  week: "Week",
  month: "Month",
};
