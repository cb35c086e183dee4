// Test support: hand-built events. `event()` fills every column with a neutral value so that a
// fixture names only what it is about; `at()` reads a UTC wall time tersely.
import { type EventRow, eventRow, type VisitorProfile } from "@lookout/schema";

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
