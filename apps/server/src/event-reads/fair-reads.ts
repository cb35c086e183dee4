// The event store's reads, shared fairly between accounts: createServices builds one EventReads
// over the store, and every service that reads events on an account's behalf (stats, insights,
// visitors, properties, billing; export and reports through stats) gets it instead of the store.
// A service asks for the reader of a property (`reads.of(property)`), and each of that reader's
// calls waits in the one fair queue (fair-queue.ts) of the account that owns the property. Having
// no other way to read, a service cannot forget the queue; and since the queue sits at each read
// (never around a whole request), nothing ever waits for a slot while holding one of its own.
import { type EventReader, type EventStore, type PropertyRow, QueryTimeoutError } from "@lookout/storage";
import { DomainError } from "../http/domain-errors.js";
import { FairQueue, QueueFullError } from "./fair-queue.js";

/**
 * Reads of one account that run at once; the others wait their turn. Below the DuckDB store's
 * readers (4 on the server, 2 in tests), so one account never holds them all.
 */
export const READS_PER_ACCOUNT = 2;
/**
 * Reads of one account that may wait; past it, 429. A dashboard's dozen requests are a few reads
 * each, a visitor's page eight.
 */
export const READS_WAITING_PER_ACCOUNT = 100;
/** The Retry-After of a full queue: a few of the account's reads will have ended by then. */
const RETRY_AFTER_MS = 5_000;

export interface EventReads {
  /** The store's reads for `property`, each in the fair queue of the account that owns it. */
  of(property: Pick<PropertyRow, "account_id">): EventReader;
  /** An account's reads running and waiting (tests and metrics). */
  load(accountId: string): { running: number; waiting: number };
}

export function fairEventReads(
  store: EventStore,
  { perAccount = READS_PER_ACCOUNT, waiting = READS_WAITING_PER_ACCOUNT } = {},
): EventReads {
  const queue = new FairQueue(perAccount, waiting);
  async function fair<T>(accountId: string, read: () => Promise<T>): Promise<T> {
    try {
      return await queue.run(accountId, read);
    } catch (err) {
      if (err instanceof QueueFullError) {
        throw new DomainError(
          "rate_limited",
          "This account has too many queries running; try again in a few seconds.",
          undefined,
          RETRY_AFTER_MS,
        );
      }
      throw err;
    }
  }
  return {
    of({ account_id }) {
      // Each call goes to `store` as it is then (a test may wrap store.query on the live store).
      return {
        get dialect() {
          return store.dialect;
        },
        query: (q, opts) => fair(account_id, () => store.query(q, opts)),
        events: (property, q) => fair(account_id, () => store.events(property, q)),
        visitor: (property, clientId) => fair(account_id, () => store.visitor(property, clientId)),
        ...timelineRead(store, "funnelFromTimelines", (read) => fair(account_id, read)),
        ...timelineRead(store, "funnelActorsFromTimelines", (read) => fair(account_id, read)),
        ...timelineRead(store, "retentionFromTimelines", (read) => fair(account_id, read)),
        ...timelineRead(store, "stickinessFromTimelines", (read) => fair(account_id, read)),
        ...timelineRead(store, "lifecycleFromTimelines", (read) => fair(account_id, read)),
        // A small read of the settle marks, shared by the queries that arrive together: not queued.
        ...(store.settledVisits ? { settledVisits: store.settledVisits.bind(store) } : {}),
        // Not a read: it answers at once from memory and may start filling rollups in the background.
        ...(store.dayRollupThrough
          ? { dayRollupThrough: (property: string, tz: string) => store.dayRollupThrough?.(property, tz) }
          : {}),
      };
    },
    load: (accountId) => queue.load(accountId),
  };
}

type TimelineReads =
  | "funnelFromTimelines"
  | "funnelActorsFromTimelines"
  | "retentionFromTimelines"
  | "stickinessFromTimelines"
  | "lifecycleFromTimelines";

/** A store's optional timeline read (its visitor timelines), each call through `queued`; nothing when the store has none. */
function timelineRead<K extends TimelineReads>(
  store: EventStore,
  name: K,
  queued: <T>(read: () => Promise<T>) => Promise<T>,
): Partial<Pick<EventReader, K>> {
  type Read = (...args: unknown[]) => Promise<unknown>;
  if (!store[name]) return {};
  // Looked up at each call, as the other reads are (a test may wrap the live store's method).
  const call = (...args: unknown[]) => queued(async () => (await (store[name] as Read | undefined)?.apply(store, args)) ?? null);
  return { [name]: call } as Partial<Pick<EventReader, K>>;
}

/** The answer to a read cancelled at the store's time limit, for services without a message of their own. */
export function queryTimeoutAsDomainError(err: unknown): unknown {
  if (!QueryTimeoutError.from(err)) return err;
  return new DomainError(
    "query_timeout",
    "This query took too long and was cancelled: narrow the filters or the date range, or try again later.",
  );
}
