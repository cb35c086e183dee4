// The size-bounded LRU map lives in storage (its in-process shared state uses it too); ingest and
// the server keep importing it from here.
export { LruMap } from "@lookout/storage";
