// How the visitors screens name things: a visitor (name, e-mail, else their client id), a place,
// a device, a moment and a sum of money. Everything here returns plain strings that React renders
// as text; tracked values are never HTML.
import { countryName } from "../../lib/countries";

/** The visitor's name, else e-mail, else "Visitor" and the start of their client id. */
export function visitorLabel(v: { name: string; email: string; client_id: string }): string {
  return v.name.trim() || v.email.trim() || `Visitor ${v.client_id.slice(0, 12)}`;
}

/** "Lyon, Auvergne-Rhône-Alpes, France", skipping what is unknown; "Unknown location" when all is. */
export function placeLabel(v: { city: string; region: string; country: string }): string {
  const country = v.country ? countryName(v.country) : "";
  const parts = [v.city, v.region, country].map((s) => s.trim()).filter(Boolean);
  return parts.length ? [...new Set(parts)].join(", ") : "Unknown location";
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Desktop · Chrome · Linux", skipping what is unknown. */
export function deviceLabel(v: { device: string; browser: string; os: string }): string {
  return [cap(v.device), v.browser, v.os].filter((s) => s && s.toLowerCase() !== "unknown").join(" · ") || "Unknown device";
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

const valid = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

export const formatDateTime = (iso: string) => {
  const d = valid(iso);
  return d ? DATE_TIME.format(d) : "–";
};
export const formatTime = (iso: string) => {
  const d = valid(iso);
  return d ? TIME.format(d) : "–";
};
/** A YYYY-MM-DD day (the property's calendar) as the reader writes dates; read at noon UTC so no zone moves it. */
export const formatDay = (day: string) => {
  const d = valid(`${day}T12:00:00Z`);
  return d ? DATE.format(d) : day;
};

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "5 minutes ago", "yesterday", "3 months ago". */
export function formatRelative(iso: string, now = Date.now()): string {
  const d = valid(iso);
  if (!d) return "–";
  const s = Math.round((d.getTime() - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return "just now";
  if (abs < 3600) return RELATIVE.format(Math.round(s / 60), "minute");
  if (abs < 86_400) return RELATIVE.format(Math.round(s / 3600), "hour");
  if (abs < 30 * 86_400) return RELATIVE.format(Math.round(s / 86_400), "day");
  if (abs < 365 * 86_400) return RELATIVE.format(Math.round(s / (30 * 86_400)), "month");
  return RELATIVE.format(Math.round(s / (365 * 86_400)), "year");
}

const MONEY = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 0 });

/** Revenue summed over events: the currency when it is known, else the bare amount. */
export function formatMoney(amount: number, currency = ""): string {
  if (currency) {
    try {
      return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount);
    } catch {
      // Not an ISO 4217 code: the amount with the code as sent, below.
    }
    return `${MONEY.format(amount)} ${currency}`;
  }
  return MONEY.format(amount);
}
