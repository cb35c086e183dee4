// Test support: hand-built events. `event()` fills every column with a neutral value so that a
// fixture names only what it is about; `at()` reads a UTC wall time tersely; `recordingQueries()`
// records the statements a store runs.
import { type EventRow, eventRow, type VisitorProfile } from "@lookout/schema";
import type { CompiledQuery } from "./event-store.js";

export function event(over: Partial<EventRow> & Pick<EventRow, "property" | "ts">): EventRow {
  return eventRow({ visitor_id: "v", session_id: "s", hostname: "example.com", ...over });
}

/** "2024-05-09 10:00:05" (UTC) -> Date. */
export const at = (utc: string): Date => new Date(`${utc.replace(" ", "T")}Z`);

export function profile(over: Partial<VisitorProfile> & Pick<VisitorProfile, "property" | "client_id">): VisitorProfile {
  return {
    email: "",
    name: "",
    traits: {},
    first_seen: at("2024-05-01 00:00:00"),
    last_seen: at("2024-05-01 00:00:00"),
    ...over,
  };
}

/** `store` with the SQL of every statement it runs pushed onto `sqls` (which tables a read took). */
export function recordingQueries<S extends { query: (q: CompiledQuery, o?: never) => Promise<unknown> }>(
  store: S,
  sqls: string[],
): S {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "query")
        return (q: CompiledQuery, o?: never) => {
          sqls.push(q.sql);
          return target.query(q, o);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
