import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob.js";
import { type EnrichPropertySettings, rulesFor } from "./rules.js";

const settings = (s: Partial<EnrichPropertySettings>): EnrichPropertySettings => ({
  unique_id: "prop1",
  cookieless: false,
  allowed_hostnames: [],
  excluded_ips: [],
  excluded_paths: [],
  ...s,
});

describe("compileGlob", () => {
  it.each([
    ["/admin", "/admin", true],
    ["/admin", "/admin/", false],
    ["/admin/*", "/admin/users", true],
    ["/admin/*", "/admin/users/1", false],
    ["/admin/**", "/admin/users/1", true],
    ["/admin/**", "/admin/", true],
    ["/admin/**", "/administrator", false],
    ["/blog/*/edit", "/blog/hello/edit", true],
    ["/blog/*/edit", "/blog/a/b/edit", false],
    ["/**/preview", "/blog/a/b/preview", true],
    ["/**/preview", "/preview", false],
    ["**/preview", "/preview", true],
    ["*.pdf", "report.pdf", true],
    ["/files/*.pdf", "/files/a.b.pdf", true],
    ["/a.b", "/aXb", false],
    ["/(x)+[y]", "/(x)+[y]", true],
    ["/***", "/anything/at/all", true],
  ])("%s ~ %s = %s", (glob, path, want) => expect(compileGlob(glob)(path)).toBe(want));

  it("stays fast on adversarial patterns and paths", () => {
    const m = compileGlob("/**a**a**a**a**a**a**a**b");
    const start = performance.now();
    expect(m(`/${"a".repeat(2000)}`)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

describe("rulesFor", () => {
  it("allows every host when no hostnames are listed", () => {
    expect(rulesFor(settings({})).hostAllowed("anything.test")).toBe(true);
  });

  it("matches listed hosts with and without www, and *. wildcards for subdomains only", () => {
    const r = rulesFor(settings({ allowed_hostnames: ["https://Example.com/", "*.shop.test"] }));
    expect(r.hostAllowed("example.com")).toBe(true);
    expect(r.hostAllowed("www.example.com")).toBe(true);
    expect(r.hostAllowed("evil-example.com")).toBe(false);
    expect(r.hostAllowed("eu.shop.test")).toBe(true);
    expect(r.hostAllowed("a.b.shop.test")).toBe(true);
    expect(r.hostAllowed("shop.test")).toBe(false);
    expect(r.hostAllowed("badshop.test")).toBe(false);
  });

  it("treats the page host and allowed hosts as internal referrers", () => {
    const r = rulesFor(settings({ allowed_hostnames: ["example.com", "docs.example.org"] }));
    expect(r.isInternalHost("www.site.test", "site.test")).toBe(true);
    expect(r.isInternalHost("docs.example.org", "example.com")).toBe(true);
    expect(r.isInternalHost("google.com", "example.com")).toBe(false);
  });

  it("excludes IPs and paths, ignoring invalid entries", () => {
    const r = rulesFor(settings({ excluded_ips: ["203.0.113.0/24", "oops", "2001:db8::1"], excluded_paths: ["/admin/**", " "] }));
    expect(r.ipExcluded("203.0.113.50")).toBe(true);
    expect(r.ipExcluded("2001:db8::1")).toBe(true);
    expect(r.ipExcluded("8.8.8.8")).toBe(false);
    expect(r.ipExcluded("")).toBe(false);
    expect(r.pathExcluded("/admin/x")).toBe(true);
    expect(r.pathExcluded("/")).toBe(false);
  });

  it("compiles once per settings object", () => {
    const s = settings({});
    expect(rulesFor(s)).toBe(rulesFor(s));
  });
});
