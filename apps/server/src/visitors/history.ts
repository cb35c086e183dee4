// A visitor's history, one visit at a time: the person's visits newest first (optionally one
// event name and a range of local days), each with its events and their time on page from the
// engagement pings; a cursor continues after the page's last visit.
import {
  addDays,
  formatDay,
  historyEventsSql,
  historyVisitsFromVisitsSql,
  historyVisitsSql,
  mapOf,
  parseDay,
  startOfDay,
  type Who,
} from "@lookout/query";
import {
  VISITOR_LIMITS as L,
  type Visit,
  type VisitorEvent,
  type VisitorHistoryAnswer,
  type VisitorHistoryQuery,
} from "@lookout/schema";
import { DomainError } from "../http/domain-errors.js";
import { decodeCursor, encodeCursor, HistoryCursorSchema } from "./cursor.js";
import { iso, notFound, num, str, type VisitorReads } from "./reading.js";

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

export async function visitorHistory(v: VisitorReads, clientId: string, q: VisitorHistoryQuery): Promise<VisitorHistoryAnswer> {
  const { d, pid } = v;
  const after = q.cursor ? decodeCursor(HistoryCursorSchema, q.cursor) : undefined;
  const tz = v.site.timezone;
  const fromDay = q.from === undefined ? undefined : day("from", q.from);
  const toDay = q.to === undefined ? undefined : day("to", q.to);
  const from = fromDay ? startOfDay(tz, fromDay) : undefined;
  const to = toDay ? startOfDay(tz, addDays(toDay, 1)) : undefined;
  if (from !== undefined && to !== undefined && from >= to) {
    throw new DomainError("invalid_parameter", "to: must not be before from", { param: "to" });
  }
  const { ids, own } = await v.person(clientId);
  const { who, events: n } = await v.located(ids);
  // The person's other ids have events only if this one is known: no events here and no profile is a 404.
  if (n === 0 && !own) throw notFound();
  const range = {
    ...(q.event !== undefined ? { event: q.event } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
  const position = after ? { after: { ts: after.ts, session_id: after.session_id } } : {};
  const visitRows = await v.run(
    v.fast({ read: "history", options: range })
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
  const eventRows = sids.length === 0 ? [] : await v.run(historyEventsSql(d, pid, pageSpan, sids, range, L.pingsPerVisit));
  const bySession = new Map<string, { events: VisitorEvent[]; times: number[] }>();
  const pings = new Map<string, { ts: number; ms: number }[]>();
  for (const r of eventRows) {
    const sid = str(r.session_id);
    if (num(r.ping) === 1) {
      const list = pings.get(sid) ?? [];
      pings.set(sid, list);
      list.push({ ts: num(r.ts_ms), ms: num(r.engaged_ms) });
    }
    if (num(r.shown) !== 1) continue;
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
  const results: Visit[] = page.map((r) => {
    const sid = str(r.session_id);
    const read = bySession.get(sid) ?? { events: [], times: [] };
    // The read takes up to pingsPerVisit events of a visit, the page shows eventsPerVisit (events_total
    // says how many): the last one shown ends its time on page at the next pageview, shown or not.
    timeOnPage(read.events, pings.get(sid) ?? [], read.times);
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
      events: read.events.slice(0, L.eventsPerVisit),
      events_total: num(r.events_total),
    };
  });
  const last = page[page.length - 1];
  const next_cursor =
    visitRows.length > q.limit && last
      ? encodeCursor({ k: "h", ts: num(last.start_ms), session_id: str(last.session_id) })
      : null;
  return { results, next_cursor };
}
