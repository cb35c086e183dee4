// A property's vocabulary read from an EventStore (issue #23): the event names and the custom-prop
// keys of its stored events, all time, through whatever reader the caller holds (the server's is
// the account's fair queue). The statements are @lookout/query's vocabulary.ts, one per dialect.
import { compileEventNames, compilePropKeys, readVocabulary } from "@lookout/query";
import type { EventReader } from "./event-store.js";

/** The event names of the property's events; null when it has too many to check (VOCABULARY_LIMIT). */
export async function readEventNames(store: EventReader, property: string): Promise<Set<string> | null> {
  return readVocabulary(await store.query(compileEventNames(store.dialect, property)));
}

/** The custom-prop keys of the property's events; null when it has too many to check. */
export async function readPropKeys(store: EventReader, property: string): Promise<Set<string> | null> {
  return readVocabulary(await store.query(compilePropKeys(store.dialect, property)));
}
