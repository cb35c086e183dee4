// The embed snippet: the compact layout's address, and a title that cannot break out of its attribute.
import { describe, expect, it } from "vitest";
import { embedSnippet } from "./api";

describe("embedSnippet", () => {
  it("frames the link's compact layout with an escaped title", () => {
    const s = embedSnippet("https://stats.example/share/AbCdEfGhIjKlMnOpQrSt_-", 'A "quoted" <site> & more');
    expect(s).toContain('src="https://stats.example/share/AbCdEfGhIjKlMnOpQrSt_-?embed=true"');
    expect(s).toContain('title="A &#34;quoted&#34; &#60;site&#62; &#38; more"');
    expect(s).toMatch(/^<iframe [^<>]*><\/iframe>$/);
  });
});
