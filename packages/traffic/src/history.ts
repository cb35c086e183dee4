// Synthetic traffic for benchmarks and tests (DESIGN.md §8): Zipf-like pages and referrers,
// user-agent-derived browser/os/device profiles, countries with regions and cities, visitors who
// come back, multi-page visits with engagement pings and leave events, and custom events (signup
// with props, purchase with revenue). Deterministic: a seeded PRNG (test/bench code, so no crypto).
// Events come out in time order, in batches, the way the collector would append them.
import { type EventRow, eventRow } from "@lookout/schema";

export interface GenerateOptions {
  property: string;
  days: number;
  visitors: number;
  seed: number;
  /** The instant the generated period ends (default 2024-06-01T00:00:00Z). */
  end?: Date;
  batchSize?: number;
  /** Stop after this many events. */
  maxEvents?: number;
  /** The site's hostname (default example.com). */
  hostname?: string;
}

/** sfc32: small, fast, good enough statistically for traffic shapes. */
export function prng(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Picks from weighted items by binary search over the cumulative weights. */
export function weighted<T>(items: readonly T[], weights: readonly number[]): (r: () => number) => T {
  const cum: number[] = [];
  let total = 0;
  for (const w of weights) cum.push((total += w));
  return (r) => {
    const x = r() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

export const zipf = <T>(items: readonly T[], s = 1.1) =>
  weighted(
    items,
    items.map((_, i) => 1 / (i + 1) ** s),
  );

const SECTIONS = ["blog", "docs", "guides", "changelog", "customers"];
const PAGES = [
  "/",
  "/pricing",
  "/features",
  "/signup",
  "/login",
  "/about",
  "/contact",
  ...Array.from(
    { length: 300 },
    (_, i) => `/${SECTIONS[i % SECTIONS.length]}/${["intro", "setup", "scaling", "privacy", "api"][i % 5]}-${i}`,
  ),
];

// [referrer_source, referrer host, channel]
const SOURCES: [string, string, string][] = [
  ["", "", "direct"],
  ["Google", "www.google.com", "search"],
  ["Twitter", "t.co", "social"],
  ["Hacker News", "news.ycombinator.com", "referral"],
  ["Bing", "www.bing.com", "search"],
  ["Reddit", "www.reddit.com", "social"],
  ["GitHub", "github.com", "referral"],
  ["DuckDuckGo", "duckduckgo.com", "search"],
  ["Facebook", "www.facebook.com", "social"],
  ["LinkedIn", "www.linkedin.com", "social"],
  ["Newsletter", "", "email"],
  ["Product Hunt", "www.producthunt.com", "referral"],
  ...Array.from({ length: 60 }, (_, i): [string, string, string] => [`blog${i}.example`, `blog${i}.example`, "referral"]),
];

// [browser, version, os, os version, device, screen]; weights follow the usual market shares.
const UA_PROFILES: [string, string, string, string, string, string][] = [
  ["Chrome", "124", "Windows", "10", "desktop", "desktop"],
  ["Safari", "17.4", "iOS", "17.4", "mobile", "mobile"],
  ["Chrome", "124", "Android", "14", "mobile", "mobile"],
  ["Chrome", "124", "Mac OS", "10.15", "desktop", "laptop"],
  ["Safari", "17.4", "Mac OS", "14.4", "desktop", "laptop"],
  ["Edge", "124", "Windows", "10", "desktop", "desktop"],
  ["Firefox", "125", "Windows", "10", "desktop", "desktop"],
  ["Samsung Internet", "24", "Android", "13", "mobile", "mobile"],
  ["Safari", "17.4", "iPadOS", "17.4", "tablet", "tablet"],
  ["Firefox", "125", "GNU/Linux", "", "desktop", "desktop"],
  ["Chrome", "123", "Chrome OS", "", "desktop", "laptop"],
  ["Opera", "109", "Windows", "11", "desktop", "desktop"],
];
const UA_WEIGHTS = [30, 18, 16, 8, 7, 6, 4, 3, 3, 2, 2, 1];

// [country, [region, city][]]
const GEO: [string, [string, string][]][] = [
  [
    "US",
    [
      ["California", "San Francisco"],
      ["New York", "New York"],
      ["Texas", "Austin"],
      ["Washington", "Seattle"],
    ],
  ],
  [
    "DE",
    [
      ["Berlin", "Berlin"],
      ["Bavaria", "Munich"],
      ["Hamburg", "Hamburg"],
    ],
  ],
  [
    "GB",
    [
      ["England", "London"],
      ["Scotland", "Edinburgh"],
    ],
  ],
  [
    "IN",
    [
      ["Karnataka", "Bengaluru"],
      ["Maharashtra", "Mumbai"],
    ],
  ],
  [
    "FR",
    [
      ["Île-de-France", "Paris"],
      ["Auvergne-Rhône-Alpes", "Lyon"],
    ],
  ],
  [
    "CA",
    [
      ["Ontario", "Toronto"],
      ["British Columbia", "Vancouver"],
    ],
  ],
  ["BR", [["São Paulo", "São Paulo"]]],
  [
    "JP",
    [
      ["Tokyo", "Tokyo"],
      ["Osaka", "Osaka"],
    ],
  ],
  ["NL", [["North Holland", "Amsterdam"]]],
  ["SE", [["Stockholm", "Stockholm"]]],
  ["ES", [["Madrid", "Madrid"]]],
  ["AU", [["New South Wales", "Sydney"]]],
  ["PL", [["Masovia", "Warsaw"]]],
  ["", [["", ""]]],
];
const CAMPAIGNS = ["spring_launch", "newsletter_may", "retargeting", "webinar", "black_friday"];
const PLANS = ["free", "pro", "team"];

interface Visitor {
  id: string;
  ua: (typeof UA_PROFILES)[number];
  country: string;
  region: string;
  city: string;
  language: string;
}

function makeVisitor(r: () => number, i: number, seed: number): Visitor {
  const geo = zipfGeo(r);
  const [region, city] = geo[1][Math.floor(r() * geo[1].length)] ?? ["", ""];
  return { id: `v${seed}-${i}`, ua: pickUa(r), country: geo[0], region, city, language: geo[0] === "DE" ? "de" : "en" };
}
const pickUa = weighted(UA_PROFILES, UA_WEIGHTS);
const zipfGeo = zipf(GEO, 1.0);
const pickPage = zipf(PAGES, 1.1);
const pickSource = zipf(SOURCES, 1.0);
const pickCampaign = zipf(CAMPAIGNS, 1.0);

const DAY = 86_400_000;

/** One visit's events, in time order. */
function visit(r: () => number, v: Visitor, start: number, sessionId: string, property: string, host: string): EventRow[] {
  const [source, refHost, channel] = pickSource(r);
  const campaign = r() < 0.08 ? pickCampaign(r) : "";
  const base = eventRow({
    property,
    ts: new Date(0),
    hostname: host,
    visitor_id: v.id,
    session_id: sessionId,
    client_id: v.id,
    referrer: refHost ? `https://${refHost}/` : "",
    referrer_source: campaign ? "Newsletter" : source,
    channel: campaign ? "email" : channel,
    utm_source: campaign ? "newsletter" : "",
    utm_medium: campaign ? "email" : "",
    utm_campaign: campaign,
    country: v.country,
    region: v.region,
    city: v.city,
    browser: v.ua[0],
    browser_version: v.ua[1],
    os: v.ua[2],
    os_version: v.ua[3],
    device: v.ua[4],
    screen: v.ua[5],
    language: v.language,
  });
  const out: EventRow[] = [];
  // About half the visits bounce; the rest view a geometric number of further pages.
  let pages = 1;
  if (r() > 0.48) while (pages < 12 && r() < 0.62) pages++;
  let t = start;
  for (let i = 0; i < pages; i++) {
    const path = i === 0 && r() < 0.35 ? "/" : pickPage(r);
    out.push({ ...base, ts: new Date(t), name: "pageview", path, url: `https://${host}${path}`, title: path });
    const engaged = Math.floor(3000 + r() * r() * 180_000);
    if (r() < 0.85)
      out.push({
        ...base,
        ts: new Date(t + engaged),
        name: "engagement",
        path,
        url: `https://${host}${path}`,
        engaged_ms: engaged,
      });
    if (pages > 1 && r() < 0.04) {
      out.push({
        ...base,
        ts: new Date(t + engaged + 500),
        name: "signup",
        path,
        props: { plan: PLANS[Math.floor(r() * 3)] as string, source: "form" },
      });
    }
    if (pages > 2 && r() < 0.015) {
      out.push({
        ...base,
        ts: new Date(t + engaged + 800),
        name: "purchase",
        path,
        revenue: Math.round(19 + r() * 480),
        revenue_currency: "USD",
        props: { plan: "pro" },
      });
    }
    t += engaged + Math.floor(1000 + r() * 20_000);
  }
  const last = out[out.length - 1] as EventRow;
  if (r() < 0.7) out.push({ ...base, ts: new Date(last.ts.getTime() + 1000), name: "pageleave", path: last.path, url: last.url });
  return out;
}

/** Yields EventRow batches in time order covering `days` days up to `end`. */
export function* generateEvents(o: GenerateOptions): Generator<EventRow[]> {
  const r = prng(o.seed);
  const end = (o.end ?? new Date("2024-06-01T00:00:00Z")).getTime();
  const start = end - o.days * DAY;
  const batchSize = o.batchSize ?? 10_000;
  const max = o.maxEvents ?? Number.POSITIVE_INFINITY;
  // Each visitor: 1 + geometric visits spread over the period; visits per day in buckets.
  const byDay: [number, number, number][][] = Array.from({ length: o.days }, () => []);
  for (let i = 0; i < o.visitors; i++) {
    let n = 1;
    while (n < 20 && r() < 0.38) n++;
    for (let k = 0; k < n; k++) {
      const day = Math.floor(r() * o.days);
      // Daytime-weighted start: two uniforms summed peak mid-day.
      const tod = ((r() + r()) / 2) * DAY;
      byDay[day]?.push([i, k, start + day * DAY + Math.floor(tod)]);
    }
  }
  const visitors = new Map<number, Visitor>();
  let emitted = 0;
  let batch: EventRow[] = [];
  for (let day = 0; day < o.days && emitted < max; day++) {
    const events: EventRow[] = [];
    for (const [vi, k, t] of byDay[day] ?? []) {
      let v = visitors.get(vi);
      if (!v) visitors.set(vi, (v = makeVisitor(r, vi, o.seed)));
      events.push(...visit(r, v, t, `s${o.seed}-${vi}-${k}`, o.property, o.hostname ?? "example.com"));
    }
    byDay[day] = [];
    events.sort((a, b) => a.ts.getTime() - b.ts.getTime());
    for (const e of events) {
      if (emitted >= max) break;
      batch.push(e);
      emitted++;
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** Rough events per visitor of this generator, for sizing runs by event count. */
export const EVENTS_PER_VISITOR = 6.7;
