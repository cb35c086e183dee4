// Dates of the settings lists (created, last used, last seen) in the reader's locale and zone.
const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatWhen(iso: string | null, never = "Never"): string {
  if (iso === null) return never;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? never : FORMAT.format(d);
}
