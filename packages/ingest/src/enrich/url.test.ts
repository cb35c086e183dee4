import { describe, expect, it } from "vitest";
import { parsePageUrl } from "./url.js";

describe("parsePageUrl", () => {
  it("splits host and path, strips the query, reads utm tags", () => {
    const p = parsePageUrl(
      "https://WWW.Example.com:8443/blog/post?utm_source=news&utm_medium=email&utm_campaign=spring&utm_term=x&utm_content=hero&token=secret#top",
    );
    expect(p).toEqual({
      host: "www.example.com",
      hostname: "example.com",
      path: "/blog/post",
      url: "https://www.example.com:8443/blog/post",
      utm: { source: "news", medium: "email", campaign: "spring", term: "x", content: "hero" },
      sourceTag: "news",
      paidClickId: false,
    });
  });

  it("keeps the fragment as part of the path for hash-routed sites", () => {
    const p = parsePageUrl("https://app.example.com/#/settings/profile?tab=1", true);
    expect(p.path).toBe("/#/settings/profile?tab=1");
    expect(p.url).toBe("https://app.example.com/#/settings/profile?tab=1");
    expect(parsePageUrl("https://app.example.com/#/settings").path).toBe("/");
  });

  it("falls back to ref= and source= and notices ad click ids", () => {
    expect(parsePageUrl("https://example.com/?ref=hn").sourceTag).toBe("hn");
    expect(parsePageUrl("https://example.com/?source=blog").sourceTag).toBe("blog");
    expect(parsePageUrl("https://example.com/?gclid=1").paidClickId).toBe(true);
  });

  it("caps long tags", () => {
    expect(parsePageUrl(`https://example.com/?utm_campaign=${"a".repeat(1000)}`).utm.campaign).toHaveLength(300);
  });
});
