// Where sign-in returns to: the gate sends a signed-out visitor to `/login?next=<path>` and the login
// screen goes there afterwards, so a shared deep link (property, period, filters) survives sign-in.
// `next` is read from a URL anyone can craft, so only a same-origin path is accepted: one leading
// "/" (never "//host" or "/\host", which browsers read as another host), no backslash or control
// character, and never the auth screens themselves (a loop). Anything else falls back to /dashboard.

export const DEFAULT_AFTER_LOGIN = "/dashboard";
export const NEXT_PARAM = "next";

/** Screens that make no sense to return to after signing in. */
const NOT_A_TARGET = ["/login", "/logout", "/recover-password", "/reset-password"];

/** The path, query and hash of `raw` if it is a safe same-origin target, else null. */
export function safeReturnTo(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith("/") || raw.startsWith("//")) return null;
  // Browsers treat "\" like "/" in URLs; control characters and spaces are stripped or rejected.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f\s]/.test(raw)) return null;
  const base = "http://return-to.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (NOT_A_TARGET.includes(url.pathname)) return null;
  const out = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise "/..//host" into "//host": check the result again.
  return out.startsWith("//") ? null : out;
}

/** The login screen's address for a visitor who was going to `target` (path, query and hash). */
export function loginPathFor(target: string): string {
  const safe = safeReturnTo(target);
  // The plain default needs no parameter: /login stays /login.
  if (!safe || safe === DEFAULT_AFTER_LOGIN || safe === "/") return "/login";
  return `/login?${new URLSearchParams({ [NEXT_PARAM]: safe }).toString()}`;
}

/** Where to go after signing in, from the login screen's query string. */
export function afterLoginTarget(search: URLSearchParams): string {
  return safeReturnTo(search.get(NEXT_PARAM)) ?? DEFAULT_AFTER_LOGIN;
}
