// API errors: one JSON shape `{message, code, details?}` (DESIGN.md §5) for every 4xx, and a
// generic 500 that never leaks a stack trace or SQL. Services throw domain errors, whose status
// comes from the one registry (domain-errors.ts); HttpError is for the HTTP layer itself
// (credentials, content types, the collector's transport answers).
import { QueryTimeoutError } from "@lookout/storage";
import type { FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { DomainError, headersOf, statusOf } from "./domain-errors.js";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = "bad_request", details?: unknown) =>
  new HttpError(400, code, message, details);
export const unauthorized = (message = "Authentication required.", code = "unauthorized") => new HttpError(401, code, message);
export const forbidden = (message = "You do not have access to this resource.", code = "forbidden") =>
  new HttpError(403, code, message);
export const notFound = (message = "Not found.", code = "not_found") => new HttpError(404, code, message);
export const tooMany = (retryAfterMs: number, message = "Too many attempts. Please try again later.") =>
  new HttpError(429, "rate_limited", message, undefined, { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });

export function zodMessage(err: ZodError): string {
  const first = err.issues[0];
  if (!first) return "Invalid request.";
  const path = first.path.join(".");
  if (first.code === "invalid_type" && first.input === undefined) return `${path || "body"} is required`;
  return path ? `${path}: ${first.message}` : first.message;
}

/** Maps Fastify's own client errors (bad JSON, wrong content type, body too large) to our shape. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: "unsupported_media_type", message: "Unsupported content type." },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "invalid_json", message: "The request body is empty." },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid_json", message: "The request body is not valid JSON." },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload_too_large", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: "bad_request", message: "Invalid content length." },
};

/** PostgreSQL's (and PGlite's) class 22, "data exception": a value the database cannot take. */
function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code) && "severity" in (err as object);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply
        .code(err.status)
        .send({ message: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) });
    }
    if (err instanceof DomainError) {
      const headers = headersOf(err);
      if (headers) reply.headers(headers);
      return reply
        .code(statusOf(err))
        .send({ message: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) });
    }
    if (err instanceof ZodError) {
      return reply.code(400).send({
        message: zodMessage(err),
        code: "invalid_request",
        details: err.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
      });
    }
    const fe = err as FastifyError;
    const known = fe.code ? FASTIFY_CODES[fe.code] : undefined;
    if (known) return reply.code(known.status).send({ message: known.message, code: known.code });
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      // JSON.parse errors surface as SyntaxError with statusCode 400.
      const message = err instanceof SyntaxError ? "The request body is not valid JSON." : "Bad request.";
      return reply.code(fe.statusCode).send({ message, code: err instanceof SyntaxError ? "invalid_json" : "bad_request" });
    }
    if (QueryTimeoutError.from(err)) {
      // A read cancelled at the store's time limit that its service did not word (services
      // answer query_timeout themselves; this is the second line).
      return reply
        .code(503)
        .send({ message: "This query took too long and was cancelled; try again later.", code: "query_timeout" });
    }
    if (isDataException(err)) {
      // The schemas refuse what the stores cannot hold; this is the second line, for a field
      // that slipped through. Never the database's text: it can quote SQL.
      req.log.warn({ err }, "a value the store refused reached a query");
      return reply.code(400).send({ message: "The request holds a value that cannot be stored.", code: "invalid_value" });
    }
    req.log.error({ err }, "unhandled error");
    return reply.code(500).send({ message: "Something went wrong on our side.", code: "internal_error" });
  });
}
