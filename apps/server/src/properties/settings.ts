// A property's collection settings as the API takes them and as the collector applies them: the
// excluded IPs and CIDR ranges parsed by Node (net.isIP, net.SocketAddress, net.BlockList), the
// path patterns and hostnames by the shared schemas (@lookout/schema property-admin.ts). The
// collector reads stored settings through `effectiveSettings`, the same parsers, so what the API
// accepted is exactly what is matched, and an entry stored before validation existed (or by
// hand) that is not valid is ignored rather than half-applied.
import { BlockList, isIP, SocketAddress } from "node:net";
import {
  AccountIdSchema,
  AllowedHostnamesSchema,
  ExcludedPathsSchema,
  entryListSchema,
  PropertyFormSchema,
  PropertyNameSchema,
  PropertyTimezoneSchema,
  PropertyWebsiteSchema,
  parseHostnameEntry,
  pathEntryProblem,
} from "@lookout/schema";
import type { PropertySettings } from "@lookout/storage";
import { z } from "zod";

/** Names the collector's matcher (@lookout/ingest ip.ts) expands to their standard ranges. */
const IP_KEYWORDS = new Set(["loopback", "private", "linklocal"]);

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/;

/**
 * An excluded address in its stored form: an IP ("203.0.113.7", "2001:db8::1"), a CIDR range
 * ("203.0.113.0/24", "2001:db8::/32") or a keyword (loopback, private, linklocal); or what is
 * wrong with it. IPv6 is written the one canonical way; an IPv4-mapped IPv6 address becomes
 * IPv4, as the collector sees such clients as IPv4.
 */
export function parseIpEntry(raw: string): string | { problem: string } {
  const entry = raw.trim().toLowerCase();
  if (IP_KEYWORDS.has(entry)) return entry;
  const parts = entry.split("/");
  const [addr = "", prefixText] = parts;
  const bad = { problem: "is not an IP address or CIDR range (203.0.113.7, 203.0.113.0/24, 2001:db8::/32)" };
  if (parts.length > 2 || addr.includes("%")) return bad;
  const version = isIP(addr);
  if (version === 0) return bad;
  let family: "ipv4" | "ipv6" = version === 4 ? "ipv4" : "ipv6";
  let address = new SocketAddress({ address: addr, family }).address;
  let shift = 0;
  const mapped = family === "ipv6" ? MAPPED_V4.exec(address) : null;
  if (mapped?.[1]) {
    address = mapped[1];
    family = "ipv4";
    shift = 96;
  }
  if (prefixText === undefined) return address;
  if (!/^\d{1,3}$/.test(prefixText)) return { problem: "has a prefix length that is not a number" };
  const prefix = Number(prefixText) - shift;
  const max = family === "ipv4" ? 32 : 128;
  if (prefix < 0 || prefix > max) {
    return { problem: `has a prefix length out of range (0 to ${max} for ${family === "ipv4" ? "IPv4" : "IPv6"})` };
  }
  try {
    // Node's own check of the range (it throws on a prefix its family cannot have).
    new BlockList().addSubnet(address, prefix, family);
  } catch {
    return bad;
  }
  return `${address}/${prefix}`;
}

export const ExcludedIpsSchema = entryListSchema("addresses", parseIpEntry);

/** PATCH's `settings`: each field optional; the lists replace the stored ones whole. */
export const SettingsPatchSchema = z.object({
  cookieless: z.boolean().optional(),
  excluded_ips: ExcludedIpsSchema.optional(),
  excluded_paths: ExcludedPathsSchema.optional(),
  allowed_hostnames: AllowedHostnamesSchema.optional(),
});
export type SettingsPatch = z.output<typeof SettingsPatchSchema>;

export const CreatePropertyBodySchema = z.object({
  accountId: AccountIdSchema.describe("The account that owns the new property."),
  ...PropertyFormSchema.shape,
});
export type CreatePropertyBody = z.output<typeof CreatePropertyBodySchema>;

export const UpdatePropertyBodySchema = z.object({
  name: PropertyNameSchema.optional(),
  website_url: PropertyWebsiteSchema.optional(),
  timezone: PropertyTimezoneSchema.optional(),
  settings: SettingsPatchSchema.optional(),
});
export type UpdatePropertyBody = z.output<typeof UpdatePropertyBodySchema>;

function keepValid(entries: readonly string[] | undefined, parse: (e: string) => string | null): string[] {
  const out: string[] = [];
  for (const e of entries ?? []) {
    const v = parse(e);
    if (v !== null && !out.includes(v)) out.push(v);
  }
  return out;
}

/** The stored settings in the form the collector applies: every entry re-parsed, invalid ones left out. */
export function effectiveSettings(s: Partial<PropertySettings>): {
  cookieless: boolean;
  excluded_ips: string[];
  excluded_paths: string[];
  allowed_hostnames: string[];
} {
  return {
    cookieless: s.cookieless === true,
    excluded_ips: keepValid(s.excluded_ips, (e) => {
      const r = parseIpEntry(e);
      return typeof r === "string" ? r : null;
    }),
    excluded_paths: keepValid(s.excluded_paths, (e) => (pathEntryProblem(e) === null ? e.trim() : null)),
    allowed_hostnames: keepValid(s.allowed_hostnames, parseHostnameEntry),
  };
}
