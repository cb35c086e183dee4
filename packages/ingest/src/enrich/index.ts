// Enrichment: a parsed collector body plus what the connection says (IP, user agent, arrival
// time) and the property's settings -> one fully populated EventRow, or the reason it is dropped.
// The property lookup, buffering and storage belong to the server; this is the pure middle.
import type { EventRow, TrackerEvent, VisitorProfile } from "@lookout/schema";
import { screenClass } from "@lookout/schema";
import { DailySalts, type SaltStore } from "../identity/salts.js";
import { createSessionizer, type Sessionizer } from "../identity/sessionizer.js";
import { VisitorIds } from "../identity/visitor-id.js";
import { channelFor } from "./channel.js";
import { createGeoLookup, type GeoLookup } from "./geo.js";
import { parseReferrer, sourceFor } from "./referrer.js";
import { type EnrichPropertySettings, rulesFor } from "./rules.js";
import { createUaParser, MAX_USER_AGENT_LENGTH, type UaInfo } from "./ua.js";
import { parsePageUrl } from "./url.js";

export type DropReason = "bot" | "excluded_ip" | "excluded_path" | "hostname_not_allowed";

export type EnrichResult =
  | { ok: true; row: EventRow /** Present for `identify`: upsert it into the visitors table. */; profile?: VisitorProfile }
  | { ok: false; reason: DropReason };

export interface EnrichContext {
  /** The resolved client IP (see resolveClientIp); used for geo, exclusion and hashing, never stored. */
  ip: string;
  userAgent: string;
  /** Arrival time: the row's ts. Clients do not choose when their events happened. */
  now: Date;
  property: EnrichPropertySettings;
}

export interface EnricherDeps {
  /** Where daily cookieless salts live (the server passes its metadata-store repository). */
  saltStore: SaltStore;
  geo?: GeoLookup;
  sessions?: Sessionizer;
  parseUa?: (userAgent: string) => UaInfo;
}

export interface Enricher {
  enrich(body: TrackerEvent, ctx: EnrichContext): Promise<EnrichResult>;
  readonly geo: GeoLookup;
  readonly sessions: Sessionizer;
}

const stringMap = (m: Record<string, string | number | boolean> | undefined): Record<string, string> =>
  m === undefined ? {} : Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)]));

export function createEnricher(deps: EnricherDeps): Enricher {
  const geo = deps.geo ?? createGeoLookup();
  const sessions = deps.sessions ?? createSessionizer();
  const parseUa = deps.parseUa ?? createUaParser();
  const visitors = new VisitorIds(new DailySalts(deps.saltStore));

  async function enrich(body: TrackerEvent, ctx: EnrichContext): Promise<EnrichResult> {
    const userAgent = ctx.userAgent.slice(0, MAX_USER_AGENT_LENGTH);
    const ua = parseUa(userAgent);
    if (ua.bot) return { ok: false, reason: "bot" };
    const rules = rulesFor(ctx.property);
    if (rules.ipExcluded(ctx.ip)) return { ok: false, reason: "excluded_ip" };
    const page = parsePageUrl(body.url, body.hash);
    if (!rules.hostAllowed(page.host)) return { ok: false, reason: "hostname_not_allowed" };
    if (rules.pathExcluded(page.path)) return { ok: false, reason: "excluded_path" };

    const ref = parseReferrer(body.referrer, (host) => rules.isInternalHost(host, page.host));
    const { source, kind } = sourceFor(ref.host, page.sourceTag);
    const channel = channelFor({ kind, source, utmMedium: page.utm.medium, paidClickId: page.paidClickId });
    const property = ctx.property.unique_id;
    const [location, who] = await Promise.all([
      geo.lookup(ctx.ip),
      visitors.resolve({
        property,
        clientId: body.client_id,
        cookieless: ctx.property.cookieless,
        ip: ctx.ip,
        userAgent,
        now: ctx.now,
      }),
    ]);
    const isIdentify = body.name === "identify";
    // In-process the answer is at hand: no extra tick per event; with Redis, a round trip.
    const assigned = sessions.assign(property, who.visitor_id, ctx.now);
    const sessionId = typeof assigned === "string" ? assigned : await assigned;

    const row: EventRow = {
      property,
      ts: ctx.now,
      name: body.name,
      visitor_id: who.visitor_id,
      session_id: sessionId,
      client_id: who.client_id,
      hostname: page.hostname,
      path: page.path,
      url: page.url,
      title: body.title ?? "",
      referrer: ref.referrer,
      referrer_source: source,
      channel,
      utm_source: page.utm.source,
      utm_medium: page.utm.medium,
      utm_campaign: page.utm.campaign,
      utm_term: page.utm.term,
      utm_content: page.utm.content,
      country: location.country,
      region: location.region,
      city: location.city,
      browser: ua.browser,
      browser_version: ua.browser_version,
      os: ua.os,
      os_version: ua.os_version,
      device: ua.device,
      screen: screenClass(body.screen_width),
      language: body.language ?? "",
      // Traits describe the person, not the event: they go to the profile only.
      props: isIdentify ? {} : stringMap(body.props),
      revenue: body.revenue?.amount ?? 0,
      revenue_currency: body.revenue?.currency ?? "",
      engaged_ms: body.engaged_ms ?? 0,
    };
    if (!isIdentify || body.email === undefined) return { ok: true, row };

    const traits = stringMap(body.traits);
    const profile: VisitorProfile = {
      property,
      client_id: who.client_id,
      email: body.email,
      name: traits.name ?? "",
      traits,
      first_seen: ctx.now,
      last_seen: ctx.now,
    };
    return { ok: true, row, profile };
  }

  return { enrich, geo, sessions };
}
