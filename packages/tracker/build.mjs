// Builds the tracker: src/script.ts -> dist/script.js (minified IIFE) and enforces the size
// budget (DESIGN.md §8: under 1.5 KB gzipped). Run directly (`npm run build`) or import `build`.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
export const ENTRY = join(here, "src", "script.ts");
export const OUTFILE = join(here, "dist", "script.js");
export const GZIP_BUDGET = 1536;

/** Builds dist/script.js; rejects (after writing it) when the gzipped size exceeds the budget. */
export async function build({ quiet = false, outfile = OUTFILE, budget = GZIP_BUDGET } = {}) {
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "iife",
    minify: true,
    target: ["es2020"],
    legalComments: "none",
    write: false,
  });
  const code = result.outputFiles[0].contents;
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, code);
  const raw = code.byteLength;
  const gzipped = gzipSync(code, { level: 9 }).byteLength;
  if (!quiet) console.log(`tracker: ${outfile} ${raw} B raw, ${gzipped} B gzipped (budget ${budget} B)`);
  if (gzipped > budget) {
    throw new Error(`tracker is ${gzipped} B gzipped, over the ${budget} B budget`);
  }
  return { raw, gzipped, file: outfile };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  build().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
