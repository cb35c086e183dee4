// First numbers benchmark (issue #19 item 5, DESIGN.md §8 "Web app"): the bytes a browser fetches
// and the time until the dashboard shows its top stats, on a property with 30 days of traffic.
// Each case opens a fresh browser context (empty cache), signs in, and times the navigation to
// the dashboard until the top stats are filled (aria-busy false, a digit shown). Cases:
//   - compressed:   what the server serves (brotli/gzip chosen by Accept-Encoding),
//   - uncompressed: Accept-Encoding: identity, i.e. the same build without the compression step,
//   - warm:         a second visit in the same context (hashed assets are cached as immutable),
// each on the loopback and on an emulated 10 Mbit/s link with 40 ms of latency, where bytes cost
// time as they do for a person. Budget: the first route's JS under 250 KB gzipped is checked by
// the build (scripts/web-budget.mjs); this reports what the whole first view costs.
// Writes bench/results/first-numbers.json.
//   tsx bench/first-numbers.bench.ts [--runs 5]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { launchPlainBrowser } from "../e2e/browser.js";
import { login } from "../e2e/harness.js";
import { OWNER, seedEvents, startWebServer } from "../e2e/web/support.js";

const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "5" } },
  allowPositionals: true,
  strict: false,
});
const RUNS = Number(args.runs);
const SLOW_LINK = { offline: false, latency: 40, downloadThroughput: (10e6 / 8) | 0, uploadThroughput: (5e6 / 8) | 0 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const web = await startWebServer(
  [{ url: "https://bench.test", name: "Bench" }],
  seedEvents({ indexes: [0], days: 30, visitors: 2000 }),
);
const browser = await launchPlainBrowser();
const answer = await login(web.server, OWNER.email, OWNER.password);
const dashboardUrl = `${web.server.url}/dashboard?property=${encodeURIComponent(web.propertyIds[0] as string)}`;

/** Counts the bytes on the wire (headers and bodies, as received) for every response of the page. */
async function byteCounter(context: BrowserContext, page: Page, slow: boolean): Promise<() => number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (slow) await cdp.send("Network.emulateNetworkConditions", SLOW_LINK);
  let bytes = 0;
  cdp.on("Network.loadingFinished", (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
  });
  return () => bytes;
}

/** Navigates to the dashboard and resolves when the top stats show numbers: ms since navigation. */
async function timeToNumbers(page: Page): Promise<number> {
  const t0 = performance.now();
  await page.goto(dashboardUrl, { waitUntil: "commit" });
  await page.waitForFunction(
    () => {
      const el = document.querySelector(".top-stats");
      return !!el && el.getAttribute("aria-busy") === "false" && /\d/.test(el.textContent ?? "");
    },
    undefined,
    { timeout: 60_000, polling: 25 },
  );
  return performance.now() - t0;
}

interface Sample {
  ms: number;
  bytes: number;
}

async function runCase(identity: boolean, slow: boolean): Promise<{ cold: Sample; warm: Sample }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    ...(identity ? { extraHTTPHeaders: { "Accept-Encoding": "identity" } } : {}),
  });
  try {
    await context.addCookies(answer.cookies.map((c) => ({ ...c, url: web.server.url })));
    await context.addInitScript((a) => {
      localStorage.setItem("userToken", a.token);
      localStorage.setItem("accountId", a.accountId);
      localStorage.setItem("accountId2", a.accountId2);
      localStorage.setItem("userEmail", a.email);
    }, answer);
    const page = await context.newPage();
    const bytes = await byteCounter(context, page, slow);
    const coldMs = await timeToNumbers(page);
    const coldBytes = bytes();
    const warmMs = await timeToNumbers(page);
    return { cold: { ms: coldMs, bytes: coldBytes }, warm: { ms: warmMs, bytes: bytes() - coldBytes } };
  } finally {
    await context.close();
  }
}

const results: Record<string, unknown> = {};
try {
  // One throwaway run so that the server's first-request work is not in the figures.
  await runCase(false, false);
  for (const link of ["loopback", "10mbit_40ms"] as const) {
    for (const encoding of ["compressed", "uncompressed"] as const) {
      const samples: { cold: Sample; warm: Sample }[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await runCase(encoding === "uncompressed", link !== "loopback"));
      const r = {
        cold_ms_p50: Math.round(median(samples.map((s) => s.cold.ms))),
        cold_kb: Math.round(median(samples.map((s) => s.cold.bytes)) / 1024),
        warm_ms_p50: Math.round(median(samples.map((s) => s.warm.ms))),
        warm_kb: Math.round(median(samples.map((s) => s.warm.bytes)) / 1024),
      };
      results[`${link}.${encoding}`] = r;
      console.log(
        `first numbers, ${link}, ${encoding}: cold ${r.cold_ms_p50} ms, ${r.cold_kb} KB on the wire; ` +
          `warm ${r.warm_ms_p50} ms, ${r.warm_kb} KB (p50 of ${RUNS})`,
      );
    }
  }
} finally {
  await browser.close();
  await web.stop();
}

const out = join(dirname(fileURLToPath(import.meta.url)), "results", "first-numbers.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ runs: RUNS, results }, null, 2)}\n`);
console.log(`wrote ${out}`);
