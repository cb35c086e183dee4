// Channel rules (DESIGN.md §3): every visit lands in exactly one of direct, search, social,
// email, paid or referral. Campaign tags are the owner's explicit statement, so they are read
// before the referrer; paid comes first because paid search and paid social are still paid.
import type { Channel } from "@lookout/schema";
import type { SourceKind } from "./sources.js";

export interface ChannelInput {
  /** Kind of the resolved source (see referrer.ts); "other" when unknown or none. */
  kind: SourceKind;
  /** Resolved source name; "" means no referrer and no utm_source. */
  source: string;
  utmMedium: string;
  /** An ad network's click id was on the landing URL (gclid, msclkid…). */
  paidClickId: boolean;
}

/** Query parameters that only ad clicks carry. fbclid is absent: Facebook adds it to every link. */
export const PAID_CLICK_IDS = ["gclid", "gbraid", "wbraid", "dclid", "gad_source", "msclkid", "ttclid", "twclid", "li_fat_id"];

const PAID = /paid|^(.*cp[cmav].*|ppc|display|banner|retargeting|remarketing|ads?|sponsored)$/;
const EMAIL = /^(.*e[-_ ]?mail.*|newsletters?|mailing(s|[-_ ]?list)?)$/;
const SOCIAL = /^(social|sm|social[-_ ]?(network|media|post)|organic[-_ ]?social)$/;
const SEARCH = /^(organic|organic[-_ ]?search|seo)$/;
const REFERRAL = /^(referral|link|affiliates?)$/;

export function channelFor(input: ChannelInput): Channel {
  const medium = input.utmMedium.trim().toLowerCase();
  if (input.paidClickId) return "paid";
  // Most visits carry no medium, which none of the patterns match: no need to run them.
  if (medium !== "") {
    if (PAID.test(medium)) return "paid";
    if (EMAIL.test(medium)) return "email";
    if (SOCIAL.test(medium)) return "social";
    if (SEARCH.test(medium)) return "search";
    if (REFERRAL.test(medium)) return "referral";
  }
  // No medium we recognise: the source's kind decides.
  if (input.kind === "email" || input.kind === "social" || input.kind === "search") return input.kind;
  // A tagged link with an unknown medium still came from somewhere.
  if (input.source !== "" || medium !== "") return "referral";
  return "direct";
}
