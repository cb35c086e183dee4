// How the built web app is delivered, on a small built-like dist/ made here (not the real build,
// which other work rebuilds concurrently): brotli and gzip copies written by the build step
// (scripts/web-precompress.mjs) chosen by Accept-Encoding, identity without one, the bytes
// decompressing to the file; immutable caching for hashed assets, no-cache for the rest; and the
// first-route budget check (scripts/web-budget.mjs) summing the manifest's closure.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without types
import { firstRoute } from "../../../../scripts/web-budget.mjs";
// @ts-expect-error plain ESM script without types
import { precompress } from "../../../../scripts/web-precompress.mjs";
import { createTestApp, type TestApp } from "../test-support.js";
import { acceptedEncodings, cacheControlFor } from "./routes.js";

const dist = mkdtempSync(join(tmpdir(), "lookout-web-dist-"));
// Repetitive enough to compress well, like real bundles.
const js = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "row ${i}" }`).join(", ")}];\n`;
const css = `${Array.from({ length: 200 }, (_, i) => `.c${i} { margin: ${i}px; }`).join("\n")}\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-AbCd12_-.js"></script>${"<!-- pad -->".repeat(50)}</head><body><div id="root"></div></body></html>\n`;

describe("web app delivery", () => {
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(join(dist, "assets"));
    mkdirSync(join(dist, ".vite"));
    writeFileSync(join(dist, "index.html"), html);
    writeFileSync(join(dist, "theme-init.js"), js);
    writeFileSync(join(dist, "assets/index-AbCd12_-.js"), js);
    writeFileSync(join(dist, "assets/index-Zz9_Yy8x.css"), css);
    writeFileSync(join(dist, "assets/Page-Qq1Ww2Ee.js"), `${js}// page\n`);
    writeFileSync(join(dist, "assets/Other-Rr3Tt4Uu.js"), `${js}// other\n`);
    writeFileSync(
      join(dist, ".vite/manifest.json"),
      JSON.stringify({
        "index.html": { file: "assets/index-AbCd12_-.js", css: ["assets/index-Zz9_Yy8x.css"], isEntry: true },
        "src/features/shell/DefaultLayout.tsx": { file: "assets/Page-Qq1Ww2Ee.js", imports: ["index.html"] },
        "src/other.tsx": { file: "assets/Other-Rr3Tt4Uu.js" },
      }),
    );
    precompress(dist);
    t = await createTestApp("pglite", { webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: "GET", url, headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } });

  it("writes brotli and gzip copies next to each compressible file", () => {
    const file = readFileSync(join(dist, "assets/index-AbCd12_-.js"));
    expect(brotliDecompressSync(readFileSync(join(dist, "assets/index-AbCd12_-.js.br")))).toEqual(file);
    expect(gunzipSync(readFileSync(join(dist, "assets/index-AbCd12_-.js.gz")))).toEqual(file);
    expect(gunzipSync(readFileSync(join(dist, "index.html.gz"))).toString()).toBe(html);
  });

  it.each([
    ["br, gzip", "br"],
    ["gzip, deflate, br;q=0", "gzip"],
    ["gzip", "gzip"],
    ["*", "gzip"],
  ])("sends a hashed asset pre-compressed for Accept-Encoding %s, immutable", async (accept, encoding) => {
    const r = await get("/assets/index-AbCd12_-.js", accept);
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-encoding"]).toBe(encoding);
    expect(r.headers["content-type"]).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = r.rawPayload;
    expect((encoding === "br" ? brotliDecompressSync(body) : gunzipSync(body)).toString()).toBe(js);
    expect(body.length).toBeLessThan(js.length / 2);
  });

  it("sends the file itself without Accept-Encoding, or with codings it has no copy in", async () => {
    for (const accept of [undefined, "identity", "deflate", "br;q=0, gzip;q=0"]) {
      const r = await get("/assets/index-Zz9_Yy8x.css", accept);
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-encoding"]).toBeUndefined();
      expect(r.headers["content-type"]).toBe("text/css; charset=utf-8");
      expect(r.body).toBe(css);
      expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
  });

  it("revalidates unhashed files, compressed too", async () => {
    const r = await get("/theme-init.js", "gzip");
    expect(r.headers["cache-control"]).toBe("no-cache");
    expect(r.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(r.rawPayload).toString()).toBe(js);
  });

  it("sends index.html (the SPA fallback) compressed by Accept-Encoding, never cached without revalidation", async () => {
    for (const [accept, decode] of [
      ["br", brotliDecompressSync],
      ["gzip", gunzipSync],
    ] as const) {
      const r = await get("/dashboard?period=7d", accept);
      expect(r.statusCode).toBe(200);
      expect(r.headers["content-encoding"]).toBe(accept);
      expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(r.headers["cache-control"]).toBe("no-cache");
      expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
      expect(decode(r.rawPayload).toString()).toBe(html);
    }
    const plain = await get("/dashboard");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(html);
  });

  it("does not serve the build's manifest (a dot directory)", async () => {
    expect((await get("/.vite/manifest.json")).statusCode).toBe(404);
  });

  it("keeps API answers and unknown API paths as they were", async () => {
    const r = await get("/api/nothing-here", "br, gzip");
    expect(r.statusCode).toBe(404);
    expect(r.headers["content-encoding"]).toBeUndefined();
  });

  it("tells hashed assets from other files", () => {
    expect(cacheControlFor("/srv/dist/assets/chunk-6KYCQHYJ-CK7N_rfP.js.br")).toMatch(/immutable/);
    expect(cacheControlFor("/srv/dist/assets/AC-CY7JRpx3.svg")).toMatch(/immutable/);
    expect(cacheControlFor("/srv/dist/theme-init.js")).toBe("no-cache");
    expect(cacheControlFor("/srv/dist/favicon.svg")).toBe("no-cache");
    expect(cacheControlFor("/srv/dist/assets/logo.svg")).toBe("no-cache");
  });

  it("reads Accept-Encoding with q-values", () => {
    expect([...acceptedEncodings("gzip;q=0.5, br;q=0")]).toEqual(["gzip"]);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
    expect(acceptedEncodings("*;q=0").size).toBe(0);
  });

  it("sums the first route's gzipped JS from the manifest's static closure", () => {
    const gz = (f: string) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
    // Only the two modules of FIRST_ROUTE this manifest has count; a missing one is an error.
    expect(() => firstRoute(dist)).toThrow(/not in the web build's manifest/);
    const partial = firstRoute(dist, ["index.html", "src/features/shell/DefaultLayout.tsx"]);
    expect(partial.jsGzip).toBe(gz("assets/index-AbCd12_-.js") + gz("assets/Page-Qq1Ww2Ee.js"));
    expect(partial.cssGzip).toBe(gz("assets/index-Zz9_Yy8x.css"));
    expect(partial.files).not.toContain("assets/Other-Rr3Tt4Uu.js");
  });
});
