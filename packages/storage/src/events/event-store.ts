// The EventStore interface: the one contract the DuckDB (embedded) and ClickHouse (scale-out)
// adapters implement and the conformance suite checks.
import type { CompileContext, CompiledQuery, SettledVisits, SqlDialect } from "@lookout/query";
import type {
  EventRow,
  FunnelActorSelector,
  FunnelAnswer,
  FunnelSpec,
  RetentionAnswer,
  LifecycleAnswer,
  LifecycleSpec,
  RetentionSpec,
  StickinessAnswer,
  StickinessSpec,
  VisitorProfile,
} from "@lookout/schema";

export type { CompiledQuery, SqlDialect };

export interface EventsQuery {
  /** Only this visitor's events (the tracker's client id). */
  clientId?: string;
  from?: Date;
  to?: Date;
  /** Newest first when true; oldest first otherwise. */
  newestFirst?: boolean;
  /** At most 10 000. */
  limit?: number;
}

/** A visitor's latest visit: what the collector's sessionizer needs to continue visits after a restart. */
export interface RecentSession {
  property: string;
  visitor_id: string;
  session_id: string;
  last_ts: Date;
}

/** Options of one EventStore.query(). */
export interface QueryOptions {
  /**
   * The time limit, in ms (default: the adapter's, 10 s for DuckDB: DuckDbOptions.queryTimeoutMs;
   * 0: none). Past it the adapter cancels the query in the engine (DuckDB: the connection's
   * interrupt; ClickHouse: max_execution_time with timeout_overflow_mode 'throw') and rejects with
   * QueryTimeoutError.
   */
  timeoutMs?: number;
}

/**
 * A read query ran past its time limit and was cancelled. `code` identifies it where class identity
 * is lost (a worker thread's structured clone): QueryTimeoutError.from() rebuilds it.
 */
export class QueryTimeoutError extends Error {
  readonly code = "query_timeout";
  constructor(readonly timeoutMs: number) {
    super(`the query was cancelled after its time limit of ${timeoutMs} ms`);
    this.name = "QueryTimeoutError";
  }
  /** `err` as a QueryTimeoutError if it is one or a copy of one (code "query_timeout"), else null. */
  static from(err: unknown): QueryTimeoutError | null {
    if (err instanceof QueryTimeoutError) return err;
    if (!err || typeof err !== "object" || (err as { code?: unknown }).code !== "query_timeout") return null;
    const ms = Number((err as { timeoutMs?: unknown }).timeoutMs);
    return new QueryTimeoutError(Number.isFinite(ms) ? ms : 0);
  }
  /** A plain copy that survives structured clone (postMessage). */
  toJSON(): { code: "query_timeout"; message: string; timeoutMs: number } {
    return { code: this.code, message: this.message, timeoutMs: this.timeoutMs };
  }
}

/**
 * The store's backlog of acknowledged rows not yet delivered to its engine is at its bound (the
 * ClickHouse ingest log while ClickHouse is unreachable): the caller answers 503 with Retry-After.
 */
export class IngestBacklogError extends Error {
  readonly code = "ingest_backlog";
  constructor(
    readonly backlogRows: number,
    readonly retryAfterMs = 5000,
  ) {
    super(`the ingest backlog is full (${backlogRows} rows waiting for the event store)`);
    this.name = "IngestBacklogError";
  }
  static is(err: unknown): err is IngestBacklogError {
    return !!err && typeof err === "object" && (err as { code?: unknown }).code === "ingest_backlog";
  }
}

export interface EventStore {
  readonly dialect: SqlDialect;
  /** Creates tables if missing. Idempotent. */
  migrate(): Promise<void>;
  /**
   * Appends a batch in one transaction. Resolves only once the rows are durable (they survive
   * kill -9 of this process); rejects and stores nothing of the batch on failure.
   */
  append(rows: readonly EventRow[]): Promise<void>;
  /**
   * Upserts identified visitor profiles: first_seen keeps the earliest, last_seen the latest;
   * a non-empty email or name replaces the stored one; traits merge key by key, newer values win.
   * Several profiles for one (property, client_id) in a batch apply in order.
   */
  upsertVisitors(profiles: readonly VisitorProfile[]): Promise<void>;
  /**
   * Resolves once everything appended so far is visible to query(): adapters may bring derived
   * tables up to date shortly after an append rather than inside it (the DuckDB rollups).
   */
  sync(): Promise<void>;
  /**
   * Runs compiled, parameterised SQL (from @lookout/query) and returns plain JS rows. Parameters
   * named in `q.keyParams` hold a property id: the adapter binds its own key of that property
   * (DuckDB's integer property key), or a key no row has when the property has none.
   * Every read has a time limit (`opts.timeoutMs`, QueryOptions): past it the query is cancelled
   * in the engine and the call rejects with QueryTimeoutError.
   */
  query<T = Record<string, unknown>>(q: CompiledQuery, opts?: QueryOptions): Promise<T[]>;
  /** Raw events of a property (a visitor's history, exports, tests), ordered by time. */
  events(property: string, q?: EventsQuery): Promise<EventRow[]>;
  /** An identified visitor's profile, or null. */
  visitor(property: string, clientId: string): Promise<VisitorProfile | null>;
  /** Each visitor's latest session among events since `since`. */
  recentSessions(since: Date): Promise<RecentSession[]>;
  /**
   * Where the adapter's day rollups of this property in this timezone end (@lookout/query
   * day-rollup.ts), or undefined without any; asking may start filling them. Optional: adapters
   * without day rollups leave it out.
   */
  dayRollupThrough?(property: string, timezone: string): number | undefined;
  /**
   * ClickHouse's settled visits as of now (@lookout/query clickhouse-visits.ts), for
   * CompileContext.settledVisits: one small read, shared by the queries that arrive together.
   * Optional: adapters that keep no settled rows leave it out.
   */
  settledVisits?(): Promise<SettledVisits>;
  /**
   * A funnel's answer from the adapter's visitor timelines (DuckDB: duckdb-timelines.ts), or null
   * where they cannot give it (a filter or breakdown they do not hold, not built yet): runFunnel
   * then asks SQL. Optional: the same answer either way, only sooner.
   */
  funnelFromTimelines?(property: string, spec: FunnelSpec, ctx: CompileContext): Promise<FunnelAnswer | null>;
  /** A retention grid's answer from the same timelines, or null where they cannot give it (runRetention then asks SQL). */
  retentionFromTimelines?(property: string, spec: RetentionSpec, ctx: CompileContext): Promise<RetentionAnswer | null>;
  /** A lifecycle answer from the same timelines, or null where they cannot give it (runLifecycle then asks SQL). */
  lifecycleFromTimelines?(property: string, spec: LifecycleSpec, ctx: CompileContext): Promise<LifecycleAnswer | null>;
  /** A stickiness answer from the same timelines, or null where they cannot give it (runStickiness then asks SQL). */
  stickinessFromTimelines?(property: string, spec: StickinessSpec, ctx: CompileContext): Promise<StickinessAnswer | null>;
  /** A page of the client ids behind a funnel's point (runFunnelActors), from the same timelines, or null. */
  funnelActorsFromTimelines?(
    property: string,
    spec: FunnelSpec,
    at: FunnelActorSelector,
    page: { limit: number; offset: number },
    ctx: CompileContext,
  ): Promise<{ client_ids: string[]; has_more: boolean } | null>;
  /**
   * Deletes every event and the profile of one client id of a property (a visitor's deletion
   * request; never the person's other ids), and brings the derived tables in line so that no
   * statistic counts them any more. Resolves to the number of events deleted.
   */
  deleteVisitor(property: string, clientId: string): Promise<number>;
  /** Deletes every event and profile of a property (property deletion). */
  deleteProperty(property: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The reads of an EventStore, and nothing else: what the run* functions need. The server hands
 * its services a reader scheduled per account (apps/server event-reads/) rather than the store.
 */
export type EventReader = Pick<
  EventStore,
  | "dialect"
  | "query"
  | "events"
  | "visitor"
  | "dayRollupThrough"
  | "settledVisits"
  | "funnelFromTimelines"
  | "funnelActorsFromTimelines"
  | "retentionFromTimelines"
  | "stickinessFromTimelines"
  | "lifecycleFromTimelines"
>;
