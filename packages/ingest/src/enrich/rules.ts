// A property's collection rules: allowed hostnames (with `*.` wildcards), excluded IPs/CIDRs and
// excluded path globs, compiled once per settings object rather than once per event.
import { compileGlob } from "./glob.js";
import { compileIpList } from "./ip.js";
import { stripWww } from "./referrer.js";

/** What enrichment needs to know about the property; the server looks the property up. */
export interface EnrichPropertySettings {
  /** The property's public unique_id (stored in every row). */
  unique_id: string;
  /** Store no client id; visitors are daily salted hashes. */
  cookieless: boolean;
  /**
   * Hosts whose pageviews count; empty allows any. "example.com" also matches www.example.com;
   * "*.example.com" matches subdomains at any depth but not example.com itself.
   */
  allowed_hostnames: readonly string[];
  /** IPs, CIDRs (v4 and v6) and the keywords loopback/private/linklocal. Bad entries are ignored. */
  excluded_ips: readonly string[];
  /** Path globs: `*` matches within one segment, `**` across segments; the whole path must match. */
  excluded_paths: readonly string[];
  /** The property's IANA timezone. Rows are UTC; kept here so callers pass one settings object. */
  timezone?: string;
}

export interface PropertyRules {
  hostAllowed(host: string): boolean;
  /** The referrer host is this site: the page's own host or any allowed hostname. */
  isInternalHost(referrerHost: string, pageHost: string): boolean;
  ipExcluded(ip: string): boolean;
  pathExcluded(path: string): boolean;
}

/** Owners type "https://Example.com:8080/" as readily as "example.com". */
function normaliseHostEntry(entry: string): string {
  return entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "");
}

function compile(settings: EnrichPropertySettings): PropertyRules {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const raw of settings.allowed_hostnames) {
    const entry = normaliseHostEntry(raw);
    if (entry.startsWith("*.")) suffixes.push(entry.slice(1));
    else if (entry !== "") exact.add(stripWww(entry));
  }
  const listed = (host: string) => exact.has(stripWww(host)) || suffixes.some((s) => host.endsWith(s));
  const anyListed = exact.size > 0 || suffixes.length > 0;
  const ips = compileIpList(settings.excluded_ips).matches;
  const paths = settings.excluded_paths
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map(compileGlob);
  return {
    hostAllowed: (host) => !anyListed || listed(host),
    isInternalHost: (ref, page) => stripWww(ref) === stripWww(page) || (anyListed && listed(ref)),
    ipExcluded: (ip) => ip !== "" && ips(ip),
    pathExcluded: (path) => paths.some((matches) => matches(path)),
  };
}

const cache = new WeakMap<EnrichPropertySettings, PropertyRules>();

/** Compiled rules, cached per settings object: pass the same object for the same property. */
export function rulesFor(settings: EnrichPropertySettings): PropertyRules {
  let rules = cache.get(settings);
  if (rules === undefined) {
    rules = compile(settings);
    cache.set(settings, rules);
  }
  return rules;
}
