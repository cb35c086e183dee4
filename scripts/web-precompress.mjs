// Post-build step of the web app (apps/web `npm run build`): writes a brotli (.br) and a gzip (.gz)
// copy next to every compressible file in dist/, so the server sends compressed bytes without
// compressing on each request (apps/server/src/web/routes.ts negotiates Accept-Encoding).
// A copy is written only when it is smaller than the file; the server falls back to the next.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;

/** Every file under `dir`, recursively (paths joined to `dir`), but dot files: never served. */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

export const brotli = (buf) =>
  brotliCompressSync(buf, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
    },
  });
export const gzip = (buf) => gzipSync(buf, { level: 9 });

/** Compresses every compressible file under `dir`; answers the counts of files and bytes. */
export function precompress(dir) {
  let count = 0;
  let before = 0;
  let after = 0;
  for (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const buf = readFileSync(path);
    const br = brotli(buf);
    const gz = gzip(buf);
    if (br.length < buf.length) writeFileSync(`${path}.br`, br);
    if (gz.length < buf.length) writeFileSync(`${path}.gz`, gz);
    count++;
    before += buf.length;
    after += Math.min(br.length, buf.length);
  }
  return { count, before, after };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = resolve(process.argv[2] ?? "dist");
  const { count, before, after } = precompress(dir);
  console.log(`precompressed ${count} files in ${dir}: ${before} bytes, ${after} with brotli`);
}
