// How /billing writes its numbers and dates: prices in the plan's currency from minor units,
// billing periods as day ranges (a period's end is exclusive, so the last day shown is the one
// before it; periods begin at midnight UTC on the account's anchor day, so days are read in UTC
// and never shift with the reader's zone), and the check that a provider URL may be followed.

/** An amount in minor units (cents) in its currency: "$19", "€190.50". */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const digits =
    new Intl.NumberFormat(locale, { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  const value = minor / 10 ** digits;
  const whole = Number.isInteger(value);
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: code,
    minimumFractionDigits: whole ? 0 : digits,
    maximumFractionDigits: digits,
  }).format(value);
}

const DAY_MS = 86_400_000;

const dayFormat = (locale: string | undefined, withYear: boolean) =>
  new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", ...(withYear ? { year: "numeric" } : {}), timeZone: "UTC" });

/** The last day of a period whose end is exclusive. */
function lastDay(endIso: string): Date {
  return new Date(new Date(endIso).getTime() - 1);
}

/** A period as its days: "1 Nov – 30 Nov 2026" (the year once when both ends share it). */
export function formatPeriod(startIso: string, endIso: string, locale?: string): string {
  const start = new Date(startIso);
  const end = lastDay(endIso);
  const sameYear = start.getUTCFullYear() === end.getUTCFullYear();
  return `${dayFormat(locale, !sameYear).format(start)} – ${dayFormat(locale, true).format(end)}`;
}

/** A period's last day from its exclusive end: "30 Nov 2026" for an end of 1 Dec 00:00 UTC. */
export function formatLastDay(endIso: string, locale?: string): string {
  return dayFormat(locale, true).format(lastDay(endIso));
}

/** A day on its own, in UTC: "30 Nov 2026". */
export function formatDay(iso: string, locale?: string): string {
  return dayFormat(locale, true).format(new Date(iso));
}

/** A period's short label under a chart bar: its first day's month ("Nov"), with the year in January. */
export function periodShortLabel(startIso: string, locale?: string): string {
  const d = new Date(startIso);
  const month = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" }).format(d);
  return d.getUTCMonth() === 0 ? `${month} ${d.getUTCFullYear()}` : month;
}

/** Whole days from `now` to `endIso` (rounded up; 0 once past). */
export function daysLeft(endIso: string, now: Date): number {
  return Math.max(0, Math.ceil((new Date(endIso).getTime() - now.getTime()) / DAY_MS));
}

/**
 * Whether the browser may be sent to `url`, answered by the server as a checkout or portal page:
 * an absolute http(s) URL, or a path on this site. Anything else (javascript:, data:, a
 * protocol-relative //host) is refused: links only for http(s) URLs (DESIGN.md §7).
 */
export function isFollowableUrl(url: string, origin: string): boolean {
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return true;
  try {
    const u = new URL(url, origin);
    return (u.protocol === "https:" || u.protocol === "http:") && /^https?:\/\//i.test(url);
  } catch {
    return false;
  }
}
