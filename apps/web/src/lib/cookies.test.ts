import { describe, expect, it } from "vitest";
import { readCookie } from "./cookies";

describe("readCookie", () => {
  it("finds a cookie by exact name among others and decodes it", () => {
    const header = "a=1; XSRF-TOKEN=abc%2Bdef; XSRF-TOKEN2=nope";
    expect(readCookie(header, "XSRF-TOKEN")).toBe("abc+def");
  });

  it("is null when absent and keeps undecodable values as they are", () => {
    expect(readCookie("", "XSRF-TOKEN")).toBeNull();
    expect(readCookie("XSRF-TOKEN=%E0%A4%A", "XSRF-TOKEN")).toBe("%E0%A4%A");
  });
});
