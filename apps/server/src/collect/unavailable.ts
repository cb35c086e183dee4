// What the collector's routes (one event, a batch) answer when the events cannot be taken now:
// the write queue is full, the event store is unreachable with its backlog full, or the server is
// shutting down. Each is a 503 with Retry-After, so senders retry instead of losing events.
import { QueueClosedError, QueueFullError } from "@lookout/ingest";
import { IngestBacklogError } from "@lookout/storage";
import { HttpError } from "../http/errors.js";

const retryAfter = (ms: number) => ({ "retry-after": String(Math.max(1, Math.ceil(ms / 1000))) });

/** The 503 for an error of collecting, or the error itself when it is not one of these. */
export function unavailable(err: unknown): unknown {
  if (err instanceof QueueFullError) {
    return new HttpError(503, "overloaded", "The collector is busy; retry shortly.", undefined, retryAfter(err.retryAfterMs));
  }
  if (IngestBacklogError.is(err)) {
    return new HttpError(
      503,
      "backlog_full",
      "The event store is unreachable and the backlog is full; retry later.",
      undefined,
      retryAfter(err.retryAfterMs),
    );
  }
  if (err instanceof QueueClosedError) {
    return new HttpError(503, "shutting_down", "The collector is restarting; retry shortly.", undefined, { "retry-after": "2" });
  }
  return err;
}
