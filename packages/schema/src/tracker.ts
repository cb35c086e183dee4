// The collector body (POST /api/event, DESIGN.md §5): what the browser tracker may send, with every
// size limit. The tracker sends short aliases to stay under its byte budget; parsing maps them to
// the long names, so the collector and enrichment only ever see `TrackerEvent`.
import { z } from "zod";

export const TRACKER_LIMITS = {
  property: 64,
  name: 120,
  url: 2000,
  referrer: 2000,
  title: 1000,
  /** Server-side senders use their own user ids (`user-42`): any visible ASCII, 1 to 128 characters. */
  clientId: 128,
  propKey: 300,
  propValue: 2000,
  props: 30,
  email: 320,
  language: 35,
  /** One engagement ping never reports more than a day of engaged time. */
  engagedMs: 86_400_000,
  screenWidth: 100_000,
  revenueAmount: 1e12,
} as const;

/** Short name the tracker sends -> long name. Long names are always accepted too. */
export const TRACKER_ALIASES = {
  p: "property",
  n: "name",
  u: "url",
  r: "referrer",
  w: "screen_width",
  c: "client_id",
  pr: "props",
  rv: "revenue",
  e: "email",
  t: "traits",
  ti: "title",
  g: "engaged_ms",
  l: "language",
  h: "hash",
} as const;

type LongName = (typeof TRACKER_ALIASES)[keyof typeof TRACKER_ALIASES];
const LONG_NAMES = Object.values(TRACKER_ALIASES) as LongName[];
const ALIAS_OF = Object.fromEntries(Object.entries(TRACKER_ALIASES).map(([a, l]) => [l, a])) as Record<LongName, string>;

const L = TRACKER_LIMITS;

/**
 * A client id: the tracker's random id, or a server-side sender's own id. Visible ASCII only, so
 * that an id is one token wherever it goes (a URL path encoded, a CSV cell, a log line); it is
 * shown as text only, never as HTML.
 */
export const CLIENT_ID_RE = /^[\x21-\x7e]{1,128}$/;
const hasOwn = (o: object, k: string) => Object.hasOwn(o, k);
const REQUIRED: readonly LongName[] = ["property", "name", "url"];
/** Every accepted key (long name or alias) -> its field, with a bit per field to spot both names. */
const FIELD_OF_KEY = new Map<string, { long: LongName; bit: number; required: boolean }>(
  LONG_NAMES.flatMap((long, i) => {
    const field = { long, bit: 1 << i, required: REQUIRED.includes(long) };
    return [
      [long, field],
      [ALIAS_OF[long], field],
    ];
  }),
);

/**
 * The URL this schema accepted last, parsed. The collector reads the page URL's parts right after
 * validating the body; keeping the parse spares it a second one for every event.
 */
let lastText: string | undefined;
let lastUrl: URL | undefined;

function isHttpUrl(v: string): boolean {
  // One parse, not canParse then new URL: this runs for every collected event.
  const url = URL.parse(v);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
  lastText = v;
  lastUrl = url;
  return true;
}

/**
 * `text` (a URL the body schema accepted) parsed: the schema's own parse when it was the last URL
 * validated, else a fresh one. The URL may be shared, so it must not be modified.
 */
export function parseTrackerUrl(text: string): URL {
  return lastUrl !== undefined && lastText === text ? lastUrl : new URL(text);
}

/**
 * A flat map of scalars (custom-event props, identify traits). Built by hand rather than with
 * z.record so that hostile keys such as `__proto__` become plain own properties and every
 * violation names the offending key.
 */
function scalarMap(what: string) {
  return z
    .unknown()
    .transform((v, ctx): Record<string, string | number | boolean> | undefined => {
      if (v === undefined || v === null) return undefined;
      if (typeof v !== "object" || Array.isArray(v)) {
        ctx.addIssue({ code: "custom", message: `${what} must be an object of string, number or boolean values` });
        return z.NEVER;
      }
      const entries: [string, string | number | boolean][] = [];
      for (const [key, value] of Object.entries(v)) {
        // A null or absent value means "no value"; dropping it beats failing the whole event.
        if (value === null || value === undefined) continue;
        if (key.length === 0 || key.length > L.propKey) {
          ctx.addIssue({ code: "custom", message: `${what} keys must be 1 to ${L.propKey} characters` });
          return z.NEVER;
        }
        if (typeof value === "string") {
          if (value.length > L.propValue) {
            ctx.addIssue({ code: "custom", message: `${what}.${key} is longer than ${L.propValue} characters` });
            return z.NEVER;
          }
        } else if (typeof value === "number") {
          if (!Number.isFinite(value)) {
            ctx.addIssue({ code: "custom", message: `${what}.${key} must be a finite number` });
            return z.NEVER;
          }
        } else if (typeof value !== "boolean") {
          ctx.addIssue({ code: "custom", message: `${what}.${key} must be a string, number or boolean` });
          return z.NEVER;
        }
        entries.push([key, value]);
      }
      if (entries.length > L.props) {
        ctx.addIssue({ code: "custom", message: `${what} may hold at most ${L.props} entries` });
        return z.NEVER;
      }
      return Object.fromEntries(entries);
    })
    .optional();
}

const RevenueSchema = z.object(
  {
    // Strings are accepted because prices often come from the DOM or a data layer as text.
    amount: z.unknown().transform((v, ctx): number => {
      const n = typeof v === "string" && /^-?\d{1,15}(\.\d{1,10})?$/.test(v) ? Number(v) : v;
      if (typeof n !== "number" || !Number.isFinite(n)) {
        ctx.addIssue({ code: "custom", message: "revenue.amount must be a number or a decimal string" });
        return z.NEVER;
      }
      return n;
    }),
    currency: z
      .string({ error: "revenue.currency must be a 3-letter ISO 4217 code" })
      .regex(/^[A-Za-z]{3}$/, "revenue.currency must be a 3-letter ISO 4217 code")
      .transform((c) => c.toUpperCase()),
  },
  { error: "revenue must be an object {amount, currency}" },
);

const optionalString = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, `${field} is longer than ${max} characters`)
    .optional();

const BodySchema = z
  .object({
    property: z
      .string({ error: "property is required (the site's unique id)" })
      .regex(/^[A-Za-z0-9_-]+$/, "property must be a site's unique id")
      .max(L.property, `property is longer than ${L.property} characters`),
    name: z
      .string({ error: "name is required (the event name)" })
      .trim()
      .min(1, "name must not be empty")
      .max(L.name, `name is longer than ${L.name} characters`),
    url: z
      .string({ error: "url is required" })
      .max(L.url, `url is longer than ${L.url} characters`)
      .refine(isHttpUrl, "url must be an absolute http(s) URL"),
    referrer: optionalString("referrer", L.referrer),
    screen_width: z
      .number({ error: "screen_width must be a number" })
      .int("screen_width must be an integer")
      .min(0, "screen_width must not be negative")
      .max(L.screenWidth, "screen_width is out of range")
      .optional(),
    client_id: z
      .string({ error: "client_id must be a string" })
      .regex(CLIENT_ID_RE, `client_id must be 1 to ${L.clientId} visible ASCII characters (no spaces)`)
      .optional(),
    props: scalarMap("props"),
    revenue: RevenueSchema.optional().refine((v) => v === undefined || Math.abs(v.amount) <= L.revenueAmount, {
      message: "revenue.amount is out of range",
      // Only for an otherwise valid revenue, so that a bad currency is the one complaint.
      when: (payload) => payload.issues.length === 0,
    }),
    email: z
      .string({ error: "email must be a string" })
      .trim()
      .max(L.email, `email is longer than ${L.email} characters`)
      .regex(/^[^\s@]+@[^\s@]+$/, "email must be an e-mail address")
      .optional(),
    traits: scalarMap("traits"),
    title: optionalString("title", L.title),
    engaged_ms: z
      .number({ error: "engaged_ms must be a number" })
      .min(0, "engaged_ms must not be negative")
      .max(L.engagedMs, "engaged_ms is out of range")
      .transform(Math.round)
      .optional(),
    language: optionalString("language", L.language),
    // Hash-routed sites: the fragment is part of the page path.
    hash: z
      .union([z.boolean(), z.literal(0), z.literal(1)], { error: "hash must be a boolean" })
      .transform((v) => v === true || v === 1)
      .default(false),
  })
  .superRefine((b, ctx) => {
    if (b.name === "identify" && b.email === undefined) {
      ctx.addIssue({ code: "custom", path: ["email"], message: "identify needs an email" });
    }
  });

/**
 * Picks only the known fields (long name or alias) into a fresh object. Unknown keys are ignored
 * without being read further, and giving a field under both names is an error rather than a guess.
 * A null optional field is left out, as if absent: that is what it means, and the field schemas
 * then need no null-to-undefined step each (the body is parsed once per collected event).
 */
function normaliseAliases(input: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    ctx.addIssue({ code: "custom", message: "the event body must be a JSON object" });
    return z.NEVER;
  }
  const body = input as Record<string, unknown>;
  const out: Partial<Record<LongName, unknown>> = {};
  // The body's own keys, not a probe per known name: a tracker body has a handful of fields.
  let given = 0;
  for (const key of Object.keys(body)) {
    const field = FIELD_OF_KEY.get(key);
    if (field === undefined) continue;
    if (given & field.bit) {
      // Both names of a field; reported for the first such field in alias-table order.
      const long = LONG_NAMES.find((l) => hasOwn(body, l) && hasOwn(body, ALIAS_OF[l])) as LongName;
      ctx.addIssue({ code: "custom", path: [long], message: `give either ${long} or its alias ${ALIAS_OF[long]}, not both` });
      return z.NEVER;
    }
    given |= field.bit;
    const value = body[key];
    if (value !== null || field.required) out[field.long] = value;
  }
  return out;
}

export const TrackerEventSchema = z.preprocess(normaliseAliases, BodySchema);

/** The collector body after parsing: long names only, limits checked, optional fields undefined. */
export type TrackerEvent = z.output<typeof TrackerEventSchema>;
/** What a client may send (long names; aliases are accepted too). */
export type TrackerEventInput = z.input<typeof BodySchema>;
