// The property management calls (DESIGN.md §5): create, edit, settings (exclusions, cookieless),
// reset and delete, and the answers they give. Shared with the web app, so only what a browser
// can check lives here (Intl, the WHATWG URL parser); the server adds its IP and CIDR parsing
// (node:net) on top of the same list shapes (apps/server/src/properties/settings.ts).
import { z } from "zod";
import { text } from "./strings.js";

export const PROPERTY_LIMITS = {
  /** Entries per list (excluded IPs, excluded paths, allowed hostnames). */
  maxEntries: 100,
  /** An excluded path pattern (the collector's glob matcher refuses longer ones). */
  maxPathLength: 300,
  /** One entry of a list, before parsing (each kind then has its own limit). */
  maxEntryLength: 1000,
  maxNameLength: 120,
  maxUrlLength: 2000,
} as const;

/** Every IANA zone the runtime knows (canonical names), plus "UTC", sorted. */
export function timezoneNames(): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

let zoneSet: Set<string> | undefined;
/** Whether `tz` is one of timezoneNames() (aliases such as "Europe/Kiev" are refused). */
export function isSupportedTimezone(tz: string): boolean {
  zoneSet ??= new Set(timezoneNames());
  return zoneSet.has(tz);
}

export const PropertyTimezoneSchema = text().refine(
  isSupportedTimezone,
  "is not a known IANA timezone (e.g. Europe/Berlin or UTC)",
);

export const PropertyNameSchema = text()
  .trim()
  .min(1, "is required")
  .max(PROPERTY_LIMITS.maxNameLength, `must be at most ${PROPERTY_LIMITS.maxNameLength} characters`);

/** The origin of an http(s) URL ("https://example.com/blog" -> "https://example.com"), or null. */
export function websiteOrigin(raw: string): string | null {
  const s = raw.trim();
  // A bare host ("example.com") is what most people type: read it as https.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
  if (!URL.canParse(withScheme)) return null;
  const u = new URL(withScheme);
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "" || u.username || u.password) return null;
  return u.origin;
}

/** A website address: parsed with the WHATWG URL parser, http(s) only, kept as its origin. */
export const PropertyWebsiteSchema = text()
  .max(PROPERTY_LIMITS.maxUrlLength)
  .transform((v, ctx) => {
    const origin = websiteOrigin(v);
    if (origin === null) {
      ctx.addIssue({ code: "custom", message: "must be an http(s) address such as https://example.com" });
      return z.NEVER;
    }
    return origin;
  });

/**
 * An allowed hostname: "example.com" (also matches www.example.com) or "*.example.com" (any
 * subdomain). Parsed by the URL parser (which also turns an international name into its ASCII
 * form, as the page URLs the collector sees are); a pasted address keeps only its host.
 */
export function parseHostnameEntry(raw: string): string | null {
  let s = raw.trim().toLowerCase();
  const wildcard = s.startsWith("*.");
  if (wildcard) s = s.slice(2);
  if (s === "" || s.includes("*")) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(s);
  const input = hasScheme ? s : `http://${s}`;
  if (!URL.canParse(input)) return null;
  const u = new URL(input);
  if (u.hostname === "" || u.username || u.password || u.port) return null;
  // Without a scheme, the text must be the host alone (no path, query or fragment).
  if (!hasScheme && !["", "/"].includes(u.pathname + u.search + u.hash)) return null;
  const host = u.hostname.replace(/\.$/, "");
  if (host === "" || host.startsWith(".") || host.includes("..")) return null;
  // DNS's limits, which the URL parser leaves to the resolver.
  if (host.length > 253 || host.split(".").some((label) => label.length > 63)) return null;
  return wildcard ? `*.${host}` : host;
}

/** An excluded path pattern: starts with "/", `*` within a segment, `**` across segments. */
export function pathEntryProblem(raw: string): string | null {
  const s = raw.trim();
  if (!s.startsWith("/")) return 'must start with "/"';
  if (s.length > PROPERTY_LIMITS.maxPathLength) return `must be at most ${PROPERTY_LIMITS.maxPathLength} characters`;
  if (/\s/.test(s)) return "must not contain spaces";
  if (/[?#]/.test(s)) return "is matched against the path only: leave out ? and #";
  return null;
}

const listOf = (what: string) =>
  z
    .array(text().max(PROPERTY_LIMITS.maxEntryLength, `must be at most ${PROPERTY_LIMITS.maxEntryLength} characters`))
    .max(PROPERTY_LIMITS.maxEntries, `at most ${PROPERTY_LIMITS.maxEntries} ${what}`);

/** An entry as an error message quotes it: long ones cut short. */
const quote = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/**
 * A list whose entries are parsed one by one into their stored form (blank lines skipped,
 * duplicates dropped); a bad entry's issue has its index in the path, so the answer's
 * `details` name the line ("settings.excluded_ips.3").
 */
export const entryListSchema = (what: string, parse: (entry: string) => string | { problem: string }) =>
  listOf(what).transform((entries, ctx) => {
    const out: string[] = [];
    entries.forEach((entry, i) => {
      if (entry.trim() === "") return;
      const r = parse(entry);
      if (typeof r === "string") {
        if (!out.includes(r)) out.push(r);
      } else ctx.addIssue({ code: "custom", path: [i], message: `"${quote(entry.trim())}" ${r.problem}` });
    });
    return out;
  });

export const ExcludedPathsSchema = entryListSchema("paths", (e) => {
  const problem = pathEntryProblem(e);
  return problem ? { problem } : e.trim();
});

export const AllowedHostnamesSchema = entryListSchema(
  "hostnames",
  (e) => parseHostnameEntry(e) ?? { problem: "is not a hostname (example.com or *.example.com)" },
);

/** The settings a property answer shows (DESIGN.md §5's binding names). */
export const PropertySettingsAnswerSchema = z.object({
  cookieless: z.boolean(),
  excluded_ips: z.array(z.string()),
  excluded_paths: z.array(z.string()),
  allowed_hostnames: z.array(z.string()),
});
export type PropertySettingsAnswer = z.infer<typeof PropertySettingsAnswerSchema>;

/** A property as the management API answers it. */
export const AdminPropertySchema = z.object({
  unique_id: z.string(),
  name: z.string(),
  website_url: z.string(),
  timezone: z.string(),
  account_id: z.string(),
  created_at: z.string(),
  is_demo: z.boolean(),
  settings: PropertySettingsAnswerSchema,
  /** Pageviews and custom events of the last 30 days (the property's timezone, today included). */
  events_30d: z.number().int().nonnegative(),
});
export type AdminProperty = z.infer<typeof AdminPropertySchema>;
export const AdminPropertyListSchema = z.array(AdminPropertySchema);

/** GET /api/v1/properties/{unique_id}/install-status: from received events only. */
export const InstallStatusSchema = z.object({
  received: z.boolean(),
  /** When the latest event of the property arrived (ISO 8601), or null. */
  last_event_at: z.string().nullable(),
});
export type InstallStatus = z.infer<typeof InstallStatusSchema>;

/** GET /api/v1/properties/{unique_id}/client-address: the caller's address as the collector sees it. */
export const ClientAddressSchema = z.object({ ip: z.string() });
export type ClientAddress = z.infer<typeof ClientAddressSchema>;

/** The create form's fields (also the web form's schema). */
export const PropertyFormSchema = z.object({
  name: PropertyNameSchema,
  website_url: PropertyWebsiteSchema,
  timezone: PropertyTimezoneSchema,
});
export type PropertyFormInput = z.input<typeof PropertyFormSchema>;
