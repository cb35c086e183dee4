// The property (website) as the client sees it: SPEC.md §3 needs unique_id and website_url.
import { z } from "zod";

export const PropertySchema = z.object({
  unique_id: z.string(),
  website_url: z.string(),
  name: z.string(),
  timezone: z.string(),
  account_id: z.string(),
  created_at: z.string(),
});
export type Property = z.infer<typeof PropertySchema>;

/** What the client keeps under the `currentProperty` storage key. */
export const CurrentPropertySchema = z.object({
  unique_id: z.string(),
  website_url: z.string().optional(),
});
export type CurrentProperty = z.infer<typeof CurrentPropertySchema>;

export function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const TimezoneSchema = z.string().min(1).max(64).refine(isValidTimezone, "unknown IANA timezone");

export const WebsiteUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "website_url must be an http(s) URL");
