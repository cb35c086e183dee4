import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build, GZIP_BUDGET } from "../build.mjs";

describe("tracker build", () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-tracker-build-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("produces a minified IIFE within the gzip budget", async () => {
    const outfile = join(dir, "script.js");
    const { raw, gzipped } = await build({ quiet: true, outfile });
    expect(gzipped).toBeLessThanOrEqual(GZIP_BUDGET);
    const code = readFileSync(outfile, "utf8");
    expect(code.length).toBe(raw);
    // No module syntax may leak into a classic <script>.
    expect(code).not.toMatch(/\bexport\b|\bimport\b/);
    expect(code.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("fails above the budget", async () => {
    await expect(build({ quiet: true, outfile: join(dir, "small.js"), budget: 100 })).rejects.toThrow(/over the 100 B budget/);
  });
});
