// Builds the server and the CLI into plain ESM (dist/main.mjs, dist/cli.mjs, and the event store's
// thread, dist/duckdb-worker.mjs) for `npm start`, `npm run lookout` and the tests that start a
// real server. The workspace packages (@lookout/*) are bundled in; everything from the registry
// stays an import from node_modules.
// Why a bundle rather than running the sources through tsx: tsx compiles on a module-hooks thread
// that lives as long as the process, ~70 MB resident of the 300 MB idle budget (DESIGN.md §8).
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const outdir = join(here, "dist");

/**
 * Keeps registry packages external: they load from node_modules as they would without a bundle.
 * A package installed under a workspace package's own node_modules (not hoisted to the root) is
 * imported by its path relative to dist/, since the bundle no longer sits beside that package.
 */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@lookout/") || args.path.startsWith("node:") || args.pluginData === "inner") return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "inner" });
      if (found.errors.length > 0 || !found.path.includes("/node_modules/")) return { path: args.path, external: true };
      const hoisted = found.path.startsWith(join(root, "node_modules") + sep);
      return { path: hoisted ? args.path : relative(outdir, found.path).split(sep).join("/"), external: true };
    });
  },
};

export async function build() {
  await esbuild.build({
    entryPoints: {
      main: join(here, "src/main.ts"),
      cli: join(here, "src/cli/main.ts"),
      // The embedded event store's thread (packages/storage duckdb-thread-store.ts).
      "duckdb-worker": join(root, "packages/storage/src/events/duckdb-worker.ts"),
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    plugins: [externalPackages],
    logLevel: "warning",
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await build();
