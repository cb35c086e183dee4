// A visitor's page panels (figures, facets, first source, active days, top pages, top events) from
// one read of the person's visit rows, folded here. The rows of one person are few (a visit per
// row, a few hundred for a heavy visitor), and a statement that answered all six panels cost
// DuckDB more to bind and plan than to run: at 10M events a one-event visitor's panels statement
// took ~40 ms, of which binding, optimizing and planning ~18 ms and its many small hash tables
// most of the rest, for one row read (measured with DuckDB's detailed profile). On ClickHouse the
// six panels were six statements, each reading the rows again.
//
// The definitions are those of the statements over `events` in visitors.ts (figuresSql,
// facetsSql, firstSourceSql, activeDaysSql, topPagesSql, topEventsSql), which the model tests
// compare with these answer for answer: the same rows and column names, in the same order.
import { bucketLabeller } from "./buckets.js";
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { tableRead } from "./relation.js";
import { VISITOR_FACETS } from "./visitors.js";
import { byBytes, idsOf, Stmt, type Who } from "./visitors-stmt.js";
import { VISIT_SOURCE } from "./visitors-tables.js";

/** The page's panels in the order the page reads them. */
export const VISITOR_PANELS = ["figures", "facets", "first_source", "active_days", "top_pages", "top_events"] as const;
export type VisitorPanel = (typeof VISITOR_PANELS)[number];

type Row = Record<string, unknown>;

/** What the two engines spell differently in the read. */
const EPOCH_MS_LIST: Record<SqlDialect, (c: string) => string> = {
  duckdb: (c) => `list_transform(${c}, x -> epoch_ms(x))`,
  clickhouse: (c) => `arrayMap(x -> toUInt64(toUnixTimestamp(x)) * 1000, ${c})`,
};

/**
 * At most this many visit rows are read for the panels: a person with more (a bot, a shared id)
 * has their panels answered by the statements over `events` instead (visitRowsSql()).
 */
export const PANEL_VISIT_ROWS = 100_000;

/**
 * The person's visit rows (visitor_visits; a visit may have several, one per append that touched
 * it) with what the panels read, times as epoch ms; a visit row starts inside the person's span.
 * At most PANEL_VISIT_ROWS + 1: more than PANEL_VISIT_ROWS means too many to fold here.
 */
export function visitRowsSql(dialect: SqlDialect, property: string, who: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  const ms = q.f.epochMs;
  const span = "span" in who ? [`start_ts >= ${q.p.ts(who.span.from)}`, `start_ts < ${q.p.ts(who.span.to + 1000)}`] : [];
  const cols = [
    "session_id",
    `${ms("start_ts")} AS start_ms`,
    `${ms("end_ts")} AS end_ms`,
    "n_pageviews",
    "n_custom",
    "n_shown",
    "engaged",
    "revenue_sum",
    "cur_min",
    "cur_max",
    "l_country",
    "l_region",
    "l_city",
    `${ms("src_ts")} AS src_ms`,
    ...VISIT_SOURCE.map((c) => `src_${c}`),
    ...VISITOR_FACETS.map((c) => `fc_${c}`),
    `${EPOCH_MS_LIST[dialect]("day_ts")} AS day_ms`,
    "pv_paths",
    "c_names",
    "c_revenue",
    "c_currency",
  ];
  return q.done(
    `SELECT ${cols.join(", ")} FROM ${tableRead(q.s, "visitor_visits", [...span, q.clientIn(idsOf(who))])} ${q.d.limit(PANEL_VISIT_ROWS + 1, 0)}`,
  );
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The latest of several values by a time (ties: the first seen). */
class Latest {
  at = Number.NEGATIVE_INFINITY;
  value = "";
  see(at: number, value: string) {
    if (at > this.at) {
      this.at = at;
      this.value = value;
    }
  }
}

/** A currency over several values: itself when all non-empty ones agree, else ''. */
class Currency {
  min: string | null = null;
  max: string | null = null;
  see(c: string, upper = c) {
    if (c !== "" && (this.min === null || byBytes(c, this.min) < 0)) this.min = c;
    if (upper !== "" && (this.max === null || byBytes(upper, this.max) > 0)) this.max = upper;
  }
  get value() {
    return this.min !== null && this.min === this.max ? this.min : "";
  }
}

/** Rows sorted by a count descending, then a string in byte order. */
const byCountThen = (count: string, key: string) => (a: Row, b: Row) =>
  num(b[count]) - num(a[count]) || byBytes(str(a[key]), str(b[key]));

/**
 * The six panels from the person's visit rows (visitRowsSql()), each as the statements over
 * `events` answer it: `tz` and [from, to) bound the active days, `n` the top pages and events.
 */
export function visitorPanels(
  rows: readonly Row[],
  tz: string,
  from: number,
  to: number,
  n: number,
): Record<VisitorPanel, Row[]> {
  // Figures: the visit partials folded per visit, then summed over visits.
  const visits = new Map<
    string,
    {
      start: number;
      end: number;
      pv: number;
      ev: number;
      eng: number;
      rev: number;
      cur: Currency;
      country: Latest;
      region: Latest;
      city: Latest;
    }
  >();
  for (const r of rows) {
    const sid = str(r.session_id);
    let v = visits.get(sid);
    if (!v) {
      v = {
        start: Number.POSITIVE_INFINITY,
        end: Number.NEGATIVE_INFINITY,
        pv: 0,
        ev: 0,
        eng: 0,
        rev: 0,
        cur: new Currency(),
        country: new Latest(),
        region: new Latest(),
        city: new Latest(),
      };
      visits.set(sid, v);
    }
    const end = num(r.end_ms);
    v.start = Math.min(v.start, num(r.start_ms));
    v.end = Math.max(v.end, end);
    v.pv += num(r.n_pageviews);
    v.ev += num(r.n_custom);
    v.eng += num(r.engaged);
    v.rev += num(r.revenue_sum);
    v.cur.see(str(r.cur_min), str(r.cur_max));
    v.country.see(end, str(r.l_country));
    v.region.see(end, str(r.l_region));
    v.city.see(end, str(r.l_city));
  }
  let figures: Row[] = [];
  if (visits.size > 0) {
    const cur = new Currency();
    const [country, region, city] = [new Latest(), new Latest(), new Latest()];
    const f = {
      pageviews: 0,
      events: 0,
      engaged_ms: 0,
      revenue: 0,
      first: Number.POSITIVE_INFINITY,
      last: Number.NEGATIVE_INFINITY,
      dur: 0,
    };
    for (const v of visits.values()) {
      f.pageviews += v.pv;
      f.events += v.ev;
      f.engaged_ms += v.eng;
      f.revenue += v.rev;
      f.first = Math.min(f.first, v.start);
      f.last = Math.max(f.last, v.end);
      f.dur += v.end - v.start;
      cur.see(v.cur.min ?? "", v.cur.max ?? "");
      country.see(v.end, v.country.value);
      region.see(v.end, v.region.value);
      city.see(v.end, v.city.value);
    }
    figures = [
      {
        visits: visits.size,
        pageviews: f.pageviews,
        events: f.events,
        engaged_ms: f.engaged_ms,
        revenue: f.revenue,
        revenue_currency: cur.value,
        first_ms: f.first,
        last_ms: f.last,
        avg_visit_ms: f.dur / visits.size,
        country: country.value,
        region: region.value,
        city: city.value,
      },
    ];
  }

  // Facets: per facet and value, the visits it was seen in.
  const facetVisits = VISITOR_FACETS.map(() => new Map<string, Set<string>>());
  for (const r of rows) {
    const sid = str(r.session_id);
    VISITOR_FACETS.forEach((c, i) => {
      const m = facetVisits[i] as Map<string, Set<string>>;
      for (const x of list(r[`fc_${c}`])) {
        const value = str(x);
        if (value === "") continue;
        let s = m.get(value);
        if (!s) m.set(value, (s = new Set()));
        s.add(sid);
      }
    });
  }
  const facets = facetVisits
    .flatMap((m, facet) => [...m].map(([value, s]) => ({ facet, value, visits: s.size })))
    .sort((a, b) => a.facet - b.facet || b.visits - a.visits || byBytes(a.value, b.value))
    .slice(0, 600);

  // First source: the first shown event (ties by path).
  let first: Row | null = null;
  for (const r of rows) {
    if (num(r.n_shown) <= 0) continue;
    const t = num(r.src_ms);
    if (first === null || t < num(first.ts_ms) || (t === num(first.ts_ms) && byBytes(str(r.src_path), str(first.path)) < 0)) {
      first = { ts_ms: t, ...Object.fromEntries(VISIT_SOURCE.map((c) => [c, str(r[`src_${c}`])])) };
    }
  }

  // Active days: shown events per local day in [from, to).
  const days = new Map<string, number>();
  // A heavy visitor's thousands of event times: each local hour's day worked out once.
  const dayOf = bucketLabeller("day", tz);
  for (const r of rows) {
    for (const x of list(r.day_ms)) {
      const t = num(x);
      if (t < from || t >= to) continue;
      const day = dayOf(t);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
  }
  const activeDays = [...days].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([day, events]) => ({ day, events }));

  // Top pages and top events.
  const pages = new Map<string, number>();
  const events = new Map<string, { events: number; revenue: number; cur: Currency }>();
  for (const r of rows) {
    for (const p of list(r.pv_paths)) pages.set(str(p), (pages.get(str(p)) ?? 0) + 1);
    const names = list(r.c_names);
    const revenue = list(r.c_revenue);
    const currency = list(r.c_currency);
    names.forEach((x, i) => {
      const name = str(x);
      let e = events.get(name);
      if (!e) events.set(name, (e = { events: 0, revenue: 0, cur: new Currency() }));
      e.events++;
      e.revenue += num(revenue[i]);
      e.cur.see(str(currency[i]));
    });
  }
  const topPages = [...pages]
    .map(([path, pageviews]) => ({ path, pageviews }))
    .sort(byCountThen("pageviews", "path"))
    .slice(0, n);
  const topEvents = [...events]
    .map(([name, e]) => ({ name, events: e.events, a_revenue: e.revenue, a_currency: e.cur.value }))
    .sort(byCountThen("events", "name"))
    .slice(0, n);

  return {
    figures,
    facets,
    first_source: first ? [first] : [],
    active_days: activeDays,
    top_pages: topPages,
    top_events: topEvents,
  };
}
