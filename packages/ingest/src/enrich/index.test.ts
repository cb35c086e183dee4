import { type EventRow, TrackerEventSchema } from "@lookout/schema";
import { memorySharedState } from "@lookout/storage";
import { describe, expect, it } from "vitest";
import { MemorySaltStore } from "../identity/salts.js";
import { createSessionizer } from "../identity/sessionizer.js";
import { createEnricher, type EnrichContext } from "./index.js";
import type { EnrichPropertySettings } from "./rules.js";

const CHROME =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const NOW = new Date("2025-03-01T12:00:00Z");
const settings: EnrichPropertySettings = {
  unique_id: "prop_ABC123",
  cookieless: false,
  allowed_hostnames: ["example.com"],
  excluded_ips: ["203.0.113.0/24"],
  excluded_paths: ["/admin/**"],
  timezone: "Europe/London",
};

function setup() {
  const state = memorySharedState();
  const enricher = createEnricher({ saltStore: new MemorySaltStore(() => NOW), sessions: createSessionizer({ state }) });
  const ctx = (over: Partial<EnrichContext> = {}): EnrichContext => ({
    ip: "81.2.69.160",
    userAgent: CHROME,
    now: NOW,
    property: settings,
    ...over,
  });
  const run = (body: unknown, over: Partial<EnrichContext> = {}) => enricher.enrich(TrackerEventSchema.parse(body), ctx(over));
  return { enricher, run, state };
}

const pageview = {
  p: "prop_ABC123",
  n: "pageview",
  u: "https://www.example.com/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=march&token=secret",
  r: "https://mail.google.com/",
  w: 1280,
  c: "k3j4h5g6f7d8s9a0",
  ti: "Pricing",
  l: "en-GB",
};

describe("enrich", () => {
  it("fills every column of a pageview", async () => {
    const { run } = setup();
    const res = await run(pageview);
    if (!res.ok) throw new Error(res.reason);
    const expected: Omit<EventRow, "session_id"> = {
      property: "prop_ABC123",
      ts: NOW,
      name: "pageview",
      visitor_id: "k3j4h5g6f7d8s9a0",
      client_id: "k3j4h5g6f7d8s9a0",
      hostname: "example.com",
      path: "/pricing",
      url: "https://www.example.com/pricing",
      title: "Pricing",
      referrer: "https://mail.google.com/",
      referrer_source: "newsletter",
      channel: "email",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "march",
      utm_term: "",
      utm_content: "",
      country: "GB",
      region: "",
      city: "",
      browser: "Chrome",
      browser_version: "124",
      os: "macOS",
      os_version: "10.15",
      device: "desktop",
      screen: "laptop",
      language: "en-GB",
      props: {},
      revenue: 0,
      revenue_currency: "",
      engaged_ms: 0,
    };
    expect(res.row).toMatchObject(expected);
    expect(res.row.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(res.row).sort()).toEqual([...Object.keys(expected), "session_id"].sort());
    expect(res.profile).toBeUndefined();
    // The raw IP is used, never stored.
    expect(JSON.stringify(res.row)).not.toContain("81.2.69.160");
  });

  it("stringifies props, carries revenue and engagement, shares the session", async () => {
    const { run } = setup();
    const first = await run(pageview);
    const custom = await run({
      ...pageview,
      n: "signup",
      pr: { plan: "pro", seats: 3, trial: false },
      rv: { amount: 49.5, currency: "usd" },
    });
    const ping = await run({ ...pageview, n: "engagement", g: 20_000 });
    if (!first.ok || !custom.ok || !ping.ok) throw new Error("dropped");
    expect(custom.row.props).toEqual({ plan: "pro", seats: "3", trial: "false" });
    expect([custom.row.revenue, custom.row.revenue_currency]).toEqual([49.5, "USD"]);
    expect(ping.row.engaged_ms).toBe(20_000);
    expect(custom.row.session_id).toBe(first.row.session_id);
    expect(ping.row.session_id).toBe(first.row.session_id);
  });

  it("returns a profile for identify and keeps traits out of the event", async () => {
    const { run } = setup();
    const res = await run({ ...pageview, n: "identify", e: "Ada@Example.com", t: { name: "Ada", plan: "team" } });
    if (!res.ok) throw new Error(res.reason);
    expect(res.row.props).toEqual({});
    expect(res.profile).toEqual({
      property: "prop_ABC123",
      client_id: "k3j4h5g6f7d8s9a0",
      email: "Ada@Example.com",
      name: "Ada",
      traits: { name: "Ada", plan: "team" },
      first_seen: NOW,
      last_seen: NOW,
    });
  });

  it("hashes visitors of cookieless properties and ignores their client id", async () => {
    const { run } = setup();
    const property = { ...settings, cookieless: true };
    const a = await run(pageview, { property });
    const b = await run({ ...pageview, c: undefined }, { property });
    const other = await run(pageview, { property, ip: "8.8.8.8" });
    if (!a.ok || !b.ok || !other.ok) throw new Error("dropped");
    expect(a.row.visitor_id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.row.client_id).toBe(a.row.visitor_id);
    expect(b.row.visitor_id).toBe(a.row.visitor_id);
    expect(other.row.visitor_id).not.toBe(a.row.visitor_id);
    expect(other.row.country).toBe("US");
  });

  it("treats referrals from the site itself as direct", async () => {
    const { run } = setup();
    const res = await run({ ...pageview, u: "https://example.com/b", r: "https://www.example.com/a?x=1" });
    if (!res.ok) throw new Error(res.reason);
    expect([res.row.referrer, res.row.referrer_source, res.row.channel]).toEqual(["", "", "direct"]);
  });

  it.each([
    ["bot", { userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }, pageview],
    ["bot", { userAgent: "" }, pageview],
    ["bot", { userAgent: CHROME.replace("Chrome/", "HeadlessChrome/") }, pageview],
    ["excluded_ip", { ip: "203.0.113.7" }, pageview],
    ["hostname_not_allowed", {}, { ...pageview, u: "https://evil.test/pricing" }],
    ["excluded_path", {}, { ...pageview, u: "https://example.com/admin/users" }],
  ] as const)("drops with reason %s", async (reason, over, body) => {
    const { run, state } = setup();
    expect(await run(body, over)).toEqual({ ok: false, reason });
    // Dropped events must not open sessions.
    expect(state.visits).toBe(0);
  });
});
