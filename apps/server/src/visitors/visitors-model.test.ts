// The visitors domain on every event engine (DuckDB, ClickHouse) against a plain-TypeScript model: random traffic of a few visitors
// (events in time order, sessions assigned by the collector's own sessionizer: a gap of 30 minutes
// or more starts a visit), some identified with e-mails shared across client ids (one person), and
// the service's answers (SQL from @lookout/query plus its shaping) compared with a direct reading
// of the definitions: a person's figures, top pages, active days, the history by visit paged by
// cursor, time on page, and the list in every order paged by cursor. Any difference is a bug in one
// of the two.
import { createSessionizer } from "@lookout/ingest";
import { type EventRow, eventRow, VISITOR_ORDERS, type VisitorOrder, type VisitorProfile } from "@lookout/schema";
import { type TestStore, testEngines } from "@lookout/storage/test-engines";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { createVisitorService } from "./service.js";

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const DAY = 86_400_000;
const TZ = "Europe/Berlin";
/** The traffic starts 40 days before "now" (inside the 12-month calendar) and crosses a DST change only in March/October. */
const NOW = Date.parse("2024-03-31T12:00:00Z");
const T0 = NOW - 40 * DAY;
const IDS = ["a", "user-42", "Zed", "x/y", "laptop-0001", "phone-0002"];
const EMAILS = ["ann@example.com", "ANN@example.com", "bo@example.com"];
const NAMES = ["pageview", "pageview", "pageview", "engagement", "signup", "purchase"];
const PATHS = ["/", "/a", "/b", "/a/b"];

const stepArb = fc.record({
  // Mostly within a visit; sometimes exactly at, or past, the 30-minute split; sometimes days.
  gapS: fc.oneof(fc.integer({ min: 0, max: 1799 }), fc.constantFrom(1800, 1801), fc.integer({ min: 1800, max: 4 * 86_400 })),
  name: fc.constantFrom(...NAMES),
  path: fc.constantFrom(...PATHS),
  engagedS: fc.integer({ min: 1, max: 90 }),
  revenue: fc.constantFrom(0, 5, 12.5),
  device: fc.constantFrom("desktop", "mobile"),
});
const visitorArb = fc.record({
  startS: fc.integer({ min: 0, max: 30 * 86_400 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 12 }),
  email: fc.option(fc.constantFrom(...EMAILS), { nil: undefined }),
});
const trafficArb = fc.uniqueArray(fc.tuple(fc.constantFrom(...IDS), visitorArb), {
  minLength: 1,
  maxLength: 5,
  selector: ([id]) => id,
});

interface Traffic {
  rows: EventRow[];
  profiles: VisitorProfile[];
}

function build(property: string, traffic: [string, ValueOf<typeof visitorArb>][]): Traffic {
  const rows: EventRow[] = [];
  for (const [id, v] of traffic) {
    let ts = T0 + v.startS * 1000;
    for (const s of v.steps) {
      ts += s.gapS * 1000;
      rows.push(
        eventRow({
          property,
          ts: new Date(ts),
          name: s.name,
          path: s.path,
          url: `https://shop.test${s.path}`,
          visitor_id: id,
          client_id: id,
          device: s.device,
          engaged_ms: s.name === "engagement" ? s.engagedS * 1000 : 0,
          revenue: s.name === "purchase" ? s.revenue : 0,
        }),
      );
    }
  }
  // The collector sees events in time order and assigns sessions as they come.
  rows.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  let n = 0;
  const sessions = createSessionizer({ newId: () => `s${String(++n).padStart(4, "0")}` });
  // In-process, the sessionizer answers synchronously.
  for (const r of rows) r.session_id = sessions.assign(property, r.visitor_id, r.ts) as string;
  const profiles = traffic
    .filter(([, v]) => v.email !== undefined)
    .map(([id, v]) => ({
      property,
      client_id: id,
      email: v.email as string,
      name: `name of ${id}`,
      traits: { id },
      first_seen: new Date(T0),
      last_seen: new Date(T0),
    }));
  return { rows, profiles };
}

// --- the model ------------------------------------------------------------------------------------

const CUSTOM = (name: string) => !["pageview", "engagement", "pageleave", "identify"].includes(name);

function personIds(t: Traffic, id: string): string[] {
  const own = t.profiles.find((p) => p.client_id === id);
  if (!own?.email) return [id];
  const same = t.profiles.filter((p) => p.email.toLowerCase() === own.email.toLowerCase()).map((p) => p.client_id);
  return [id, ...same.filter((c) => c !== id).sort()];
}

function visitsOf(rows: EventRow[]) {
  const by = new Map<string, EventRow[]>();
  for (const r of rows) by.set(r.session_id, [...(by.get(r.session_id) ?? []), r]);
  return [...by.entries()].map(([sid, evs]) => {
    const times = evs.map((e) => e.ts.getTime());
    return { sid, evs, start: Math.min(...times), end: Math.max(...times) };
  });
}

function modelFigures(t: Traffic, id: string) {
  const ids = personIds(t, id);
  const rows = t.rows.filter((r) => ids.includes(r.client_id));
  const visits = visitsOf(rows);
  const dur = visits.map((v) => v.end - v.start);
  const count = (pred: (r: EventRow) => boolean) => rows.filter(pred).length;
  const pages = new Map<string, number>();
  for (const r of rows) if (r.name === "pageview") pages.set(r.path, (pages.get(r.path) ?? 0) + 1);
  const days = new Map<string, number>();
  const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" });
  for (const r of rows) if (r.name !== "engagement") days.set(fmt.format(r.ts), (days.get(fmt.format(r.ts)) ?? 0) + 1);
  // Merged devices: each device and the visits (of any of the person's ids) it was seen in.
  const devices = new Map<string, number>();
  for (const v of visits) for (const dev of new Set(v.evs.map((e) => e.device))) devices.set(dev, (devices.get(dev) ?? 0) + 1);
  return {
    visits: visits.length,
    devices: [...devices.entries()]
      .map(([value, n]) => ({ value, visits: n }))
      .sort((a, b) => b.visits - a.visits || (a.value < b.value ? -1 : 1)),
    pageviews: count((r) => r.name === "pageview"),
    events: count((r) => CUSTOM(r.name)),
    engaged_seconds: Math.round(rows.filter((r) => r.name === "engagement").reduce((a, r) => a + r.engaged_ms, 0) / 1000),
    revenue: rows.reduce((a, r) => a + r.revenue, 0),
    avg_visit_seconds: Math.round(dur.reduce((a, b) => a + b, 0) / dur.length / 100) / 10,
    first_seen: new Date(Math.min(...rows.map((r) => r.ts.getTime()))).toISOString(),
    last_seen: new Date(Math.max(...rows.map((r) => r.ts.getTime()))).toISOString(),
    top_pages: [...pages.entries()]
      .map(([path, pageviews]) => ({ path, pageviews }))
      .sort((a, b) => b.pageviews - a.pageviews || (a.path < b.path ? -1 : 1))
      .slice(0, 10),
    // The calendar ends today (events stamped later, which the generator makes, are left out).
    active_days: [...days.entries()]
      .filter(([date]) => date <= fmt.format(new Date(NOW)))
      .map(([date, events]) => ({ date, events }))
      .sort((a, b) => (a.date < b.date ? -1 : 1)),
    // Latest seen first.
    also_seen_as: ids
      .filter((c) => c !== id)
      .map((c) => ({ c, last: Math.max(...rows.filter((r) => r.client_id === c).map((r) => r.ts.getTime())) }))
      .sort((a, b) => b.last - a.last || (a.c < b.c ? -1 : 1))
      .map((x) => x.c),
  };
}

/** The person's visits newest first, each with its shown events and their time on page. */
function modelHistory(t: Traffic, id: string) {
  const ids = personIds(t, id);
  const visits = visitsOf(t.rows.filter((r) => ids.includes(r.client_id)));
  visits.sort((a, b) => b.start - a.start || (a.sid < b.sid ? 1 : -1));
  return visits.map((v) => {
    // Time, then name, then path (events of one millisecond, which the generator makes often).
    const evs = [...v.evs].sort(
      (a, b) =>
        a.ts.getTime() - b.ts.getTime() ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
    const shown = evs.filter((e) => e.name !== "engagement");
    const pvs = shown.filter((e) => e.name === "pageview");
    return {
      session_id: v.sid,
      duration_seconds: (v.end - v.start) / 1000,
      events: shown.map((e) => {
        let top: number | null = null;
        if (e.name === "pageview") {
          const until = pvs[pvs.indexOf(e) + 1]?.ts.getTime() ?? Number.POSITIVE_INFINITY;
          const pings = evs.filter((p) => p.name === "engagement" && p.ts.getTime() >= e.ts.getTime() && p.ts.getTime() < until);
          top = pings.length === 0 ? null : Math.round(pings.reduce((a, p) => a + p.engaged_ms, 0) / 1000);
        }
        return [e.name, e.path, top];
      }),
    };
  });
}

function modelList(t: Traffic, order: VisitorOrder): string[] {
  const ids = [...new Set(t.rows.map((r) => r.client_id))];
  const key = (id: string) => {
    const rows = t.rows.filter((r) => r.client_id === id);
    if (order === "last_seen") return Math.max(...rows.map((r) => r.ts.getTime()));
    if (order === "first_seen") return Math.min(...rows.map((r) => r.ts.getTime()));
    if (order === "visits") return new Set(rows.map((r) => r.session_id)).size;
    return rows.filter((r) => CUSTOM(r.name)).length;
  };
  return ids.sort((a, b) => key(b) - key(a) || (a < b ? 1 : -1));
}

// --- the comparison -------------------------------------------------------------------------------

const ENGINES = await testEngines();

describe.each(ENGINES)("visitors on $name against the model", (engine) => {
  let store: TestStore;
  let n = 0;
  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("visitors-model");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
  });

  it.skipIf(engine.skip !== undefined)(
    "answers every person's figures, history and the list as the definitions say",
    async () => {
      const service = createVisitorService({
        events: store,
        reads: fairEventReads(store),
        meta: { audit: { record: async () => undefined } } as never,
        presence: { list: () => [] },
        now: () => NOW,
      });
      await fc.assert(
        fc.asyncProperty(trafficArb, fc.integer({ min: 1, max: 3 }), async (traffic, pageSize) => {
          const property = `model-${++n}`;
          const site = { unique_id: property, timezone: TZ, account_id: "acc" };
          const t = build(property, traffic);
          await store.append(t.rows);
          await store.upsertVisitors(t.profiles);
          await store.sync();
          for (const [id] of traffic) {
            const want = modelFigures(t, id);
            const got = await service.detail(site, id);
            expect({
              ...got,
              revenue: Math.round(got.revenue * 100) / 100,
              also_seen_as: got.also_seen_as.map((a) => a.client_id),
            }).toMatchObject(want);

            const pages: ReturnType<typeof modelHistory> = [];
            let cursor: string | undefined;
            for (let i = 0; i < 100; i++) {
              const page = await service.history(site, id, { limit: pageSize, ...(cursor ? { cursor } : {}) });
              expect(page.results.length).toBeLessThanOrEqual(pageSize);
              pages.push(
                ...page.results.map((v) => ({
                  session_id: v.session_id,
                  duration_seconds: v.duration_seconds,
                  events: v.events.map((e) => [e.name, e.path, e.time_on_page_seconds]),
                })),
              );
              if (!page.next_cursor) break;
              cursor = page.next_cursor;
            }
            expect(pages).toEqual(modelHistory(t, id));
          }
          for (const order of VISITOR_ORDERS) {
            const seen: string[] = [];
            let cursor: string | undefined;
            for (let i = 0; i < 100; i++) {
              const page = await service.list(site, { order, identified: "all", limit: pageSize, ...(cursor ? { cursor } : {}) });
              seen.push(...page.results.map((v) => v.client_id));
              if (!page.next_cursor) break;
              cursor = page.next_cursor;
            }
            expect(seen, order).toEqual(modelList(t, order));
          }
        }),
        { numRuns: Number(process.env.VISITOR_MODEL_RUNS ?? 15), endOnFailure: true },
      );
    },
    240_000,
  );
});
