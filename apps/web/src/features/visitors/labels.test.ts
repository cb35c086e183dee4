import { describe, expect, it } from "vitest";
import { deviceLabel, formatMoney, placeLabel, visitorLabel } from "./labels";

describe("visitor labels", () => {
  it("names a visitor by name, else e-mail, else the start of the client id", () => {
    expect(visitorLabel({ name: " Ada ", email: "ada@example.com", client_id: "abc" })).toBe("Ada");
    expect(visitorLabel({ name: "", email: "ada@example.com", client_id: "abc" })).toBe("ada@example.com");
    expect(visitorLabel({ name: "", email: "", client_id: "0123456789abcdef" })).toBe("Visitor 0123456789ab");
  });

  it("writes a place from what is known, without repeating a city-state", () => {
    expect(placeLabel({ city: "Lyon", region: "Auvergne-Rhône-Alpes", country: "FR" })).toBe(
      "Lyon, Auvergne-Rhône-Alpes, France",
    );
    expect(placeLabel({ city: "Singapore", region: "Singapore", country: "" })).toBe("Singapore");
    expect(placeLabel({ city: "", region: "", country: "" })).toBe("Unknown location");
  });

  it("describes a device, skipping unknown parts", () => {
    expect(deviceLabel({ device: "mobile", browser: "Safari", os: "iOS" })).toBe("Mobile · Safari · iOS");
    expect(deviceLabel({ device: "", browser: "unknown", os: "" })).toBe("Unknown device");
  });

  it("formats revenue with its currency when it has a valid one", () => {
    expect(formatMoney(12.5, "EUR")).toMatch(/12[.,]50/);
    expect(formatMoney(12.5, "EUR")).toContain("€");
    expect(formatMoney(3, "XX1")).toMatch(/^3 XX1$/);
    expect(formatMoney(1234.5)).toMatch(/^1[,.\s ]?234[.,]5$/);
  });
});
