import { describe, expect, it } from "vitest";
import { type ClientRequest, clientIpResolver, throttleAddress } from "./client-ip.js";

const req = (peer: string | undefined, forwardedFor?: string | string[]): ClientRequest => ({
  socket: { remoteAddress: peer },
  headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
});

describe("clientIpResolver", () => {
  const direct = clientIpResolver([]);
  const proxied = clientIpResolver(["10.0.0.0/8", "loopback"]);

  it("takes an IPv4 peer as is", () => {
    expect(direct(req("203.0.113.9"))).toBe("203.0.113.9");
  });

  it("gives an IPv4-mapped IPv6 peer as IPv4, so one client has one address on either stack", () => {
    expect(direct(req("::ffff:203.0.113.9"))).toBe("203.0.113.9");
    expect(direct(req("::FFFF:cb00:7109"))).toBe("203.0.113.9");
  });

  it("writes an IPv6 peer in its one canonical spelling", () => {
    expect(direct(req("2001:0DB8:0000::0001"))).toBe("2001:db8::1");
  });

  it("answers '' when the peer is unknown", () => {
    expect(direct(req(undefined))).toBe("");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(direct(req("127.0.0.1", "198.51.100.7"))).toBe("127.0.0.1");
    expect(proxied(req("203.0.113.9", "198.51.100.7"))).toBe("203.0.113.9");
  });

  it("behind trusted proxies, walks X-Forwarded-For right to left to the first untrusted hop", () => {
    expect(proxied(req("127.0.0.1", "198.51.100.7"))).toBe("198.51.100.7");
    // The client wrote the leftmost entry itself; the proxies appended the rest.
    expect(proxied(req("10.0.0.2", "1.1.1.1, 198.51.100.7, 10.0.0.1"))).toBe("198.51.100.7");
    expect(proxied(req("10.0.0.2", ["1.1.1.1", "198.51.100.7"]))).toBe("198.51.100.7");
    expect(proxied(req("::ffff:10.0.0.2", "::ffff:198.51.100.7"))).toBe("198.51.100.7");
    expect(proxied(req("10.0.0.2", "[2001:db8::7]:443"))).toBe("2001:db8::7");
  });

  it("stops at the last address a trusted proxy vouched for when a hop is malformed", () => {
    expect(proxied(req("10.0.0.2", "198.51.100.7, garbage, 10.0.0.1"))).toBe("10.0.0.1");
  });
});

describe("throttleAddress", () => {
  it("counts an IPv4 address as is, also when IPv4-mapped", () => {
    expect(throttleAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(throttleAddress("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts an IPv6 address by its /64", () => {
    expect(throttleAddress("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe("2001:db8:85a3:8d3::/64");
    expect(throttleAddress("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttleAddress("2001:db8::1")).toBe(throttleAddress("2001:db8::ffff:2"));
    expect(throttleAddress("2001:db8:0:1::1")).not.toBe(throttleAddress("2001:db8:0:2::1"));
    expect(throttleAddress("::1")).toBe("0:0:0:0::/64");
  });

  it("counts what is not an address as itself", () => {
    expect(throttleAddress("")).toBe("");
    expect(throttleAddress("unknown")).toBe("unknown");
  });

  it("groups what the resolver returns the same way", () => {
    const resolve = clientIpResolver([]);
    expect(throttleAddress(resolve(req("2001:db8:1:2:3:4:5:6")))).toBe("2001:db8:1:2::/64");
    expect(throttleAddress(resolve(req("::ffff:198.51.100.7")))).toBe("198.51.100.7");
  });
});
