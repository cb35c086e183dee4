// The one HTTP client of the web app (SPEC.md §7): sends the stored bearer token, echoes the
// XSRF-TOKEN cookie as the X-XSRF-TOKEN header, never times out (a caller may abort through its
// AbortSignal: TanStack Query does when an answer is no longer wanted), and treats 200–299 as
// success. Every method, JSON or form bodies. Failures surface as HttpError carrying the server's
// `message` when it sent one.
import { readCookie } from "./cookies";
import { StorageKey } from "./storage-keys";

const XSRF_COOKIE = "XSRF-TOKEN";
const XSRF_HEADER = "X-XSRF-TOKEN";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** The server's `message` field, when the answer had one. */
    readonly serverMessage: string | null,
    readonly code: string | null,
    /** The server's `details` (a 400's `[{path, message}]` per bad field), when it sent them. */
    readonly details: unknown = undefined,
  ) {
    super(serverMessage ?? `HTTP ${status}`);
    this.name = "HttpError";
  }
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** At most one body: JSON, or form-encoded (the properties call of SPEC.md §7). */
type Body = { json: unknown; form?: never } | { form: Record<string, string>; json?: never } | { json?: never; form?: never };
export type RequestOptions = Body & {
  signal?: AbortSignal | undefined;
  /** More headers (a shared page's X-Share-Slug, which the server then reads instead of the session). */
  headers?: Record<string, string> | undefined;
};

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

function headersFor(body: RequestOptions, token: string | null): Headers {
  const headers = new Headers({ accept: "application/json" });
  if (body.json !== undefined) headers.set("content-type", "application/json");
  else if (body.form !== undefined) headers.set("content-type", "application/x-www-form-urlencoded");
  if (token) headers.set("authorization", `Bearer ${token}`);
  const xsrf = readCookie(document.cookie, XSRF_COOKIE);
  if (xsrf) headers.set(XSRF_HEADER, xsrf);
  for (const [k, v] of Object.entries(body.headers ?? {})) headers.set(k, v);
  return headers;
}

function encode(body: Body): string | undefined {
  if (body.json !== undefined) return JSON.stringify(body.json);
  if (body.form !== undefined) return new URLSearchParams(body.form).toString();
  return undefined;
}

async function errorFrom(res: Response): Promise<HttpError> {
  let message: string | null = null;
  let code: string | null = null;
  let details: unknown;
  try {
    const data: unknown = await res.json();
    if (data && typeof data === "object") {
      const { message: m, code: c, details: d } = data as Record<string, unknown>;
      if (typeof m === "string" && m.trim() !== "") message = m;
      if (typeof c === "string") code = c;
      details = d;
    }
  } catch {
    // Not JSON (a proxy's HTML error page, say): callers fall back to their own text.
  }
  return new HttpError(res.status, message, code, details);
}

/** The session's token; none where storage is blocked (a shared dashboard embedded in another site). */
function storedToken(): string | null {
  try {
    return localStorage.getItem(StorageKey.token);
  } catch {
    return null;
  }
}

/**
 * Sends a request; resolves to the parsed JSON body (undefined for an empty body). An aborted
 * signal rejects with the fetch's AbortError, which callers (and TanStack Query) ignore.
 */
export async function request(method: HttpMethod, url: string, options: RequestOptions = {}): Promise<unknown> {
  const token = storedToken();
  const res = await fetch(url, {
    method,
    headers: headersFor(options, token),
    body: encode(options),
    credentials: "same-origin",
    signal: options.signal ?? null,
  });
  if (!isSuccess(res.status)) throw await errorFrom(res);
  const text = await res.text();
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

/** The message to show for a failed call: the server's own words first, else the caller's fallback. */
export function messageOf(err: unknown, fallback: string): string {
  return err instanceof HttpError && err.serverMessage ? err.serverMessage : fallback;
}

/** A 401: the session is over (the one global handler signs out, see lib/query-client). */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof HttpError && err.status === 401;
}
