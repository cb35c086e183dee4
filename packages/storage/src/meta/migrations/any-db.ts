// The database handle a metadata migration gets: untyped, as migrations run before the typed
// schema (tables.ts) exists.
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export type AnyDb = Kysely<any>;
