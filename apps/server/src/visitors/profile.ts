// One visitor's page: the person (the client id and the ids identified with its e-mail), their
// figures, facets, first source, active days, top pages and events, the other devices they were
// "also seen as", and whether they are online now. Reads in parallel, each through the account's
// fair queue (reading.ts).
import {
  activeDaysSql,
  addDays,
  addMonths,
  facetsSql,
  figuresSql,
  firstSourceSql,
  localDay,
  PANEL_VISIT_ROWS,
  perClientSql,
  startOfDay,
  topEventsSql,
  topPagesSql,
  VISITOR_FACETS,
  VISITOR_PANELS,
  visitorPanels,
  visitRowsSql,
} from "@lookout/query";
import { type Facet, VISITOR_LIMITS as L, type VisitorDetail } from "@lookout/schema";
import type { Presence } from "../live/presence.js";
import { iso, notFound, num, type Row, str, type VisitorReads } from "./reading.js";

export async function visitorDetail(
  v: VisitorReads,
  clientId: string,
  presence: Pick<Presence, "list">,
  now: () => number,
): Promise<VisitorDetail> {
  const { d, pid } = v;
  const { ids, own, profiles: profs } = await v.person(clientId);
  const tz = v.site.timezone;
  const t = now();
  const today = localDay(tz, t);
  const from = startOfDay(tz, addDays(addMonths(today, -12), 1));
  const to = startOfDay(tz, addDays(today, 1));
  const { who, events: n, clients: summarized } = await v.located(ids);
  if (n === 0 && !own) throw notFound();
  const tables = v.fast({ read: "page" });
  const fromEvents = () =>
    Promise.all([
      v.run(figuresSql(d, pid, who)),
      v.run(facetsSql(d, pid, who)),
      v.run(firstSourceSql(d, pid, who)),
      v.run(activeDaysSql(d, pid, who, tz, from, to)),
      v.run(topPagesSql(d, pid, who, L.top)),
      v.run(topEventsSql(d, pid, who, L.top)),
    ]);
  const [panels, clients] = await Promise.all([
    tables
      ? // One read of the person's visit rows, the panels folded from them (visitors-panels.ts says why).
        v.run(visitRowsSql(d, pid, who)).then((rows) => {
          if (rows.length > PANEL_VISIT_ROWS) return fromEvents();
          const p = visitorPanels(rows, tz, from, to, L.top);
          return VISITOR_PANELS.map((k) => p[k]) as [Row[], Row[], Row[], Row[], Row[], Row[]];
        })
      : fromEvents(),
    // From the summaries, located() has read them already.
    summarized ?? v.run(perClientSql(d, pid, who)),
  ]);
  const [fig, facets, first, days, pages, evs] = panels;
  const f = fig[0] ?? {};
  const visits = num(f.visits);
  if (visits === 0 && !own) throw notFound();
  const facet = (name: (typeof VISITOR_FACETS)[number]): Facet[] => {
    const i = VISITOR_FACETS.indexOf(name);
    return facets
      .filter((r) => num(r.facet) === i)
      .slice(0, L.top)
      .map((r) => ({ value: str(r.value), visits: num(r.visits) }));
  };
  const src = first[0];
  // Traits of the person: the other ids' first, the asked-for id's last (it wins on a clash).
  const traits: Record<string, string> = {};
  for (const id of [...ids].reverse()) Object.assign(traits, profs.get(id)?.traits ?? {});
  const live = new Set(presence.list([pid]).map((v) => v.clientid));
  const firstMs = visits > 0 ? num(f.first_ms) : (own?.first_seen_ms ?? 0);
  const lastMs = visits > 0 ? num(f.last_ms) : (own?.last_seen_ms ?? 0);
  return {
    client_id: clientId,
    email: own?.email ?? "",
    name: own?.name ?? "",
    identified: Boolean(own?.email),
    traits,
    first_seen: iso(firstMs),
    last_seen: iso(lastMs),
    visits,
    pageviews: num(f.pageviews),
    events: num(f.events),
    engaged_seconds: Math.round(num(f.engaged_ms) / 1000),
    avg_visit_seconds: Math.round(num(f.avg_visit_ms) / 100) / 10,
    revenue: num(f.revenue),
    revenue_currency: str(f.revenue_currency),
    country: str(f.country),
    region: str(f.region),
    city: str(f.city),
    devices: facet("device"),
    browsers: facet("browser"),
    oses: facet("os"),
    screens: facet("screen"),
    languages: facet("language"),
    countries: facet("country"),
    first_source: src
      ? {
          ts: iso(src.ts_ms),
          referrer: str(src.referrer),
          source: str(src.referrer_source),
          channel: str(src.channel),
          landing_page: str(src.path),
          utm_source: str(src.utm_source),
          utm_medium: str(src.utm_medium),
          utm_campaign: str(src.utm_campaign),
          utm_term: str(src.utm_term),
          utm_content: str(src.utm_content),
        }
      : null,
    // Last seen first, then by client id (perClientFromSummarySql answers in no order).
    also_seen_as: [...clients]
      .sort((a, b) => num(b.last_ms) - num(a.last_ms) || (str(a.client_id) < str(b.client_id) ? -1 : 1))
      .filter((r) => str(r.client_id) !== clientId)
      .map((r) => ({
        client_id: str(r.client_id),
        device: str(r.a_device),
        browser: str(r.a_browser),
        os: str(r.a_os),
        last_seen: iso(r.last_ms),
      })),
    online: ids.some((id) => live.has(id)),
    active_days: days.map((r) => ({ date: str(r.day), events: num(r.events) })),
    top_pages: pages.map((r) => ({ path: str(r.path), pageviews: num(r.pageviews) })),
    top_events: evs.map((r) => ({
      name: str(r.name),
      events: num(r.events),
      revenue: num(r.a_revenue),
      revenue_currency: str(r.a_currency),
    })),
  };
}
