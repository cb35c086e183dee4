import { describe, expect, it } from "vitest";
import { createGeoLookup, geoFromRecord } from "./geo.js";

// Countries as the shipped @ip-location-db database has them (checked against it, not assumed).
describe("geo lookup on the shipped country database", () => {
  const geo = createGeoLookup();

  it.each([
    ["8.8.8.8", "US"],
    ["1.1.1.1", "AU"],
    ["81.2.69.160", "GB"],
    ["91.198.174.192", "NL"],
    ["133.242.0.3", "JP"],
    ["200.160.2.3", "BR"],
    ["2001:4860:4860::8888", "US"],
    ["::ffff:8.8.8.8", "US"],
  ])("%s is in %s", async (ip, country) => {
    expect(await geo.lookup(ip)).toEqual({ country, region: "", city: "" });
  });

  it.each(["127.0.0.1", "10.0.0.1", "192.168.1.10", "::1", "fd12::1", "", "not-an-ip"])(
    "%j is unknown without a lookup",
    async (ip) => {
      expect(await geo.lookup(ip)).toEqual({ country: "", region: "", city: "" });
    },
  );
});

describe("a missing database", () => {
  it("fails ready() but never a lookup", async () => {
    const geo = createGeoLookup({ countryDbPath: "/nonexistent/country.mmdb" });
    await expect(geo.ready()).rejects.toThrow();
    expect(await geo.lookup("8.8.8.8")).toEqual({ country: "", region: "", city: "" });
  });
});

describe("geoFromRecord", () => {
  it("reads MaxMind GeoLite2-City records", () => {
    const rec = {
      country: { iso_code: "GB", names: { en: "United Kingdom" } },
      subdivisions: [{ iso_code: "ENG", names: { en: "England" } }],
      city: { names: { en: "London", de: "London" } },
    };
    expect(geoFromRecord(rec)).toEqual({ country: "GB", region: "England", city: "London" });
  });

  it("reads ip-location-db city records", () => {
    expect(geoFromRecord({ country_code: "us", state1: "California", city: "Mountain View" })).toEqual({
      country: "US",
      region: "California",
      city: "Mountain View",
    });
  });

  it("treats missing or odd records as unknown", () => {
    expect(geoFromRecord(null)).toEqual({ country: "", region: "", city: "" });
    expect(geoFromRecord({ country_code: "ZZZ" })).toEqual({ country: "", region: "", city: "" });
    expect(geoFromRecord({ country_code: 7 })).toEqual({ country: "", region: "", city: "" });
  });
});
