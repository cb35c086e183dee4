// The compiler's one error type: a spec that parsed but cannot be answered (too many buckets, an
// unsupported combination). The API maps it to 400 with `code` and `details.param`, the Stats
// API parameter to change; it never carries SQL.
export class QueryError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The Stats API parameter the problem is in (README "Stats API"). */
    readonly param: "interval" | "filters" | "period" | "date" | "metrics" | "dimension",
  ) {
    super(message);
    this.name = "QueryError";
  }
}
