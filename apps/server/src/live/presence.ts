// Live presence (DESIGN.md §4): who is on each property right now. The collector signals
// sightings and leaves onto the LiveBus; every server process applies the same signals to its own
// table, so each can answer its sockets. A visitor is live while seen within 60 s and not gone:
// a pageleave of their last open page ends it at once. A leave is remembered for a while, because
// the heartbeat a closing page sends beside its leave beacon can arrive after it and must not
// bring the visitor back; only a new pageview of that page does.
import { LruMap } from "@lookout/ingest";
import { LIVE_WINDOW_MS, type LiveVisitor } from "@lookout/schema";
import type { LiveBus } from "@lookout/storage";

export const PRESENCE_CHANNEL = "presence.v1";
/** A page not heard from for longer than a heartbeat (20 s) plus grace is taken as closed. */
const PAGE_OPEN_MS = 25_000;

export type Sighting = Omit<LiveVisitor, "active" | "arrivedAt" | "lastSeen"> & {
  ts: number;
  pageKey: string;
  /** True for a pageview: the page was (re)opened, which overrides an earlier leave of it. */
  pageview: boolean;
};
export type PresenceSignal =
  | { kind: "seen"; s: Sighting }
  | { kind: "leave"; propertyId: string; clientid: string; pageKey: string; ts: number };
/** What travels on the bus: one signal, or the signals of one collector batch in order. */
type PresenceMessage = PresenceSignal | { kind: "batch"; signals: PresenceSignal[] };

export type PresenceChange = { type: "add"; visitor: LiveVisitor } | { type: "remove"; clientid: string };

interface Entry {
  clientid: string;
  visitor: LiveVisitor;
  pages: Map<string, number>;
}

/** A property's live visitors need no size bound of their own: the live window is theirs. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export class Presence {
  /**
   * Each property's live visitors by client id, least recently seen first: a sighting moves its
   * visitor to the newest end, so that a sweep stops at the first one still live instead of
   * visiting everyone (a busy site has tens of thousands live, swept every second).
   */
  readonly #byProperty = new Map<string, LruMap<string, Entry>>();
  /** "property\0client\0pageKey" -> when that page was left; oldest first, likewise. */
  readonly #left = new Map<string, number>();
  readonly #listeners = new Set<(propertyId: string, change: PresenceChange) => void>();
  readonly #storedListeners = new Set<(propertyIds: Set<string>) => void>();
  #sweeper: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(
    private readonly bus: LiveBus,
    private readonly now: () => number = Date.now,
  ) {}

  async start(sweepEveryMs = 1000): Promise<void> {
    this.#unsubscribe = await this.bus.subscribe(PRESENCE_CHANNEL, (m) => this.#receive(m as PresenceMessage));
    this.#sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.#sweeper.unref();
  }

  stop(): void {
    this.#unsubscribe?.();
    if (this.#sweeper) clearInterval(this.#sweeper);
  }

  /**
   * Collector side: announce sightings and leaves to every process. Several signals travel as one
   * bus message, so a group-committed batch costs one publish rather than one per event.
   */
  signal(signals: PresenceSignal | PresenceSignal[]): Promise<void> {
    if (!Array.isArray(signals)) return this.bus.publish(PRESENCE_CHANNEL, signals);
    if (signals.length === 0) return Promise.resolve();
    const message: PresenceMessage = signals.length === 1 ? (signals[0] as PresenceSignal) : { kind: "batch", signals };
    return this.bus.publish(PRESENCE_CHANNEL, message);
  }

  onChange(listener: (propertyId: string, change: PresenceChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Events of these properties were stored (by any server process: every signal is one stored
   * event): what insight result caches take as their data version changing.
   */
  onStored(listener: (propertyIds: Set<string>) => void): () => void {
    this.#storedListeners.add(listener);
    return () => this.#storedListeners.delete(listener);
  }

  list(propertyIds: Iterable<string>): LiveVisitor[] {
    const out: LiveVisitor[] = [];
    for (const id of propertyIds) for (const e of this.#byProperty.get(id)?.values() ?? []) out.push(e.visitor);
    return out;
  }

  count(propertyId: string): number {
    let n = 0;
    for (const e of this.#byProperty.get(propertyId)?.values() ?? []) if (e.visitor.country) n++;
    return n;
  }

  #receive(message: PresenceMessage): void {
    const signals = message?.kind === "batch" && Array.isArray(message.signals) ? message.signals : [message as PresenceSignal];
    for (const signal of signals) this.apply(signal);
    if (this.#storedListeners.size === 0) return;
    const stored = new Set<string>();
    for (const signal of signals) {
      const id = signal?.kind === "seen" ? signal.s?.propertyId : signal?.kind === "leave" ? signal.propertyId : undefined;
      if (typeof id === "string") stored.add(id);
    }
    if (stored.size > 0) for (const listener of this.#storedListeners) listener(stored);
  }

  /** Applies a signal from the bus. Malformed signals are ignored. */
  apply(signal: PresenceSignal): void {
    if (signal?.kind === "seen" && signal.s) this.#seen(signal.s);
    else if (signal?.kind === "leave") this.#leave(signal.propertyId, signal.clientid, signal.pageKey, signal.ts);
  }

  /**
   * Ends what has expired, oldest first. Signals come in collection order, so the maps are in time
   * order up to the few milliseconds by which batches may interleave: an entry behind a later one
   * goes at most that much later.
   */
  sweep(now = this.now()): void {
    for (const [key, ts] of this.#left) {
      if (now - ts < PAGE_OPEN_MS) break;
      this.#left.delete(key);
    }
    for (const [propertyId, live] of this.#byProperty) {
      for (let e = live.oldest(); e; e = live.oldest()) {
        if (now - e.visitor.lastSeen < LIVE_WINDOW_MS) break;
        this.#remove(propertyId, e.clientid);
      }
    }
  }

  #seen(s: Sighting): void {
    const { ts, pageKey } = s;
    if (this.now() - ts >= LIVE_WINDOW_MS) return;
    // Most sightings come while no page was left lately: no key to build then.
    if (this.#left.size > 0) {
      const leftKey = `${s.propertyId}\u0000${s.clientid}\u0000${pageKey}`;
      if (s.pageview) this.#left.delete(leftKey);
      else if (this.#left.has(leftKey)) return;
    }
    let live = this.#byProperty.get(s.propertyId);
    if (!live) this.#byProperty.set(s.propertyId, (live = new LruMap(UNBOUNDED)));
    const e = live.peek(s.clientid);
    if (!e) {
      const visitor = newVisitor(s);
      const pages = new Map<string, number>();
      pages.set(pageKey, ts);
      live.set(s.clientid, { clientid: s.clientid, visitor, pages });
      this.#emit(s.propertyId, { type: "add", visitor });
      return;
    }
    e.pages.set(pageKey, Math.max(ts, e.pages.get(pageKey) ?? 0));
    if (ts > e.visitor.lastSeen) {
      e.visitor.lastSeen = ts;
      live.get(s.clientid); // now the most recently seen
    }
    if (visiblyChanged(e.visitor, s)) {
      e.visitor = merged(e.visitor, s);
      this.#emit(s.propertyId, { type: "add", visitor: e.visitor });
    }
  }

  #leave(propertyId: string, clientid: string, pageKey: string, ts: number): void {
    const leftKey = `${propertyId}\u0000${clientid}\u0000${pageKey}`;
    this.#left.delete(leftKey);
    this.#left.set(leftKey, ts);
    const e = this.#byProperty.get(propertyId)?.peek(clientid);
    if (!e) return;
    e.pages.delete(pageKey);
    const stillOpen = [...e.pages.values()].some((seen) => ts - seen < PAGE_OPEN_MS);
    if (!stillOpen) this.#remove(propertyId, clientid);
  }

  #remove(propertyId: string, clientid: string): void {
    const live = this.#byProperty.get(propertyId);
    if (!live?.delete(clientid)) return;
    if (live.size === 0) this.#byProperty.delete(propertyId);
    this.#emit(propertyId, { type: "remove", clientid });
  }

  #emit(propertyId: string, change: PresenceChange): void {
    for (const l of this.#listeners) l(propertyId, change);
  }
}

/** A first sighting as a live visitor, field by field (this runs for every new visitor). */
function newVisitor(s: Sighting): LiveVisitor {
  const v: LiveVisitor = {
    clientid: s.clientid,
    propertyId: s.propertyId,
    active: true,
    page: s.page,
    title: s.title,
    source: s.source,
    referrer: s.referrer,
    device: s.device,
    browser: s.browser,
    os: s.os,
    arrivedAt: s.ts,
    lastSeen: s.ts,
  };
  if (s.country !== undefined) v.country = s.country;
  if (s.email !== undefined) v.email = s.email;
  return v;
}

/** A sighting shows something about the visitor the dashboard does not show yet. */
function visiblyChanged(v: LiveVisitor, s: Sighting): boolean {
  return (
    (s.page !== undefined && s.page !== v.page) ||
    (s.title !== undefined && s.title !== v.title) ||
    (s.country !== undefined && s.country !== v.country) ||
    (s.email !== undefined && s.email !== v.email) ||
    (s.source !== undefined && s.source !== v.source) ||
    (s.device !== undefined && s.device !== v.device) ||
    (s.browser !== undefined && s.browser !== v.browser) ||
    (s.os !== undefined && s.os !== v.os)
  );
}

/** A new visitor object: `v` with the fields the sighting carries over it (this runs for most events). */
function merged(v: LiveVisitor, s: Sighting): LiveVisitor {
  const next = { ...v };
  if (s.clientid !== undefined) next.clientid = s.clientid;
  if (s.propertyId !== undefined) next.propertyId = s.propertyId;
  if (s.country !== undefined) next.country = s.country;
  if (s.page !== undefined) next.page = s.page;
  if (s.title !== undefined) next.title = s.title;
  if (s.source !== undefined) next.source = s.source;
  if (s.referrer !== undefined) next.referrer = s.referrer;
  if (s.device !== undefined) next.device = s.device;
  if (s.browser !== undefined) next.browser = s.browser;
  if (s.os !== undefined) next.os = s.os;
  if (s.email !== undefined) next.email = s.email;
  next.active = true;
  return next;
}
