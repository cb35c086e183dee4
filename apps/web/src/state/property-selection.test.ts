import type { Property } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import {
  parseStoredProperty,
  pickProperty,
  readLinkedProperty,
  resolveLinkedProperty,
  serializeProperty,
  withLinkedProperty,
} from "./property-selection";

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

describe("the property a URL names", () => {
  it("reads a unique_id and ignores what cannot be one", () => {
    expect(readLinkedProperty(new URLSearchParams("property=p1&period=day"))).toBe("p1");
    expect(readLinkedProperty(new URLSearchParams("property=Ab_9-x"))).toBe("Ab_9-x");
    expect(readLinkedProperty(new URLSearchParams(""))).toBeNull();
    expect(readLinkedProperty(new URLSearchParams("property="))).toBeNull();
    expect(readLinkedProperty(new URLSearchParams("property=..%2Fadmin"))).toBeNull();
    expect(readLinkedProperty(new URLSearchParams("property=a%20b"))).toBeNull();
    expect(readLinkedProperty(new URLSearchParams(`property=${"x".repeat(129)}`))).toBeNull();
  });

  it("is set or removed keeping the other parameters", () => {
    const p = new URLSearchParams("property=p1&period=last_30_days&filters=page%3D%3D%2Fx");
    expect(withLinkedProperty(p, "p2").toString()).toBe("property=p2&period=last_30_days&filters=page%3D%3D%2Fx");
    expect(withLinkedProperty(p, null).toString()).toBe("period=last_30_days&filters=page%3D%3D%2Fx");
    expect(p.get("property")).toBe("p1");
  });
});

describe("resolveLinkedProperty", () => {
  it("takes a listed property, even while the list reloads", () => {
    expect(resolveLinkedProperty("p1", [site], "ready")).toEqual({
      kind: "select",
      property: { unique_id: "p1", website_url: "https://example.com" },
    });
    expect(resolveLinkedProperty("p1", [site], "loading").kind).toBe("select");
  });

  it("waits for the list, then calls a missing id unknown instead of storing it", () => {
    expect(resolveLinkedProperty("p2", [], "loading")).toEqual({ kind: "wait" });
    expect(resolveLinkedProperty("p2", [site], "ready")).toEqual({ kind: "unknown", id: "p2" });
  });

  it("keeps SPEC.md's id-only selection when the list could not load", () => {
    expect(resolveLinkedProperty("p2", [], "failed")).toEqual({ kind: "select", property: { unique_id: "p2" } });
  });
});
