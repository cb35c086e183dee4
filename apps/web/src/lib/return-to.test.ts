import { describe, expect, it } from "vitest";
import { afterLoginTarget, loginPathFor, safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it("keeps a same-origin path with its query and hash", () => {
    expect(safeReturnTo("/dashboard?property=p1&period=last_30_days&filters=page%3D%3D%2Fx")).toBe(
      "/dashboard?property=p1&period=last_30_days&filters=page%3D%3D%2Fx",
    );
    expect(safeReturnTo("/live?property=p1#top")).toBe("/live?property=p1#top");
  });

  it("refuses absolute, protocol-relative and backslash URLs (open redirects)", () => {
    for (const bad of [
      "https://evil.example/dashboard",
      "//evil.example/dashboard",
      "/\\evil.example",
      "\\\\evil.example",
      "/%5Cevil.example",
      "javascript:alert(1)",
      "dashboard",
      " /dashboard",
      "/\tevil",
      "/\n/evil.example",
      "",
      null,
      undefined,
    ]) {
      const got = safeReturnTo(bad);
      // %5C stays encoded, so it names a path on this site, never another host.
      if (bad === "/%5Cevil.example") expect(got).toBe("/%5Cevil.example");
      else expect(got, String(bad)).toBeNull();
    }
  });

  it("resolves dot segments without leaving the site", () => {
    expect(safeReturnTo("/a/../live?property=p1")).toBe("/live?property=p1");
    expect(safeReturnTo("/../..//evil.example")).toBeNull();
    expect(safeReturnTo("/.//evil.example")).toBeNull();
  });

  it("refuses the auth screens themselves", () => {
    expect(safeReturnTo("/login?next=/dashboard")).toBeNull();
    expect(safeReturnTo("/logout")).toBeNull();
  });
});

describe("login round trip", () => {
  it("carries a deep link through /login?next=", () => {
    const target = "/dashboard?property=p1&period=custom&date=2025-01-01,2025-01-31";
    const login = loginPathFor(target);
    expect(login.startsWith("/login?next=")).toBe(true);
    expect(afterLoginTarget(new URL(login, "http://x").searchParams)).toBe(target);
  });

  it("leaves /login plain for the default target", () => {
    expect(loginPathFor("/dashboard")).toBe("/login");
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("//evil.example")).toBe("/login");
  });

  it("falls back to /dashboard for a missing or unsafe next", () => {
    expect(afterLoginTarget(new URLSearchParams(""))).toBe("/dashboard");
    expect(afterLoginTarget(new URLSearchParams("next=https://evil.example"))).toBe("/dashboard");
    expect(afterLoginTarget(new URLSearchParams("next=//evil.example"))).toBe("/dashboard");
  });
});
