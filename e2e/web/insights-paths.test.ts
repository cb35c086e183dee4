// The paths insight (#23 item 4) in Chromium against a real server seeded with 30 days of
// synthetic traffic: build it from scratch (pages from "/", 4 steps), see the API's edges in the
// table under the Sankey, open the visitors of a node and follow one to their page, save it, reload
// it by URL; axe-core clean and screenshots in both themes, desktop and phone (under SHOTS_DIR,
// else /tmp/shots/paths).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { insightSuite } from "./insight-suite";
import { PHONE } from "./support";

const { suite, shot, open, query } = insightSuite({ shots: "/tmp/shots/paths" });

const SPEC = { kind: "paths", period: "last_30_days", type: "pageview", start: "/", steps: 4 };
type Edge = { step: number; source: string; target: string; visitors: number };

type Node = { step: number; node: string; visitors: number };
async function apiAnswer(): Promise<{ edges: Edge[]; nodes: Node[] }> {
  return (await query<{ edges: Edge[]; nodes: Node[] }>(SPEC)).results;
}

const tableRows = (page: Page) =>
  page
    .locator("[data-testid=paths-table] tbody tr")
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent?.trim() ?? "")));

describe("paths insight", () => {
  it("is built from scratch, shows the API's edges, lists a node's visitors, saves and reloads", {
    timeout: 180_000,
  }, async () => {
    const { page } = await suite.open();
    await open(page, "/product-analytics/insights/new?kind=paths");
    await page.getByLabel("Name").fill("From the home page");
    await page.locator("#paths-start").fill("/");
    await page.locator("#paths-steps").selectOption("4");

    const { edges, nodes } = await apiAnswer();
    expect(edges.length).toBeGreaterThan(0);
    const expected = edges.map((e) => [String(e.step), e.source, e.target, e.visitors.toLocaleString("en-US")]);
    await expect.poll(() => tableRows(page), { timeout: 30_000 }).toEqual(expected);
    await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
    expect(JSON.parse(new URL(page.url()).searchParams.get("q") ?? "{}")).toMatchObject({ kind: "paths", start: "/", steps: 4 });

    // The visitors at the first edge's target: as many as the API's node says, each a link to their page.
    const first = edges[0] as Edge;
    await page.locator("[data-testid=paths-table] tbody tr").first().locator("td").nth(2).getByRole("button").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("link").first().waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole("heading").textContent()).toBe(`Visitors at step ${first.step + 1}: ${first.target}`);
    const node = nodes.find((n) => n.step === first.step + 1 && n.node === first.target);
    expect(await dialog.getByRole("link").count()).toBe(Math.min(50, node?.visitors ?? -1));
    expect(describeViolations(await axeViolations(page))).toBe("");
    await page.screenshot({ path: shot("paths-actors-light-desktop.png") });
    // The insight is unsaved (its name is typed, not in the URL): leaving for the visitor asks first.
    await dialog.getByRole("link").first().click();
    await page.getByRole("button", { name: "Leave", exact: true }).click();
    await page.waitForURL(/\/customers\//);

    await open(page, `/product-analytics/insights/new?q=${encodeURIComponent(JSON.stringify(SPEC))}`);
    await page.getByLabel("Name").fill("From the home page");
    await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/product-analytics\/insights\/[A-Za-z0-9]{8}$/);
    const url = new URL(page.url()).pathname;

    for (const theme of ["light", "dark"] as const) {
      await open(page, url, theme);
      await expect.poll(() => page.locator("main h1").first().textContent()).toBe("From the home page");
      await page.locator("[data-testid=insight-chart] canvas").waitFor({ timeout: 20_000 });
      expect(await tableRows(page)).toEqual(expected);
      expect(await page.locator("#paths-start").inputValue()).toBe("/");
      expect(describeViolations(await axeViolations(page))).toBe("");
      await page.screenshot({ path: shot(`paths-${theme}-desktop.png`), fullPage: true });
      await page.setViewportSize(PHONE);
      await page.locator("[data-testid=insight-chart] canvas").waitFor();
      await page.screenshot({ path: shot(`paths-${theme}-phone.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
