// The client's address, resolved one way for every route: the socket peer, or X-Forwarded-For
// only when the peer is a configured trusted proxy (LOOKOUT_TRUSTED_PROXIES: IPs, CIDRs and the
// keywords loopback, private, linklocal), walked right to left (@lookout/ingest resolveClientIp).
// Also the address a throttle counts. The collector's rate limits and enrichment and the sign-in
// and recovery throttles key on the same text.
import type { IncomingHttpHeaders } from "node:http";
import { compileIpList, ipBytes, resolveClientIp } from "@lookout/ingest";

/** What resolution reads of a request (a FastifyRequest is one). */
export interface ClientRequest {
  socket: { remoteAddress?: string };
  headers: IncomingHttpHeaders;
}

/** A request's client address: canonical text (IPv4-mapped IPv6 as IPv4), or "" if the peer is unknown. */
export type ClientIp = (req: ClientRequest) => string;

/**
 * Fastify's trustProxy for the same list (it decides req.protocol and req.host behind a proxy):
 * the same matcher, so the keywords the collector takes (private, say) work there too, where
 * Fastify's own parser refused them at start.
 */
export function trustedProxy(trustedProxies: readonly string[]): ((addr: string) => boolean) | false {
  if (trustedProxies.length === 0) return false;
  const trusted = compileIpList(trustedProxies).matches;
  return (addr) => trusted(addr);
}

/** The resolver for a list of trusted proxies (config.trustedProxies). */
export function clientIpResolver(trustedProxies: readonly string[]): ClientIp {
  const trusted = compileIpList(trustedProxies).matches;
  return (req) => resolveClientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], trusted);
}

/**
 * The address a throttle counts: an IPv4 address as is (also when IPv4-mapped), an IPv6 address
 * by its /64, which one host or home line usually holds whole and can rotate through freely.
 * Anything that is not an address (say "", an unknown peer) counts as itself.
 */
export function throttleAddress(ip: string): string {
  const b = ipBytes(ip);
  if (b === null) return ip;
  if (b.length === 4) return b.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push((((b[i] ?? 0) << 8) | (b[i + 1] ?? 0)).toString(16));
  return `${groups.join(":")}::/64`;
}
