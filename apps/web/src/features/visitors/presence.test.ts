import { describe, expect, it } from "vitest";
import { isOnline } from "./presence";

const entry = (clientid: string, propertyId: string, active: boolean) => ({ clientid, propertyId, active });

describe("isOnline", () => {
  it("is true when any of the person's ids is active on this property", () => {
    const entries = [entry("phone", "p1", false), entry("laptop", "p1", true)];
    expect(isOnline(entries, "p1", ["phone", "laptop"])).toBe(true);
    expect(isOnline(entries, "p1", ["phone"])).toBe(false);
  });

  it("ignores the same client id on another property and visitors who left", () => {
    expect(isOnline([entry("a", "p2", true)], "p1", ["a"])).toBe(false);
    expect(isOnline([entry("a", "p1", false)], "p1", ["a"])).toBe(false);
    expect(isOnline([], "p1", ["a"])).toBe(false);
  });
});
