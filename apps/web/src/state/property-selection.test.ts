import type { Property } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { parseStoredProperty, pickProperty, serializeProperty } from "./property-selection";

const site: Property = {
  unique_id: "p1",
  website_url: "https://example.com",
  name: "Example",
  timezone: "UTC",
  account_id: "a1",
  created_at: "2025-01-01T00:00:00.000Z",
};

describe("pickProperty", () => {
  it("keeps the id and URL of a listed property", () => {
    expect(pickProperty([site], "p1")).toEqual({ unique_id: "p1", website_url: "https://example.com" });
  });

  it("keeps only the id of a property missing from the list", () => {
    expect(pickProperty([site], "p2")).toEqual({ unique_id: "p2" });
  });
});

describe("stored selection", () => {
  it("round-trips", () => {
    const p = { unique_id: "p1", website_url: "" };
    expect(parseStoredProperty(serializeProperty(p))).toEqual(p);
  });

  it("ignores nothing, broken JSON and foreign shapes", () => {
    expect(parseStoredProperty(null)).toBeNull();
    expect(parseStoredProperty("{")).toBeNull();
    expect(parseStoredProperty('{"id":1}')).toBeNull();
  });
});
