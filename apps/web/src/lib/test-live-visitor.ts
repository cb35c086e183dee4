// Test support: a live visitor with neutral values, so each test names only what it is about.
import type { LiveVisitor } from "@lookout/schema";

export function liveVisitor<T extends LiveVisitor = LiveVisitor>(clientid: string, over: Partial<T> = {}): T {
  return {
    clientid,
    propertyId: "p1",
    country: "DE",
    active: true,
    page: "/",
    title: "Home",
    source: "Direct / None",
    referrer: "",
    device: "desktop",
    browser: "Chrome",
    os: "Linux",
    arrivedAt: 1_000,
    lastSeen: 1_000,
    ...over,
  } as T;
}
