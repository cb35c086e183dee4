// Client IP resolution and IP/CIDR matching (IPv4 and IPv6). The client IP comes from the socket
// peer, or from X-Forwarded-For only when the peer is a configured trusted proxy; the body never
// supplies it. The same matcher serves trusted proxies, a property's excluded IPs and geo's
// private-range check.
import { isIPv4, isIPv6 } from "node:net";
import { LruMap } from "../lru.js";

export type IpMatcher = (ip: string) => boolean;

interface Range {
  bytes: Uint8Array;
  prefix: number;
}

const KEYWORDS: Record<string, readonly string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
};

/** Ranges that never carry a routable client: geo reports them as unknown. */
const NON_PUBLIC = ["0.0.0.0/8", "::/128", ...Object.values(KEYWORDS).flat(), "224.0.0.0/4", "ff00::/8"];

function v4Bytes(s: string): Uint8Array {
  return Uint8Array.from(s.split("."), Number);
}

function v6Bytes(input: string): Uint8Array {
  let s = input;
  // An embedded dotted quad (::ffff:1.2.3.4) becomes the two hex groups it stands for.
  const dot = s.indexOf(".");
  if (dot >= 0) {
    const colon = s.lastIndexOf(":");
    const [a = 0, b = 0, c = 0, d = 0] = v4Bytes(s.slice(colon + 1));
    s = `${s.slice(0, colon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = s.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  const groups = [...headGroups, ...zeros, ...tailGroups];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = Number.parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  return out;
}

function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/** RFC 5952 text: lowercase, longest zero run compressed, so one address has one spelling. */
function formatV6(b: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] ?? 0) << 8) | (b[i + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}

/** Bytes of an address (4 for IPv4 and IPv4-mapped IPv6, 16 for IPv6), or null if it is not one. */
export function ipBytes(raw: string): Uint8Array | null {
  const ip = normalizeIp(raw);
  if (ip === null) return null;
  return isIPv4(ip) ? v4Bytes(ip) : v6Bytes(ip);
}

/**
 * Canonical text of an address, or null. Accepts what proxies and sockets produce: surrounding
 * spaces, `[v6]` and `[v6]:port`, `v4:port`, zone ids, and IPv4-mapped IPv6 (which becomes IPv4
 * so that one client has one address whichever stack it arrived on).
 */
export function normalizeIp(raw: string): string | null {
  let s = raw.trim();
  if (s.length === 0 || s.length > 64) return null;
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    if (end < 0) return null;
    s = s.slice(1, end);
  } else if (s.indexOf(":") === s.lastIndexOf(":") && s.includes(".")) {
    s = s.split(":")[0] ?? "";
  }
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (isIPv4(s)) return s;
  if (!isIPv6(s)) return null;
  const b = v6Bytes(s);
  return isV4Mapped(b) ? b.slice(12).join(".") : formatV6(b);
}

function parseRange(entry: string): Range | null {
  const [addr = "", prefixText, extra] = entry.trim().split("/");
  if (extra !== undefined) return null;
  const bytes = ipBytes(addr);
  if (bytes === null) return null;
  const max = bytes.length * 8;
  if (prefixText === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { bytes, prefix } : null;
}

function inRange(b: Uint8Array, r: Range): boolean {
  if (b.length !== r.bytes.length) return false;
  const whole = r.prefix >> 3;
  for (let i = 0; i < whole; i++) if (b[i] !== r.bytes[i]) return false;
  const bits = r.prefix & 7;
  if (bits === 0) return true;
  const mask = (0xff << (8 - bits)) & 0xff;
  return ((b[whole] ?? 0) & mask) === ((r.bytes[whole] ?? 0) & mask);
}

/**
 * Compiles a list of IPs, CIDRs and the keywords `loopback`, `private`, `linklocal` into a
 * matcher. Entries that are none of these are returned in `invalid` (and never match).
 */
export function compileIpList(entries: readonly string[]): { matches: IpMatcher; invalid: string[] } {
  const ranges: Range[] = [];
  const invalid: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    const expanded = KEYWORDS[entry] ?? [entry];
    for (const e of expanded) {
      const r = parseRange(e);
      if (r) ranges.push(r);
      else invalid.push(raw);
    }
  }
  const matches: IpMatcher = (ip) => {
    if (ranges.length === 0) return false;
    const b = ipBytes(ip);
    return b !== null && ranges.some((r) => inRange(b, r));
  };
  return { matches, invalid };
}

/**
 * Parses LOOKOUT_TRUSTED_PROXIES (comma- or space-separated IPs, CIDRs or keywords). A typo here
 * would silently trust or distrust proxies, so it throws naming the bad entries.
 */
export function parseTrustedProxies(value: string | undefined): IpMatcher {
  const { matches, invalid } = compileIpList((value ?? "").split(/[\s,]+/));
  if (invalid.length > 0) {
    throw new Error(`LOOKOUT_TRUSTED_PROXIES: not an IP, CIDR or keyword: ${invalid.join(", ")}`);
  }
  return matches;
}

const nonPublic = compileIpList(NON_PUBLIC).matches;

/** True for loopback, private, link-local, CGNAT, unspecified and multicast addresses. */
export function isNonPublicIp(ip: string): boolean {
  return nonPublic(ip);
}

// Every request's peer address is normalised, and the same few connect again and again (a client
// over keep-alive, or the proxies in front): their canonical text is remembered.
const peers = new LruMap<string, string | null>(10_000);

function canonicalPeer(raw: string): string | null {
  let ip = peers.get(raw);
  if (ip === undefined) {
    ip = normalizeIp(raw);
    peers.set(raw, ip);
  }
  return ip;
}

/**
 * The client's IP. Without a trusted peer, X-Forwarded-For is ignored (anyone can write it).
 * Behind trusted proxies the header is walked right to left, since each proxy appends the address
 * it saw: the first hop that is not itself trusted is the client. A malformed hop stops the walk
 * at the last address a trusted proxy vouched for. Returns "" only when the peer is unknown.
 */
export function resolveClientIp(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trusted: IpMatcher,
): string {
  let client = canonicalPeer(peer ?? "");
  if (client === null) return "";
  if (forwardedFor === undefined || !trusted(client)) return client;
  const hops = (typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")).split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] ?? "");
    if (hop === null) break;
    client = hop;
    if (!trusted(hop)) break;
  }
  return client;
}
