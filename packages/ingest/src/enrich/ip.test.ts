import { describe, expect, it } from "vitest";
import { compileIpList, ipBytes, isNonPublicIp, normalizeIp, parseTrustedProxies, resolveClientIp } from "./ip.js";

describe("normalizeIp", () => {
  it.each([
    ["1.2.3.4", "1.2.3.4"],
    [" 1.2.3.4 ", "1.2.3.4"],
    ["1.2.3.4:5678", "1.2.3.4"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
    ["::FFFF:0102:0304", "1.2.3.4"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["::1", "::1"],
    ["::", "::"],
  ])("%s -> %s", (raw, want) => expect(normalizeIp(raw)).toBe(want));

  it.each(["", "unknown", "1.2.3", "1.2.3.256", "01.2.3.4", "::g", "[::1", "1.2.3.4/8", "a".repeat(100)])("rejects %j", (raw) =>
    expect(normalizeIp(raw)).toBeNull(),
  );

  it("gives v4 four bytes and v6 sixteen", () => {
    expect([...(ipBytes("10.0.0.255") ?? [])]).toEqual([10, 0, 0, 255]);
    expect(ipBytes("2001:db8::ff")?.length).toBe(16);
  });
});

describe("compileIpList", () => {
  const { matches, invalid } = compileIpList([
    "10.0.0.0/8",
    "192.0.2.7",
    "2001:db8::/32",
    "172.16.0.0/12",
    "loopback",
    "nonsense",
    "1.2.3.4/33",
    "",
  ]);

  it("matches v4 CIDRs and single addresses", () => {
    expect(matches("10.255.1.2")).toBe(true);
    expect(matches("11.0.0.1")).toBe(false);
    expect(matches("192.0.2.7")).toBe(true);
    expect(matches("192.0.2.8")).toBe(false);
    expect(matches("172.31.255.255")).toBe(true);
    expect(matches("172.32.0.0")).toBe(false);
  });

  it("matches v6 CIDRs and v4-mapped addresses", () => {
    expect(matches("2001:db8:1234::1")).toBe(true);
    expect(matches("2001:db9::1")).toBe(false);
    expect(matches("::ffff:10.1.1.1")).toBe(true);
  });

  it("expands keywords and reports bad entries", () => {
    expect(matches("127.0.0.1")).toBe(true);
    expect(matches("::1")).toBe(true);
    expect(invalid).toEqual(["nonsense", "1.2.3.4/33"]);
  });

  it("matches odd prefix lengths bit by bit", () => {
    const m = compileIpList(["100.64.0.0/10", "0.0.0.0/0"]).matches;
    expect(m("8.8.8.8")).toBe(true);
    const only = compileIpList(["100.64.0.0/10"]).matches;
    expect(only("100.127.255.255")).toBe(true);
    expect(only("100.128.0.0")).toBe(false);
    expect(only("garbage")).toBe(false);
  });
});

describe("isNonPublicIp", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "192.168.1.1",
    "172.20.0.1",
    "169.254.1.1",
    "100.64.0.1",
    "::1",
    "fd00::1",
    "fe80::1",
    "0.0.0.0",
  ])("%s is not public", (ip) => expect(isNonPublicIp(ip)).toBe(true));
  it.each(["8.8.8.8", "81.2.69.160", "2001:4860:4860::8888"])("%s is public", (ip) => expect(isNonPublicIp(ip)).toBe(false));
});

describe("resolveClientIp", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 2001:db8::/32 127.0.0.1");

  it("uses the peer when there is no trusted proxy", () => {
    expect(resolveClientIp("203.0.113.9", "1.1.1.1", parseTrustedProxies(undefined))).toBe("203.0.113.9");
    expect(resolveClientIp("203.0.113.9", undefined, trusted)).toBe("203.0.113.9");
  });

  it("ignores X-Forwarded-For from an untrusted peer", () => {
    expect(resolveClientIp("203.0.113.9", "8.8.8.8", trusted)).toBe("203.0.113.9");
  });

  it("takes the hop a trusted proxy saw", () => {
    expect(resolveClientIp("10.0.0.2", "81.2.69.160", trusted)).toBe("81.2.69.160");
    expect(resolveClientIp("::ffff:10.0.0.2", "81.2.69.160", trusted)).toBe("81.2.69.160");
  });

  it("walks the chain right to left, skipping trusted hops, ignoring spoofed entries on the left", () => {
    // The client forged "6.6.6.6"; 81.2.69.160 connected to the edge proxy 10.0.0.5.
    expect(resolveClientIp("10.0.0.2", "6.6.6.6, 81.2.69.160, 10.0.0.5", trusted)).toBe("81.2.69.160");
    expect(resolveClientIp("2001:db8::2", ["6.6.6.6, 2a00:1450::1", "2001:db8::7"], trusted)).toBe("2a00:1450::1");
  });

  it("takes the leftmost hop when every hop is trusted", () => {
    expect(resolveClientIp("10.0.0.2", "10.0.0.9, 10.0.0.5", trusted)).toBe("10.0.0.9");
  });

  it("stops at a malformed hop and keeps the last address a trusted proxy vouched for", () => {
    expect(resolveClientIp("10.0.0.2", "81.2.69.160, garbage, 10.0.0.5", trusted)).toBe("10.0.0.5");
    expect(resolveClientIp("10.0.0.2", "", trusted)).toBe("10.0.0.2");
  });

  it("accepts ports in hops and returns '' without a peer", () => {
    expect(resolveClientIp("127.0.0.1", "81.2.69.160:5123", trusted)).toBe("81.2.69.160");
    expect(resolveClientIp(undefined, "81.2.69.160", trusted)).toBe("");
  });

  it("refuses a misconfigured proxy list loudly", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8,10.0.0.300")).toThrow(/10\.0\.0\.300/);
  });
});
