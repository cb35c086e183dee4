// The compiler's one error type: a spec that parsed but cannot be answered (too many buckets, an
// unsupported combination). The API maps it to 400 with `code`; it never carries SQL.
export class QueryError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "QueryError";
  }
}
