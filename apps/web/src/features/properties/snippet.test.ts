// The snippet carries exactly the tracker's own attributes (packages/tracker/src/script.ts reads
// each with getAttribute("data-…")), and the server's 400 details map to lines.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../lib/http";
import { issuesOf, lineIssues } from "./field-errors";
import { SNIPPET_ATTRIBUTES, trackerSnippet } from "./snippet";

const SCRIPT = readFileSync(new URL("../../../../../packages/tracker/src/script.ts", import.meta.url), "utf8");

describe("trackerSnippet", () => {
  it("writes the base tag, then each chosen option as a boolean attribute", () => {
    expect(trackerSnippet("https://a.test", "abc")).toBe(
      '<script defer src="https://a.test/js/script.js" data-property="abc"></script>',
    );
    expect(trackerSnippet("https://a.test", "abc", { outbound: true, downloads: false, hash: true, cookieless: true })).toBe(
      '<script defer src="https://a.test/js/script.js" data-property="abc" data-outbound data-hash data-cookieless></script>',
    );
  });

  it("uses only attributes the tracker reads", () => {
    for (const attr of Object.values(SNIPPET_ATTRIBUTES)) {
      expect(SCRIPT, attr).toContain(`attr("${attr.slice("data-".length)}")`);
    }
  });
});

describe("lineIssues", () => {
  it("reads the index of each bad entry from the details' paths", () => {
    const err = new HttpError(400, "settings.excluded_ips.1: bad", "invalid_request", [
      { path: "settings.excluded_ips.1", message: '"x" is not an IP address' },
      { path: "settings.excluded_ips", message: "at most 100 addresses" },
      { path: "settings.excluded_paths.0", message: "bad path" },
    ]);
    const issues = issuesOf(err);
    expect(lineIssues(issues, "settings.excluded_ips")).toEqual([
      { line: 1, message: '"x" is not an IP address' },
      { line: null, message: "at most 100 addresses" },
    ]);
    expect(lineIssues(issues, "settings.allowed_hostnames")).toEqual([]);
    expect(issuesOf(new Error("x"))).toEqual([]);
  });
});
