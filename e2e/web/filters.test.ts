// The dashboard's filter control (issue #19 item 2) against a real server with seeded traffic: the
// Filter dialog picks a dimension, an operator and values suggested from the data; the chip says
// the operator; the numbers are the Stats API's under that filter; the filter lives in the URL
// (reload keeps it), a chip edits and removes; a bad pattern is refused in place with the server's
// own words; axe-core finds nothing on the open dialog in either theme, desktop and phone.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, type LoginAnswer, PHONE, seedEvents, signIn, THEME_KEY } from "./support";

const suite = browserSuite(
  [{ url: "https://shop.example", name: "Shop" }],
  seedEvents({ indexes: [0], days: 30, visitors: 150 }),
);
const shop = () => suite.web.propertyIds[0] as string;
const SHOTS = process.env.FILTER_SHOTS_DIR;

let session: LoginAnswer;
beforeAll(async () => {
  session = await login(suite.web.server);
});

type Json = Record<string, unknown>;

/** The Stats API's `results`, as the dashboard asks for them. */
async function stats<T = Json>(path: string, params: Record<string, string>): Promise<T> {
  const qs = new URLSearchParams({ property_id: shop(), ...params });
  const r = await fetch(`${suite.web.server.url}/api/v1/stats/${path}?${qs}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await r.json()) as { results: T };
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(body)}`);
  return body.results;
}

async function visitors(filters?: string): Promise<number> {
  const agg = await stats<Record<string, { value: number }>>("aggregate", {
    period: "last_30_days",
    metrics: "visitors",
    ...(filters ? { filters } : {}),
  });
  return agg.visitors?.value as number;
}

/** Waits until the Visitors card shows `n` (and nothing is loading). */
async function expectVisitorsCard(page: Page, n: number) {
  await page.waitForFunction(
    (value) =>
      document.querySelector('.stat-card[data-metric="visitors"] .stat-value')?.getAttribute("data-value") === String(value) &&
      !document.querySelector(".top-stats[aria-busy='true']"),
    n,
  );
}

async function openDashboard(page: Page, query = "", theme: "light" | "dark" = "light") {
  await signIn(page, suite.web.server, session);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" }));
      localStorage.setItem(key, theme);
    },
    { id: shop(), theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/dashboard?property=${shop()}&period=last_30_days${query}`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
}

const dialog = (page: Page) => page.locator(".modal.show.filter-dialog");
/** The dialog's suggestions (not the options of its selects). */
const listbox = (d: Locator) => d.getByRole("listbox", { name: "Suggested values" });
const suggested = (d: Locator) => listbox(d).getByRole("option");
const filtersParam = (page: Page) => new URL(page.url()).searchParams.get("filters");

async function openFilterDialog(page: Page) {
  await page.locator(".filter-bar").getByRole("button", { name: "Filter", exact: true }).click();
  await dialog(page).getByRole("heading", { name: "Add filter" }).waitFor();
}

describe("the filter dialog", () => {
  it("filters by country is not two values picked from the suggestions; reload keeps it; the chip edits and removes", async () => {
    const { page } = await suite.open();
    await openDashboard(page);
    await expectVisitorsCard(page, await visitors());

    const top = await stats<Json[]>("breakdown", { period: "last_30_days", dimension: "country", limit: "2" });
    const [a, b] = top.map((r) => String(r.country)) as [string, string];
    expect(a && b).toBeTruthy();

    await openFilterDialog(page);
    const d = dialog(page);
    await d.getByLabel("Filter by").selectOption("country");
    await d.getByLabel("Operator").selectOption("is_not");
    const box = d.getByRole("combobox", { name: "Value" });
    // Suggestions come by visitors, as the API's breakdown: its first two countries, by name.
    await suggested(d).nth(1).waitFor();
    const names = await suggested(d).allTextContents();
    expect(names.length).toBeGreaterThan(2);
    const [nameA, nameB] = names as [string, string];
    const countryName = (code: string) => (code === a ? nameA : code === b ? nameB : code);
    // The first by clicking a suggestion found by (part of) its name.
    await box.fill(countryName(a).slice(0, 4));
    await listbox(d)
      .getByRole("option", { name: countryName(a) })
      .click();
    await d.getByRole("list", { name: "Chosen values" }).getByText(countryName(a)).waitFor();
    // The second by keyboard: the first suggestion, then Enter.
    await box.fill(countryName(b));
    await listbox(d)
      .getByRole("option", { name: countryName(b) })
      .waitFor();
    await box.press("ArrowDown");
    expect(await box.getAttribute("aria-activedescendant")).toBeTruthy();
    await box.press("Enter");
    await d.getByRole("list", { name: "Chosen values" }).getByText(countryName(b)).waitFor();
    // A chosen value is no longer suggested.
    await box.fill("");
    await suggested(d).first().waitFor();
    expect(
      await listbox(d)
        .getByRole("option", { name: countryName(a), exact: true })
        .count(),
    ).toBe(0);
    await d.getByRole("button", { name: "Apply filter" }).click();
    await d.waitFor({ state: "detached" });

    const chip = `Country is not ${countryName(a)}, ${countryName(b)}`;
    await page.locator(".filter-chip", { hasText: chip }).waitFor();
    await page.waitForFunction((want) => new URL(location.href).searchParams.get("filters") === want, `country!=${a}|${b}`);
    const filtered = await visitors(`country!=${a}|${b}`);
    expect(filtered).toBeLessThan(await visitors());
    await expectVisitorsCard(page, filtered);
    // Focus is back on the Filter button.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Filter");

    await page.reload();
    await page.locator(".filter-chip", { hasText: chip }).waitFor();
    await expectVisitorsCard(page, filtered);

    // The chip's text opens the dialog filled in; Cancel returns focus to it.
    await page.getByRole("button", { name: `Edit filter: ${chip}` }).click();
    await d.getByRole("heading", { name: "Edit filter" }).waitFor();
    expect(await d.getByLabel("Filter by").inputValue()).toBe("country");
    expect(await d.getByLabel("Operator").inputValue()).toBe("is_not");
    expect(await d.getByRole("list", { name: "Chosen values" }).getByRole("listitem").count()).toBe(2);
    // Editing: drop one value, switch to "is", apply; the chip and the numbers follow.
    await d.getByRole("button", { name: `Remove value ${countryName(b)}` }).click();
    await d.getByLabel("Operator").selectOption("is");
    await d.getByRole("button", { name: "Apply filter" }).click();
    await page.locator(".filter-chip", { hasText: `Country is ${countryName(a)}` }).waitFor();
    expect(filtersParam(page)).toBe(`country==${a}`);
    await expectVisitorsCard(page, await visitors(`country==${a}`));
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      `Edit filter: Country is ${countryName(a)}`,
    );

    await page.getByRole("button", { name: `Remove filter: Country is ${countryName(a)}` }).click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has("filters"));
    await expectVisitorsCard(page, await visitors());
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Filter");
  });

  it("filters pages containing a text, searched on the server as it is typed; a row click still adds 'is'", async () => {
    const { page } = await suite.open();
    await openDashboard(page);
    await openFilterDialog(page);
    const d = dialog(page);
    expect(await d.getByLabel("Filter by").inputValue()).toBe("page");
    await d.getByLabel("Operator").selectOption("contains");
    const searched = page.waitForRequest((r) => r.url().includes("/stats/breakdown") && r.url().includes("page~blog"));
    await d.getByRole("combobox", { name: "Value" }).fill("blog");
    await searched;
    // The suggestions are the server's pages containing "blog".
    const blog = await stats<Json[]>("breakdown", {
      period: "last_30_days",
      dimension: "page",
      filters: "page~blog",
      limit: "20",
    });
    // Wait for the searched list itself: the unsearched one can have as many rows (20), so a count
    // alone passes before the server's answer is shown.
    const want = blog.map((r) => String(r.page));
    await page
      .waitForFunction(
        (w) =>
          JSON.stringify(
            Array.from(document.querySelectorAll(".filter-dialog [role=listbox] [role=option]"), (o) => o.textContent),
          ) === JSON.stringify(w),
        want,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    expect(await suggested(d).allTextContents()).toEqual(want);
    // Apply takes the typed text.
    await d.getByRole("button", { name: "Apply filter" }).click();
    await page.locator(".filter-chip", { hasText: "Page contains blog" }).waitFor();
    expect(filtersParam(page)).toBe("page~blog");
    await expectVisitorsCard(page, await visitors("page~blog"));

    // A breakdown row still adds an "is" filter next to it.
    const row = page.locator('[data-panel="devices"] .breakdown-row').first();
    await row.waitFor();
    const browser = (await row.getAttribute("data-value")) as string;
    await row.locator(".breakdown-label").click();
    await page.locator(".filter-chip", { hasText: `Browser is ${browser}` }).waitFor();
    expect(filtersParam(page)).toBe(`page~blog;browser==${browser}`);
    await expectVisitorsCard(page, await visitors(`page~blog;browser==${browser}`));
  });

  it("refuses a bad pattern in place, with the server's reason", async () => {
    const { page } = await suite.open();
    await openDashboard(page);
    await openFilterDialog(page);
    const d = dialog(page);
    await d.getByLabel("Operator").selectOption("matches");
    const box = d.getByRole("combobox", { name: "Pattern" });
    await box.fill("(blog");
    const error = d.getByRole("alert");
    await error.getByText("Not a pattern that can be used: invalid regular expression.").waitFor();
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    await d.getByRole("button", { name: "Apply filter" }).click();
    await box.fill("(?=blog)");
    await error.getByText("Not a pattern that can be used: look-around and back-references are not supported.").waitFor();
    await d.getByRole("button", { name: "Apply filter" }).click();
    // Nothing was applied.
    expect(await d.isVisible()).toBe(true);
    expect(filtersParam(page)).toBeNull();

    await box.fill("^/blog/");
    await d.getByRole("button", { name: "Apply filter" }).click();
    await page.locator(".filter-chip", { hasText: "Page matches ^/blog/" }).waitFor();
    expect(filtersParam(page)).toBe("page=~^/blog/");
    await expectVisitorsCard(page, await visitors("page=~^/blog/"));
  });

  for (const theme of ["light", "dark"] as const) {
    for (const [device, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      it(`passes axe-core with the dialog open (${theme}, ${device})`, { timeout: 60_000 }, async () => {
        const { page } = await suite.open({ viewport });
        await openDashboard(page, `&filters=${encodeURIComponent("page~blog")}`, theme);
        await page.locator(".filter-chip").waitFor();
        await openFilterDialog(page);
        const d = dialog(page);
        await d.getByLabel("Filter by").selectOption("country");
        await suggested(d).first().click();
        await d.getByRole("combobox", { name: "Value" }).press("ArrowDown");
        await suggested(d).nth(2).waitFor();
        // The modal's fade has finished (axe judges contrast on what is drawn).
        await page.waitForFunction(() => getComputedStyle(document.querySelector(".modal.show") as Element).opacity === "1");
        const violations = await axeViolations(page);
        expect(violations, describeViolations(violations)).toEqual([]);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: `${SHOTS}/filter-dialog-${theme}-${device}.png` });
          await d.getByLabel("Operator").selectOption("matches");
          await d.getByRole("combobox", { name: "Pattern" }).fill("(x");
          await page.screenshot({ path: `${SHOTS}/filter-dialog-error-${theme}-${device}.png` });
          await page.keyboard.press("Escape");
          await d.waitFor({ state: "detached" });
          await page.screenshot({ path: `${SHOTS}/filter-bar-${theme}-${device}.png` });
        }
      });
    }
  }
});
