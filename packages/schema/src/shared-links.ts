// Shared links (DESIGN.md §5): named public links to a read-only dashboard of one property at
// /share/{slug}, with an optional password and expiry. The management calls' bodies and answers,
// and the public page's calls (what the link shows, the password form).
import { z } from "zod";
import { PASSWORD_MAX } from "./auth.js";
import { text } from "./strings.js";

/** A link's slug: 22 url-safe characters from node:crypto (128 bits); the credential of a public link. */
export const SHARE_SLUG_RE = /^[A-Za-z0-9_-]{16,64}$/;
export const ShareSlugSchema = z.string().regex(SHARE_SLUG_RE, "is not a shared link");

/** A link's id: a UUID from node:crypto. */
export const SharedLinkIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "is not a shared link id");

export const SHARE_NAME_MAX = 100;
/** A share password may be short (it guards a read-only page, and attempts are throttled). */
export const SHARE_PASSWORD_MIN = 6;

export const CreateSharedLinkBodySchema = z.object({
  name: text().trim().min(1, "name is required").max(SHARE_NAME_MAX, `name must be at most ${SHARE_NAME_MAX} characters`),
  password: text()
    .min(SHARE_PASSWORD_MIN, `password must be at least ${SHARE_PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`)
    .optional(),
  expires_at: z.iso
    .datetime({ offset: true, message: "expires_at must be an ISO 8601 date and time" })
    .refine((v) => Date.parse(v) > Date.now(), "expires_at must be in the future")
    .optional(),
});
export type CreateSharedLinkBody = z.infer<typeof CreateSharedLinkBodySchema>;

/** A day as the browser's date input gives it, in local time. */
const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/** The web form's fields: empty password and last day mean "none" (sharedLinkBody makes the API body). */
export const SharedLinkFormSchema = z.object({
  name: z.string().trim().min(1, "Give the link a name.").max(SHARE_NAME_MAX, `At most ${SHARE_NAME_MAX} characters.`),
  password: z
    .string()
    .max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters.`)
    .refine((v) => v === "" || v.length >= SHARE_PASSWORD_MIN, `At least ${SHARE_PASSWORD_MIN} characters, or none.`),
  expires: z
    .string()
    .refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v), "Pick a date.")
    .refine((v) => v === "" || v >= localDay(new Date()), "Pick today or a later day."),
});
export type SharedLinkFormInput = z.input<typeof SharedLinkFormSchema>;

/** The API body of the form's fields: a last day means the link works until the end of that local day. */
export function sharedLinkBody(f: SharedLinkFormInput): CreateSharedLinkBody {
  return {
    name: f.name.trim(),
    ...(f.password ? { password: f.password } : {}),
    ...(f.expires ? { expires_at: new Date(`${f.expires}T23:59:59.999`).toISOString() } : {}),
  };
}

export const CreatedSharedLinkSchema = z.object({
  id: z.string(),
  slug: z.string(),
  /** The public page's full address. */
  url: z.string(),
});
export type CreatedSharedLink = z.infer<typeof CreatedSharedLinkSchema>;

export const SharedLinkSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  url: z.string(),
  has_password: z.boolean(),
  expires_at: z.string().nullable(),
  /** Past its expiry: the page and its calls answer "not found". */
  expired: z.boolean(),
  created_at: z.string(),
});
export type SharedLink = z.infer<typeof SharedLinkSchema>;

export const SharedLinkListSchema = z.array(SharedLinkSchema);

/** What the public page learns of its link. The property's details only once it may be seen. */
export const ShareInfoSchema = z.object({
  name: z.string(),
  property_name: z.string(),
  /** A password is set and this browser has not given it (in the last 24 h). */
  needs_password: z.boolean(),
  has_password: z.boolean(),
  property: z
    .object({
      unique_id: z.string(),
      name: z.string(),
      website_url: z.string(),
      timezone: z.string(),
    })
    .nullable(),
});
export type ShareInfo = z.infer<typeof ShareInfoSchema>;

export const ShareAuthBodySchema = z.object({
  password: text().min(1, "password is required").max(PASSWORD_MAX, `password must be at most ${PASSWORD_MAX} characters`),
});
export type ShareAuthBody = z.infer<typeof ShareAuthBodySchema>;

/** The header the shared page's Stats API calls name their link by (with the cookie for a password). */
export const SHARE_HEADER = "X-Share-Slug";
