// The visitors domain's reads of one property (every other visitors module builds on them): the
// rows helpers, a person's profiles and ids, where their events lie, and the planner's choice of
// tables. Every statement runs through the property's account's fair queue (event-reads/), and a
// read cancelled at the store's time limit answers 503 with this domain's own message.
import {
  type CompiledQuery,
  mapOf,
  perClientFromSummarySql,
  personSql,
  planVisitorRead,
  profilesSql,
  spanSql,
  type VisitorSource,
  type Who,
} from "@lookout/query";
import { VISITOR_LIMITS as L } from "@lookout/schema";
import { type PropertyRow, QueryTimeoutError } from "@lookout/storage";
import type { EventReads } from "../event-reads/fair-reads.js";
import { DomainError } from "../http/domain-errors.js";

export type Row = Record<string, unknown>;
export const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
export const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
export const iso = (ms: unknown) => new Date(num(ms)).toISOString();

/** The property fields the visitors domain reads. */
export type Site = Pick<PropertyRow, "unique_id" | "timezone" | "account_id">;

export interface Profile {
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

export const notFound = () => new DomainError("not_found", "Visitor not found.");

/**
 * Reads in flight, by property and statement: a visitor's page asks for the profile and history
 * at once and both first resolve the person (profile, ids, span), so a read identical to one still
 * running waits for that one's rows instead of running again. Only while it runs: nothing is kept.
 * The rows are shared, so callers read them and never change them.
 */
export type InFlight = Map<string, Promise<Row[]>>;

function shared(inflight: InFlight | undefined, key: string, read: () => Promise<Row[]>): Promise<Row[]> {
  if (!inflight) return read();
  const running = inflight.get(key);
  if (running) return running;
  const p = read().finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

/** The reads of one property, for one call of the service. */
export type VisitorReads = ReturnType<typeof visitorReads>;

/**
 * `source`: which tables answer (@lookout/query visitors-plan.ts): "auto" lets the planner choose
 * the per-visitor tables where they can; "events" reads the events table only.
 */
export function visitorReads(reads: EventReads, source: VisitorSource | "auto", site: Site, inflight?: InFlight) {
  const reader = reads.of(site);
  const d = reader.dialect;
  const pid = site.unique_id;
  // Every EventStore keeps the per-visitor tables (visitor-tables.ts in @lookout/storage).
  const ctx = { tables: true, source } as const;
  const fast = (r: Parameters<typeof planVisitorRead>[0]) => planVisitorRead(r, ctx) === "tables";

  async function run(q: CompiledQuery): Promise<Row[]> {
    try {
      return await shared(inflight, `${pid}\u0000${q.sql}\u0000${JSON.stringify(q.params)}`, () => reader.query<Row>(q));
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

  async function profiles(ids: readonly string[]): Promise<Map<string, Profile>> {
    const out = new Map<string, Profile>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await run(profilesSql(d, pid, ids.slice(i, i + 500)))) out.set(str(r.client_id), toProfile(r));
    }
    return out;
  }

  /**
   * The person of a client id: it first, then the others identified with its e-mail, with their
   * profiles (one read); `own` is null when the client id has no profile.
   */
  async function person(clientId: string): Promise<{ ids: string[]; own: Profile | null; profiles: Map<string, Profile> }> {
    const found = new Map<string, Profile>();
    for (const r of await run(personSql(d, pid, clientId, L.personIds))) found.set(str(r.client_id), toProfile(r));
    return {
      ids: [clientId, ...[...found.keys()].filter((id) => id !== clientId)],
      own: found.get(clientId) ?? null,
      profiles: found,
    };
  }

  /**
   * The person's ids with where their events lie (one read; every later read of the page skips
   * the blocks outside it), or just the ids when they have no events. From the per-visitor
   * summaries, that read's rows are each client id's latest device and last seen too (`clients`,
   * perClientSql()'s rows in no order); from the events, `clients` is null.
   */
  async function located(ids: readonly string[]): Promise<{ who: Who; events: number; clients: Row[] | null }> {
    if (fast({ read: "page" })) {
      const clients = await run(perClientFromSummarySql(d, pid, ids));
      const n = clients.reduce((a, r) => a + num(r.n), 0);
      if (n === 0) return { who: ids, events: 0, clients };
      const from = Math.min(...clients.map((r) => num(r.first_ms)));
      const to = Math.max(...clients.map((r) => num(r.last_ms)));
      return { who: { ids, span: { from, to } }, events: n, clients };
    }
    const r = (await run(spanSql(d, pid, ids)))[0];
    const n = num(r?.n);
    const who: Who = n === 0 ? ids : { ids, span: { from: num(r?.first_ms), to: num(r?.last_ms) } };
    return { who, events: n, clients: null };
  }

  /** Whether the client id has events or a profile (else: 404, like a foreign id). */
  async function known(clientId: string, own: Profile | null): Promise<boolean> {
    return own !== null || (await located([clientId])).events > 0;
  }

  return { site, pid, d, fast, run, profiles, person, located, known };
}
