// Referrer -> what we store (query-less, external only) and the source's display name and kind.
// A campaign's utm_source (or ?ref= / ?source=) names the source when present, because it is the
// site owner's own label and survives where browsers strip the referrer.
import { LruMap } from "../lru.js";
import { BRANDS, type KnownSource, SOURCE_ALIASES, SOURCE_HOSTS, type SourceKind } from "./sources.js";

export interface ReferrerInfo {
  /** Stored referrer: scheme, host and path of an external referrer; "" for none or internal. */
  referrer: string;
  /** Lowercase host (or app id) of an external referrer, "" otherwise. */
  host: string;
  /** The referrer was one of the site's own pages (or hosts): a navigation, not a source. */
  internal: boolean;
}

export interface SourceInfo {
  /** Display name: a well-known name, the campaign's utm_source, or the referring host. */
  source: string;
  kind: SourceKind;
}

const MAX_REFERRER = 2000;
const MAX_SOURCE = 300;

export const stripWww = (host: string): string => (host.startsWith("www.") ? host.slice(4) : host);

export function parseReferrer(raw: string | undefined, isInternalHost: (host: string) => boolean): ReferrerInfo {
  const none: ReferrerInfo = { referrer: "", host: "", internal: false };
  const text = raw?.trim() ?? "";
  const u = text === "" ? null : URL.parse(text);
  if (u === null) return none;
  const host = u.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "") return none;
  if ((u.protocol === "http:" || u.protocol === "https:") && isInternalHost(host)) {
    return { referrer: "", host: "", internal: true };
  }
  // The query and fragment go: they carry search terms, tokens and e-mail addresses.
  const path = u.protocol === "http:" || u.protocol === "https:" ? u.pathname : "";
  return { referrer: `${u.protocol}//${host}${path}`.slice(0, MAX_REFERRER), host, internal: false };
}

// Referrers repeat (a few search engines and social sites bring most visits): answers for recent
// hosts are kept, null meaning "not a known source".
const hostAnswers = new LruMap<string, KnownSource | null>(5_000);

/** Known-host lookup: the host itself, then each parent domain, then a per-country brand. */
export function knownSourceForHost(host: string): KnownSource | undefined {
  let known = hostAnswers.get(host);
  if (known === undefined) {
    known = lookupHost(host) ?? null;
    hostAnswers.set(host, known);
  }
  return known ?? undefined;
}

function lookupHost(host: string): KnownSource | undefined {
  const labels = host.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const hit = SOURCE_HOSTS.get(labels.slice(i).join("."));
    if (hit) return hit;
  }
  // brand.tld or brand.co.tld: at most two short labels after the brand.
  for (let i = Math.max(0, labels.length - 3); i < labels.length - 1; i++) {
    const brand = BRANDS.get(labels[i] ?? "");
    if (brand && labels.slice(i + 1).every((l) => l.length > 0 && l.length <= 3)) {
      return brand;
    }
  }
  return undefined;
}

export function knownSourceForAlias(utmSource: string): KnownSource | undefined {
  const key = utmSource.trim().toLowerCase();
  return SOURCE_ALIASES.get(key) ?? (key.includes(".") ? knownSourceForHost(stripWww(key)) : undefined);
}

/**
 * The source of a visit. A utm_source wins over the referrer; a known spelling of it maps to the
 * same name the referrer would give ("fb" and facebook.com are both Facebook).
 */
export function sourceFor(referrerHost: string, utmSource: string | undefined): SourceInfo {
  const utm = utmSource?.trim() ?? "";
  if (utm !== "") {
    const known = knownSourceForAlias(utm);
    return known ? { source: known.name, kind: known.kind } : { source: utm.slice(0, MAX_SOURCE), kind: "other" };
  }
  if (referrerHost === "") return { source: "", kind: "other" };
  const known = knownSourceForHost(referrerHost);
  return known ? { source: known.name, kind: known.kind } : { source: stripWww(referrerHost), kind: "other" };
}
