// Exclusions changed through the API take effect at the collector at once (its property cache is
// invalidated): an event from an excluded IP or CIDR (IPv4 and IPv6), on an excluded path (with
// wildcards) or on a hostname not allowed is answered 202 with the drop reason header, and is
// accepted again once the exclusion is removed. The client address comes from X-Forwarded-For
// behind a trusted proxy (the test's inject peer, 127.0.0.1). Also: the collector's IP matcher
// agrees with Node's net.BlockList on the ranges the API accepts.
import { BlockList, isIP } from "node:net";
import { compileIpList } from "@lookout/ingest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROPPED_HEADER } from "../collect/routes.js";
import { type Backend, createTestApp, type TestApp } from "../test-support.js";
import { parseIpEntry } from "./settings.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe.each<Backend>(["pglite", "postgres"])("exclusions at the collector on %s", (backend) => {
  let t: TestApp;
  let site: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { env: { LOOKOUT_TRUSTED_PROXIES: "127.0.0.1", LOOKOUT_RATE_PER_IP: "1000" } });
    const owner = await t.user("owner@example.com");
    site = await t.property(owner.accountId, "https://example.com");
    token = (await t.login(owner.email, owner.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const settings = async (s: Record<string, unknown>) => {
    const r = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/properties/${site}`,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: JSON.stringify({ settings: s }),
    });
    expect(r.statusCode, r.body).toBe(200);
  };
  /** The drop reason of one pageview, or "stored". */
  const outcome = async (url: string, ip = "81.2.69.142", clientId?: string) => {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": CHROME, "x-forwarded-for": ip },
      payload: JSON.stringify({ property: site, name: "pageview", url, ...(clientId ? { client_id: clientId } : {}) }),
    });
    expect(r.statusCode).toBe(202);
    return (r.headers[DROPPED_HEADER] as string | undefined) ?? "stored";
  };

  it("drops events from excluded IPs and CIDR ranges, v4 and v6, until removed", async () => {
    // Warm the collector's cache first: the change must not wait for its TTL.
    expect(await outcome("https://example.com/", "203.0.113.9")).toBe("stored");
    await settings({ excluded_ips: ["203.0.113.0/24", "2001:db8::/32", "192.0.2.1"] });
    expect(await outcome("https://example.com/", "203.0.113.9")).toBe("excluded_ip");
    expect(await outcome("https://example.com/", "2001:db8:ffff::5")).toBe("excluded_ip");
    expect(await outcome("https://example.com/", "192.0.2.1")).toBe("excluded_ip");
    expect(await outcome("https://example.com/", "192.0.2.2")).toBe("stored");
    expect(await outcome("https://example.com/", "203.0.114.1")).toBe("stored");
    expect(await outcome("https://example.com/", "2001:db9::1")).toBe("stored");
    await settings({ excluded_ips: [] });
    expect(await outcome("https://example.com/", "203.0.113.9")).toBe("stored");
    expect(await outcome("https://example.com/", "2001:db8:ffff::5")).toBe("stored");
  });

  it("drops events on excluded paths with * (one segment) and ** (any depth), until removed", async () => {
    await settings({ excluded_paths: ["/admin/*", "/docs/**", "/exact"] });
    expect(await outcome("https://example.com/admin/users")).toBe("excluded_path");
    expect(await outcome("https://example.com/admin/users/7")).toBe("stored");
    expect(await outcome("https://example.com/docs/a/b/c")).toBe("excluded_path");
    expect(await outcome("https://example.com/exact?utm_source=x")).toBe("excluded_path");
    expect(await outcome("https://example.com/exactly")).toBe("stored");
    await settings({ excluded_paths: [] });
    expect(await outcome("https://example.com/admin/users")).toBe("stored");
  });

  it("drops events on hostnames not allowed, with *.domain for subdomains, until removed", async () => {
    await settings({ allowed_hostnames: ["*.example.com"] });
    expect(await outcome("https://shop.example.com/")).toBe("stored");
    expect(await outcome("https://a.b.example.com/")).toBe("stored");
    expect(await outcome("https://example.com/")).toBe("hostname_not_allowed");
    expect(await outcome("https://evil.test/")).toBe("hostname_not_allowed");
    await settings({ allowed_hostnames: ["example.com"] });
    expect(await outcome("https://www.example.com/")).toBe("stored");
    expect(await outcome("https://shop.example.com/")).toBe("hostname_not_allowed");
    await settings({ allowed_hostnames: [] });
    expect(await outcome("https://evil.test/")).toBe("stored");
  });

  it("stores no client id in cookieless mode, and the client's again once switched off", async () => {
    await settings({ cookieless: true });
    expect(await outcome("https://example.com/cookieless", "81.2.69.142", "client-cl-1")).toBe("stored");
    await settings({ cookieless: false });
    expect(await outcome("https://example.com/cookieful", "81.2.69.142", "client-cl-2")).toBe("stored");
    const rows = await t.events.events(site);
    expect(rows.find((r) => r.path === "/cookieless")?.client_id).not.toBe("client-cl-1");
    expect(rows.find((r) => r.path === "/cookieful")?.client_id).toBe("client-cl-2");
  });
});

describe("the collector's IP matcher and net.BlockList", () => {
  it("agree on every accepted entry", () => {
    const entries = ["203.0.113.7/24", "10.0.0.0/8", "2001:db8::/32", "::ffff:192.0.2.0/120", "198.51.100.9", "fe80::1/10"];
    const probes = ["203.0.113.200", "203.0.112.255", "10.255.1.1", "11.0.0.1", "2001:db8:1::1", "2001:db9::", "192.0.2.77"];
    probes.push("192.0.3.1", "198.51.100.9", "198.51.100.10", "fe80::abcd", "fe81::1", "febf::1", "fec0::1");
    for (const raw of entries) {
      const parsed = parseIpEntry(raw);
      if (typeof parsed !== "string") throw new Error(`${raw}: ${parsed.problem}`);
      const [addr = "", prefix] = parsed.split("/");
      const family = isIP(addr) === 4 ? "ipv4" : "ipv6";
      const list = new BlockList();
      if (prefix === undefined) list.addAddress(addr, family);
      else list.addSubnet(addr, Number(prefix), family);
      const ours = compileIpList([parsed]).matches;
      for (const ip of probes) {
        const fam = isIP(ip) === 4 ? "ipv4" : "ipv6";
        expect(ours(ip), `${parsed} vs ${ip}`).toBe(list.check(ip, fam));
      }
    }
  });
});
