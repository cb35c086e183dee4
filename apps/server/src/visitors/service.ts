// The visitors domain (issue #21, DESIGN.md §4, §5): the visitors list (and its CSV), one
// visitor's page (profile, figures, facets, activity, "also seen as"), their history by visit,
// and a visitor's deletion and export. Reads run the @lookout/query visitor statements through
// EventStore.query, so every engine answers the same SQL; the planner (visitors-plan.ts) picks
// the per-visitor tables where they answer, the events table otherwise.
//
// A person is the client id asked for plus every client id identified with the same e-mail
// (case-insensitive): figures and history merge them. Deletion and export act on the one client
// id asked for (a request names the id it is about), each audited.
// No HTTP here: the caller (routes.ts) has authorized the actor already.
import {
  activeDaysFromVisitsSql,
  activeDaysSql,
  addDays,
  addMonths,
  type CompiledQuery,
  facetsFromVisitsSql,
  facetsSql,
  figuresFromVisitsSql,
  figuresSql,
  firstSourceFromVisitsSql,
  firstSourceSql,
  formatDay,
  historyEventsSql,
  historyPingsSql,
  historyVisitsFromVisitsSql,
  historyVisitsSql,
  localDay,
  mapOf,
  parseDay,
  perClientFromSummarySql,
  perClientSql,
  personIdsSql,
  planVisitorRead,
  profilesSql,
  spanFromSummarySql,
  spanSql,
  startOfDay,
  topEventsFromVisitsSql,
  topEventsSql,
  topPagesFromVisitsSql,
  topPagesSql,
  VISITOR_FACETS,
  type VisitorSource,
  visitorEventsSql,
  visitorListFromSummarySql,
  visitorListSql,
  type Who,
} from "@lookout/query";
import {
  csvLine,
  type Facet,
  VISITOR_LIMITS as L,
  type Visit,
  type VisitorDetail,
  type VisitorEvent,
  type VisitorExport,
  type VisitorHistoryAnswer,
  type VisitorHistoryQuery,
  type VisitorListAnswer,
  type VisitorListQuery,
  type VisitorSummary,
} from "@lookout/schema";
import { type EventStore, type MetaStore, type PropertyRow, QueryTimeoutError } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import type { Presence } from "../live/presence.js";
import { decodeCursor, encodeCursor, HistoryCursorSchema, ListCursorSchema } from "./cursor.js";

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const iso = (ms: unknown) => new Date(num(ms)).toISOString();

/** The list CSV's columns, in order. */
export const VISITOR_CSV_COLUMNS = [
  "client_id",
  "email",
  "name",
  "country",
  "region",
  "city",
  "first_seen",
  "last_seen",
  "visits",
  "pageviews",
  "events",
  "revenue",
] as const satisfies readonly (keyof VisitorSummary)[];

interface Profile {
  client_id: string;
  email: string;
  name: string;
  traits: Record<string, string>;
  first_seen_ms: number;
  last_seen_ms: number;
}

const toProfile = (r: Row): Profile => ({
  client_id: str(r.client_id),
  email: str(r.email),
  name: str(r.name),
  traits: mapOf(r, "traits"),
  first_seen_ms: num(r.first_seen_ms),
  last_seen_ms: num(r.last_seen_ms),
});

const notFound = () => new DomainError("not_found", "Visitor not found.");

/** "YYYY-MM-DD" as a day, or a 400 naming the parameter. */
function day(param: "from" | "to", s: string) {
  const d = parseDay(s);
  // parseDay reads the fields as given: 2024-02-30 must not pass as March 1st.
  if (formatDay(d) !== s || new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) !== s)
    throw new DomainError("invalid_parameter", `${param}: is not a date`, { param });
  return d;
}

/** Time on page: the engagement pings of the visit from a pageview until the next one (null without any). */
function timeOnPage(events: VisitorEvent[], pings: { ts: number; ms: number }[], times: number[]): void {
  const pageviews = events.map((e, i) => ({ e, i, ts: times[i] as number })).filter((x) => x.e.name === "pageview");
  pageviews.forEach((pv, j) => {
    const until = pageviews[j + 1]?.ts ?? Number.POSITIVE_INFINITY;
    const mine = pings.filter((p) => p.ts >= pv.ts && p.ts < until);
    // No ping: the time is unknown (the tab closed first, or pings were off), not zero.
    pv.e.time_on_page_seconds = mine.length === 0 ? null : Math.round(mine.reduce((a, p) => a + p.ms, 0) / 1000);
  });
}

/** The property fields the visitors domain reads. */
type Site = Pick<PropertyRow, "unique_id" | "timezone" | "account_id">;

export interface VisitorServiceDeps {
  events: EventStore;
  /** Audit lines of deletions and exports. */
  meta: Pick<MetaStore, "audit">;
  /** Who is online now. */
  presence: Pick<Presence, "list">;
  now?: () => number;
  /**
   * Which tables answer (@lookout/query visitors-plan.ts): "auto" (the default) lets the planner
   * choose the per-visitor tables where they can; "events" reads the events table only (the model
   * tests compare the two).
   */
  source?: VisitorSource | "auto";
}

export function createVisitorService(deps: VisitorServiceDeps) {
  const { events, meta, presence } = deps;
  const now = deps.now ?? Date.now;
  const d = events.dialect;
  // Every EventStore keeps the per-visitor tables (visitor-tables.ts in @lookout/storage).
  const ctx = { tables: true, source: deps.source ?? "auto" } as const;
  const fast = (r: Parameters<typeof planVisitorRead>[0]) => planVisitorRead(r, ctx) === "tables";

  async function run(q: CompiledQuery): Promise<Row[]> {
    try {
      return await events.query<Row>(q);
    } catch (err) {
      if (QueryTimeoutError.from(err)) {
        throw new DomainError(
          "query_timeout",
          "This visitor's data took too long to read and the query was cancelled; try again later.",
        );
      }
      throw err;
    }
  }

  async function profiles(property: string, ids: readonly string[]): Promise<Map<string, Profile>> {
    const out = new Map<string, Profile>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await run(profilesSql(d, property, ids.slice(i, i + 500)))) out.set(str(r.client_id), toProfile(r));
    }
    return out;
  }

  /** The person of a client id: it first, then the others identified with its e-mail; 404 when unknown. */
  async function person(property: string, clientId: string): Promise<{ ids: string[]; own: Profile | null }> {
    const own = (await profiles(property, [clientId])).get(clientId) ?? null;
    const ids = [clientId];
    if (own?.email) {
      for (const r of await run(personIdsSql(d, property, own.email, L.personIds))) {
        const id = str(r.client_id);
        if (!ids.includes(id)) ids.push(id);
      }
    }
    return { ids, own };
  }

  /**
   * The person's ids with where their events lie (one scan; every later read of the page skips
   * the blocks outside it), or just the ids when they have no events.
   */
  async function located(property: string, ids: readonly string[]): Promise<{ who: Who; events: number }> {
    const r = (await run(fast({ read: "page" }) ? spanFromSummarySql(d, property, ids) : spanSql(d, property, ids)))[0];
    const n = num(r?.n);
    return n === 0 ? { who: ids, events: 0 } : { who: { ids, span: { from: num(r?.first_ms), to: num(r?.last_ms) } }, events: n };
  }

  /** Whether the client id has events or a profile (else: 404, like a foreign id). */
  async function known(property: string, clientId: string, own: Profile | null): Promise<boolean> {
    return own !== null || (await located(property, [clientId])).events > 0;
  }

  function summary(r: Row, p: Profile | undefined): VisitorSummary {
    return {
      client_id: str(r.client_id),
      email: p?.email ?? "",
      name: p?.name ?? "",
      identified: Boolean(p?.email),
      country: str(r.a_country),
      region: str(r.a_region),
      city: str(r.a_city),
      device: str(r.a_device),
      browser: str(r.a_browser),
      os: str(r.a_os),
      first_seen: iso(r.first_ms),
      last_seen: iso(r.last_ms),
      visits: num(r.visits),
      pageviews: num(r.pageviews),
      events: num(r.events),
      revenue: num(r.a_revenue),
    };
  }

  async function listRows(property: Site, q: Omit<VisitorListQuery, "limit">, limit: number) {
    const after = q.cursor ? decodeCursor(ListCursorSchema, q.cursor) : undefined;
    if (after && after.order !== q.order) {
      throw new DomainError("invalid_parameter", "cursor: belongs to another order; start again without it.", {
        param: "cursor",
      });
    }
    const options = {
      ...(q.search ? { search: q.search } : {}),
      order: q.order,
      identified: q.identified,
      ...(after ? { after: { key: after.key, client_id: after.client_id } } : {}),
      limit,
    };
    const list = fast({ read: "list" }) ? visitorListFromSummarySql : visitorListSql;
    const rows = await run(list(d, property.unique_id, options));
    const page = rows.slice(0, limit);
    const found = await profiles(
      property.unique_id,
      page.map((r) => str(r.client_id)),
    );
    const last = page[page.length - 1];
    const next =
      rows.length > limit && last
        ? encodeCursor({ k: "l", order: q.order, key: num(last.sort_key), client_id: str(last.client_id) })
        : null;
    return { results: page.map((r) => summary(r, found.get(str(r.client_id)))), next_cursor: next };
  }

  return {
    list(property: Site, q: VisitorListQuery): Promise<VisitorListAnswer> {
      return listRows(property, q, q.limit);
    },

    /** The list as CSV (at most VISITOR_LIMITS.csvRows visitors, in the list's order). */
    async csv(property: Site, q: Omit<VisitorListQuery, "cursor" | "limit">): Promise<string> {
      const { results } = await listRows(property, { ...q, cursor: undefined }, L.csvRows);
      return [VISITOR_CSV_COLUMNS, ...results.map((v) => VISITOR_CSV_COLUMNS.map((c) => v[c]))].map(csvLine).join("");
    },

    async detail(property: Site, clientId: string): Promise<VisitorDetail> {
      const pid = property.unique_id;
      const { ids, own } = await person(pid, clientId);
      const tz = property.timezone;
      const t = now();
      const today = localDay(tz, t);
      const from = startOfDay(tz, addDays(addMonths(today, -12), 1));
      const to = startOfDay(tz, addDays(today, 1));
      const { who, events: n } = await located(pid, ids);
      if (n === 0 && !own) throw notFound();
      const v = fast({ read: "page" });
      const [fig, facets, clients, first, days, pages, evs, profs] = await Promise.all([
        run(v ? figuresFromVisitsSql(d, pid, who) : figuresSql(d, pid, who)),
        run(v ? facetsFromVisitsSql(d, pid, who) : facetsSql(d, pid, who)),
        run(v ? perClientFromSummarySql(d, pid, ids) : perClientSql(d, pid, who)),
        run(v ? firstSourceFromVisitsSql(d, pid, who) : firstSourceSql(d, pid, who)),
        run(v ? activeDaysFromVisitsSql(d, pid, who, tz, from, to) : activeDaysSql(d, pid, who, tz, from, to)),
        run(v ? topPagesFromVisitsSql(d, pid, who, L.top) : topPagesSql(d, pid, who, L.top)),
        run(v ? topEventsFromVisitsSql(d, pid, who, L.top) : topEventsSql(d, pid, who, L.top)),
        profiles(pid, ids),
      ]);
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
        also_seen_as: clients
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
    },

    async history(property: Site, clientId: string, q: VisitorHistoryQuery): Promise<VisitorHistoryAnswer> {
      const pid = property.unique_id;
      const after = q.cursor ? decodeCursor(HistoryCursorSchema, q.cursor) : undefined;
      const tz = property.timezone;
      const fromDay = q.from === undefined ? undefined : day("from", q.from);
      const toDay = q.to === undefined ? undefined : day("to", q.to);
      const from = fromDay ? startOfDay(tz, fromDay) : undefined;
      const to = toDay ? startOfDay(tz, addDays(toDay, 1)) : undefined;
      if (from !== undefined && to !== undefined && from >= to) {
        throw new DomainError("invalid_parameter", "to: must not be before from", { param: "to" });
      }
      const { ids, own } = await person(pid, clientId);
      const { who, events: n } = await located(pid, ids);
      // The person's other ids have events only if this one is known: no events here and no profile is a 404.
      if (n === 0 && !own) throw notFound();
      const range = {
        ...(q.event !== undefined ? { event: q.event } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
      };
      const position = after ? { after: { ts: after.ts, session_id: after.session_id } } : {};
      const visitRows = await run(
        fast({ read: "history", options: range })
          ? historyVisitsFromVisitsSql(d, pid, who, { ...position, limit: q.limit })
          : historyVisitsSql(d, pid, who, { ...range, ...position, limit: q.limit }),
      );
      const page = visitRows.slice(0, q.limit);
      const sids = page.map((r) => str(r.session_id));
      // The shown visits' events lie between the first start and the last end of the page.
      const pageSpan: Who = {
        ids,
        span: { from: Math.min(...page.map((r) => num(r.start_ms))), to: Math.max(...page.map((r) => num(r.end_ms))) },
      };
      const [eventRows, pingRows] =
        sids.length === 0
          ? [[], []]
          : await Promise.all([
              run(historyEventsSql(d, pid, pageSpan, sids, range, L.eventsPerVisit)),
              run(historyPingsSql(d, pid, pageSpan, sids, 20_000)),
            ]);
      const bySession = new Map<string, { events: VisitorEvent[]; times: number[] }>();
      for (const r of eventRows) {
        const sid = str(r.session_id);
        const entry = bySession.get(sid) ?? { events: [], times: [] };
        bySession.set(sid, entry);
        entry.times.push(num(r.ts_ms));
        entry.events.push({
          ts: iso(r.ts_ms),
          name: str(r.name),
          path: str(r.path),
          url: str(r.url),
          title: str(r.title),
          props: mapOf(r, "props"),
          revenue: num(r.revenue),
          revenue_currency: str(r.revenue_currency),
          session_id: sid,
          client_id: str(r.client_id),
          time_on_page_seconds: null,
        });
      }
      const pings = new Map<string, { ts: number; ms: number }[]>();
      for (const r of pingRows) {
        const sid = str(r.session_id);
        const list = pings.get(sid) ?? [];
        pings.set(sid, list);
        list.push({ ts: num(r.ts_ms), ms: num(r.engaged_ms) });
      }
      const results: Visit[] = page.map((r) => {
        const sid = str(r.session_id);
        const shown = bySession.get(sid) ?? { events: [], times: [] };
        timeOnPage(shown.events, pings.get(sid) ?? [], shown.times);
        return {
          session_id: sid,
          client_id: str(r.a_client_id),
          start: iso(r.start_ms),
          end: iso(r.end_ms),
          duration_seconds: (num(r.end_ms) - num(r.start_ms)) / 1000,
          engaged_seconds: Math.round(num(r.a_engaged_ms) / 1000),
          pageviews: num(r.pageviews),
          entry_page: str(r.entry_page),
          entry_source: str(r.entry_source),
          channel: str(r.a_channel),
          device: str(r.a_device),
          browser: str(r.a_browser),
          os: str(r.a_os),
          country: str(r.a_country),
          region: str(r.a_region),
          city: str(r.a_city),
          events: shown.events,
          events_total: num(r.events_total),
        };
      });
      const last = page[page.length - 1];
      const next_cursor =
        visitRows.length > q.limit && last
          ? encodeCursor({ k: "h", ts: num(last.start_ms), session_id: str(last.session_id) })
          : null;
      return { results, next_cursor };
    },

    /** Deletes this client id's events and profile (not the person's other ids); audited. */
    async remove(actor: Actor, property: Site, clientId: string): Promise<{ deleted_events: number }> {
      const own = (await profiles(property.unique_id, [clientId])).get(clientId) ?? null;
      if (!(await known(property.unique_id, clientId, own))) throw notFound();
      const deleted = await events.deleteVisitor(property.unique_id, clientId);
      await meta.audit.record({
        action: "visitor.delete",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, client_id: clientId, deleted_events: deleted },
      });
      return { deleted_events: deleted };
    },

    /** This client id's profile and events, oldest first (bounded); audited. */
    async export(actor: Actor, property: Site, clientId: string): Promise<VisitorExport> {
      const pid = property.unique_id;
      const own = (await profiles(pid, [clientId])).get(clientId) ?? null;
      const rows = await run(visitorEventsSql(d, pid, clientId, L.exportEvents + 1));
      if (!own && rows.length === 0) throw notFound();
      await meta.audit.record({
        action: "visitor.export",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: pid, client_id: clientId, events: Math.min(rows.length, L.exportEvents) },
      });
      return {
        exported_at: new Date(now()).toISOString(),
        property: pid,
        client_id: clientId,
        profile: own
          ? {
              email: own.email,
              name: own.name,
              traits: own.traits,
              first_seen: iso(own.first_seen_ms),
              last_seen: iso(own.last_seen_ms),
            }
          : null,
        events: rows.slice(0, L.exportEvents).map((r) => {
          const { ts_ms, props, props_keys, props_values, ...rest } = r;
          return { ts: iso(ts_ms), ...rest, props: mapOf(r, "props") };
        }),
        truncated: rows.length > L.exportEvents,
      };
    },
  };
}
