// Number, percentage, duration and change formatting for the statistics screens, in the user's
// locale (Intl) unless a locale is given (tests pin one). Big numbers go compact ("12.3K").
const cache = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

/** From this value up, counts are shown compact ("12K"); below, in full ("9,876"). */
export const COMPACT_FROM = 10_000;

/** A count: in full below COMPACT_FROM, compact from there ("12.3K", "4.5M"). */
export function formatCount(n: number, locale?: string): string {
  if (Math.abs(n) >= COMPACT_FROM) return numberFormat(locale, { notation: "compact", maximumFractionDigits: 1 }).format(n);
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** A count in full, for titles and exports ("12,345"). */
export function formatFull(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(n);
}

/** A ratio such as views per visit: up to two decimals ("1.85"). */
export function formatDecimal(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(n);
}

/** A value already in percent (0–100): "68.9%". */
export function formatPercent(n: number, locale?: string): string {
  return numberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(n / 100);
}

/** Seconds as "45s", "1m 05s" or "2h 03m 04s"; rounded to whole seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "0s";
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

/** A change in percent with its sign: "+20%", "−5.3%", "0%". */
export function formatChange(change: number, locale?: string): string {
  return numberFormat(locale, { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(change / 100);
}

export type ChangeTone = "good" | "bad" | "neutral";

/** Whether a change is good news: up is good, except for metrics where lower is better. */
export function changeTone(change: number | null, lowerIsBetter = false): ChangeTone {
  if (change === null || change === 0 || !Number.isFinite(change)) return "neutral";
  return change > 0 !== lowerIsBetter ? "good" : "bad";
}
