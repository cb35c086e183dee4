// Test support: hand-built events. `event()` fills every column with a neutral value so that a
// fixture names only what it is about; `at()` reads a UTC wall time tersely.
import type { EventRow, VisitorProfile } from "@lookout/schema";

export function event(over: Partial<EventRow> & Pick<EventRow, "property" | "ts">): EventRow {
  return {
    name: "pageview",
    visitor_id: "v",
    session_id: "s",
    client_id: "",
    hostname: "example.com",
    path: "/",
    url: "",
    title: "",
    referrer: "",
    referrer_source: "",
    channel: "direct",
    utm_source: "",
    utm_medium: "",
    utm_campaign: "",
    utm_term: "",
    utm_content: "",
    country: "",
    region: "",
    city: "",
    browser: "",
    browser_version: "",
    os: "",
    os_version: "",
    device: "",
    screen: "",
    language: "",
    props: {},
    revenue: 0,
    revenue_currency: "",
    engaged_ms: 0,
    ...over,
  };
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
