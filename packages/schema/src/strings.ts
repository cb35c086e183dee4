// The string and id types every public input is built from. A string a store cannot hold must be
// refused here, at the schema layer, with a 400: PostgreSQL and PGlite reject NUL in text (and
// the error used to surface as a 500, or crash the process from a socket message), and an
// unpaired surrogate cannot be encoded as UTF-8 (drivers silently replace it, so what was stored
// would not be what was sent). Ids have a known shape, so anything else is refused before a query.
import { z } from "zod";

/**
 * NUL, or a UTF-16 surrogate without its other half: with the `u` flag a pair reads as one code
 * point, so only an unpaired half falls in the surrogate range.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it looks for
const UNSTORABLE_RE = /[\u0000\ud800-\udfff]/u;

export const UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired surrogates";

/** Whether every store can hold `s` exactly as given. */
export function isStorable(s: string): boolean {
  return !UNSTORABLE_RE.test(s);
}

/** A string every store can hold: the base of every string field of a public input. */
export const text = () => z.string().refine(isStorable, { message: UNSTORABLE_MESSAGE, abort: true });

/** Account and user ids: UUIDs from node:crypto (packages/storage meta/ids.ts). */
export const ACCOUNT_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AccountIdSchema = z.string().trim().min(1).max(64).regex(ACCOUNT_ID_RE, "is not an account id");

/** A property's public id (unique_id): url-safe characters (newUniqueId makes 16 of them). */
export const PROPERTY_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
export const PropertyIdSchema = z.string().regex(PROPERTY_ID_RE, "is not a property id");
