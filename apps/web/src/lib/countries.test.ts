// Country names and flags come from the bundled packages, for every code the collector can store.
import { describe, expect, it } from "vitest";
import { alpha2FromNumeric, countryName, flagUrl } from "./countries";

describe("countryName", () => {
  it("uses the common English name", () => {
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("us")).toBe("United States");
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("IR")).toBe("Iran");
    expect(countryName("RU")).toBe("Russia");
    expect(countryName("TW")).toBe("Taiwan");
    expect(countryName("CD")).toBe("Democratic Republic of the Congo");
    expect(countryName("VN")).toBe("Vietnam");
  });

  it("says so when the location is unknown, and shows an unknown code as is", () => {
    expect(countryName(undefined)).toBe("Unknown location");
    expect(countryName("")).toBe("Unknown location");
    expect(countryName("ZZ")).toBe("ZZ");
  });
});

describe("flagUrl", () => {
  it("finds a bundled flag for known codes and none for unknown ones", () => {
    expect(flagUrl("DE")).toMatch(/DE.*\.svg/);
    expect(flagUrl("fr")).toMatch(/FR.*\.svg/);
    expect(flagUrl("GB")).toMatch(/\/GB[^/]*\.svg/);
    expect(flagUrl("ZZ")).toBeNull();
    expect(flagUrl(undefined)).toBeNull();
  });
});

it("maps the world map's numeric codes to alpha-2", () => {
  expect(alpha2FromNumeric("276")).toBe("DE");
  expect(alpha2FromNumeric("840")).toBe("US");
  expect(alpha2FromNumeric(undefined)).toBeUndefined();
});
