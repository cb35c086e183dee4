// Page URL -> hostname, path, the stored query-less URL, campaign (utm_*) tags and whether an ad
// click id was present. The query string is read here and then dropped: it carries tokens and
// personal data that analytics must not keep.
import { parseTrackerUrl } from "@lookout/schema";
import { PAID_CLICK_IDS } from "./channel.js";
import { stripWww } from "./referrer.js";

export interface Utm {
  source: string;
  medium: string;
  campaign: string;
  term: string;
  content: string;
}

export interface PageUrl {
  /** Lowercase host without port, as the browser had it (for allowed-hostname checks). */
  host: string;
  /** Stored hostname: `host` without a leading "www.", so both spellings count as one site. */
  hostname: string;
  /** Pathname; in hash-routing mode followed by the fragment ("/#/pricing"). */
  path: string;
  /** Scheme, host, port and path: the URL minus query (and fragment, unless hash-routed). */
  url: string;
  utm: Utm;
  /** utm_source, or else ?ref= / ?source= as used by Product Hunt, newsletters and others. */
  sourceTag: string;
  paidClickId: boolean;
}

const MAX_TAG = 300;

/** `url` must be an absolute http(s) URL (the body schema guarantees it). */
export function parsePageUrl(url: string, hashRouting = false): PageUrl {
  const u = parseTrackerUrl(url);
  // Most page URLs have no query: then there are no tags to look for (and no URLSearchParams to build).
  const q = u.search === "" ? null : u.searchParams;
  const tag = (name: string) => (q?.get(name) ?? "").trim().slice(0, MAX_TAG);
  const host = u.hostname.toLowerCase().replace(/\.$/, "");
  const path = (hashRouting ? u.pathname + u.hash : u.pathname).slice(0, 2000);
  const utm: Utm = {
    source: tag("utm_source"),
    medium: tag("utm_medium"),
    campaign: tag("utm_campaign"),
    term: tag("utm_term"),
    content: tag("utm_content"),
  };
  return {
    host,
    hostname: stripWww(host),
    path,
    url: `${u.protocol}//${u.host}${path}`.slice(0, 2000),
    utm,
    sourceTag: utm.source || tag("ref") || tag("source"),
    paidClickId: q !== null && PAID_CLICK_IDS.some((id) => q.has(id)),
  };
}
