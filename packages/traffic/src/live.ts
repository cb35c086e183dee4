// Simulated visitors browsing in real time, for the demo property and `generate --live`: each
// one arrives with a real-looking user agent and address, views a few pages with engagement
// pings in between, sometimes signs up, and leaves with a pageleave beacon. The simulator only
// produces tracker bodies; the caller sends them through the collector (in process or HTTP).
import { prng, zipf } from "./history.js";

export interface SimulatedEvent {
  body: Record<string, unknown>;
  ip: string;
  userAgent: string;
}

export interface LiveSimulatorOptions {
  property: string;
  /** The simulated site's origin, e.g. https://demo.example. */
  origin: string;
  /** Addresses visitors come from (public addresses, so they resolve to countries). */
  ips: readonly string[];
  /** Visitors on the site at once, on average. */
  concurrent?: number;
  send: (e: SimulatedEvent) => Promise<void>;
  seed?: number;
  /** Engagement ping interval (the tracker's is 20 s). */
  heartbeatMs?: number;
}

export const USER_AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
];

const PAGES = ["/", "/pricing", "/blog", "/about", "/docs/setup", "/docs/api", "/blog/launch", "/signup"];
const REFERRERS = [
  "",
  "https://www.google.com/",
  "https://news.ycombinator.com/",
  "https://t.co/x",
  "https://github.com/",
  "https://www.reddit.com/",
];
const WIDTHS = [1920, 390, 412, 1440, 1536, 820];

interface Sim {
  clientId: string;
  ip: string;
  ua: string;
  width: number;
  page: string;
  pagesLeft: number;
  next: number;
  lastBeat: number;
  referrer: string;
}

export interface LiveSimulator {
  /** Advances the simulation to `now`, sending what visitors did meanwhile. */
  tick(now?: number): Promise<void>;
  start(everyMs?: number): void;
  stop(): Promise<void>;
  readonly active: number;
}

export function createLiveSimulator(o: LiveSimulatorOptions): LiveSimulator {
  const r = prng(o.seed ?? Date.now() % 2 ** 31);
  const pickPage = zipf(PAGES, 1.0);
  const pickRef = zipf(REFERRERS, 0.9);
  const concurrent = o.concurrent ?? 6;
  const heartbeat = o.heartbeatMs ?? 20_000;
  const sims = new Map<string, Sim>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let n = 0;

  const send = (s: Sim, body: Record<string, unknown>) =>
    o
      .send({ ip: s.ip, userAgent: s.ua, body: { property: o.property, client_id: s.clientId, screen_width: s.width, ...body } })
      .catch(() => {});
  const url = (path: string) => `${o.origin}${path}`;

  async function arrive(now: number): Promise<void> {
    const s: Sim = {
      clientId: `sim-${now.toString(36)}-${(n++).toString(36)}`,
      ip: o.ips[Math.floor(r() * o.ips.length)] ?? "203.0.113.1",
      ua: USER_AGENTS[Math.floor(r() * r() * USER_AGENTS.length)] ?? (USER_AGENTS[0] as string),
      width: WIDTHS[Math.floor(r() * WIDTHS.length)] ?? 1440,
      page: pickPage(r),
      pagesLeft: Math.floor(r() * 5),
      next: now + 10_000 + r() * 50_000,
      lastBeat: now,
      referrer: pickRef(r),
    };
    sims.set(s.clientId, s);
    await send(s, { name: "pageview", url: url(s.page), referrer: s.referrer, title: titleOf(s.page) });
  }

  async function step(s: Sim, now: number): Promise<void> {
    if (now - s.lastBeat >= heartbeat) {
      s.lastBeat = now;
      await send(s, { name: "engagement", url: url(s.page), engaged_ms: heartbeat });
    }
    if (now < s.next) return;
    if (s.pagesLeft <= 0) {
      sims.delete(s.clientId);
      await send(s, { name: "pageleave", url: url(s.page) });
      return;
    }
    s.pagesLeft--;
    const from = s.page;
    s.page = pickPage(r);
    s.next = now + 8_000 + r() * 45_000;
    s.lastBeat = now;
    await send(s, { name: "pageview", url: url(s.page), referrer: url(from), title: titleOf(s.page) });
    if (s.page === "/signup" && r() < 0.5)
      await send(s, { name: "signup", url: url(s.page), props: { plan: r() < 0.3 ? "team" : "pro" } });
  }

  async function tick(now = Date.now()): Promise<void> {
    for (const s of [...sims.values()]) await step(s, now);
    // Arrivals keep the crowd near `concurrent`, with some randomness.
    const want = concurrent + Math.round((r() - 0.5) * concurrent * 0.6);
    if (sims.size < want && r() < 0.5) await arrive(now);
  }

  return {
    tick,
    start(everyMs = 1000) {
      if (timer) return;
      timer = setInterval(() => {
        running = running.then(() => tick()).catch(() => {});
      }, everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
    get active() {
      return sims.size;
    },
  };
}

function titleOf(path: string): string {
  const last = path.split("/").filter(Boolean).pop() ?? "home";
  return `${last.charAt(0).toUpperCase()}${last.slice(1).replace(/-/g, " ")} · Demo shop`;
}
