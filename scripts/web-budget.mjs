// DESIGN.md §8's budget for the web app, checked after every web build (apps/web `npm run build`
// runs this and fails over budget): the first route's JS under 250 KB gzipped. The first route is
// what the router loads to show a signed-in person the dashboard (its numbers): the entry
// (index.html), the shell and the dashboard page, each with everything it imports statically,
// read from Vite's manifest. The page's charts are lazy chunks that load beside the numbers; their
// bytes are printed too, as "with charts", so a report can quote both.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

export const BUDGET_JS_GZIP = 250_000;

/** Source modules (keys of the manifest) of the first route. */
export const FIRST_ROUTE = ["index.html", "src/features/shell/DefaultLayout.tsx", "src/features/dashboard/DashboardPage.tsx"];

/** The lazy chunks the dashboard opens with: the main chart, the default Locations tab's map and its atlas. */
export const DASHBOARD_CHARTS = [
  "src/components/charts/TimeseriesChart.tsx",
  "src/components/charts/WorldMap.tsx",
  "../../node_modules/topojson-client/src/index.js",
  "../../node_modules/world-atlas/countries-110m.json",
];

/** The modules' files (relative to dist) and their gzipped bytes, JS and CSS apart. */
export function firstRoute(dist, modules = FIRST_ROUTE) {
  const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the web build's manifest: update scripts/web-budget.mjs`);
    if (js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const key of modules) visit(key);
  const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  const sum = (files) => [...files].reduce((n, f) => n + gz(f), 0);
  return { files: [...js, ...css], jsGzip: sum(js), cssGzip: sum(css) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dist = resolve(process.argv[2] ?? "dist");
  const route = firstRoute(dist);
  const charts = firstRoute(dist, [...FIRST_ROUTE, ...DASHBOARD_CHARTS]);
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `first route: JS ${kb(route.jsGzip)} gzipped (budget ${kb(BUDGET_JS_GZIP)}), CSS ${kb(route.cssGzip)}; ` +
      `with the dashboard's charts: JS ${kb(charts.jsGzip)}`,
  );
  if (route.jsGzip > BUDGET_JS_GZIP) {
    console.error(`over DESIGN.md §8's budget: the first route's JS is ${kb(route.jsGzip)} gzipped, over ${kb(BUDGET_JS_GZIP)}`);
    process.exit(1);
  }
}
