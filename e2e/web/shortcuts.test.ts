// The dashboard's date range shortcuts (issue #19 item 8) in a real browser: keys pick presets and
// step to the previous and next period, the URL and the picker follow as they do for the picker;
// keys typed in fields or with a modifier do nothing; the help popover opens with its button and
// with `?`, closes with Escape, and is axe-clean in both themes.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { artifactPath } from "../browser";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, PHONE, signIn, THEME_KEY } from "./support";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);

async function openDashboard(page: Page, theme?: "light" | "dark") {
  await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" }));
      if (theme) localStorage.setItem(key, theme);
    },
    { id: suite.web.propertyIds[0] as string, theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/dashboard`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "last_7_days");
}

/** The URL's range: `period`, plus `date` for a custom one. */
const urlRange = (page: Page) => {
  const p = new URL(page.url()).searchParams;
  return p.get("period") === "custom" ? `custom:${p.get("date")}` : p.get("period");
};

/** Presses a key on the page (nothing focused) and waits for the URL to name `want`. */
async function press(page: Page, key: string, want: string) {
  await page.keyboard.press(key);
  await page.waitForFunction((w) => {
    const p = new URL(location.href).searchParams;
    return (p.get("period") === "custom" ? `custom:${p.get("date")}` : p.get("period")) === w;
  }, want);
}

/** What the picker shows: the chosen option's text and the dates it covers. */
const pickerLabel = (page: Page) =>
  Promise.all([
    page.getByLabel("Date range").evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? ""),
    page.getByTestId("date-range-span").textContent(),
  ]);

/** The local calendar day `ago` days back, `YYYY-MM-DD`, as the browser counts. */
const day = (page: Page, ago: number) =>
  page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() - n);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }, ago);

/** The picker's span text for a single local day, formatted as the picker formats it. */
const spanFor = (page: Page, iso: string) =>
  page.evaluate((s) => {
    const [y, m, d] = s.split("-").map(Number);
    const date = new Date(y as number, (m as number) - 1, d);
    return new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" }).formatRange(date, date);
  }, iso);

describe("date range shortcuts", () => {
  it("pick presets and step through periods, as the picker would", { timeout: 60_000 }, async () => {
    const { page } = await suite.open();
    await openDashboard(page);

    await press(page, "d", "today");
    expect(await pickerLabel(page)).toEqual(["Today", await spanFor(page, await day(page, 0))]);

    // ← and → step a day at a time, naming yesterday, and never go past today.
    await press(page, "ArrowLeft", "yesterday");
    expect((await pickerLabel(page))[0]).toBe("Yesterday");
    const twoAgo = await day(page, 2);
    await press(page, "ArrowLeft", `custom:${twoAgo},${twoAgo}`);
    expect(await pickerLabel(page)).toEqual(["Custom range", await spanFor(page, twoAgo)]);
    expect(await page.getByLabel("From", { exact: true }).inputValue()).toBe(twoAgo);
    await press(page, "ArrowRight", "yesterday");
    await press(page, "ArrowRight", "today");
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(300);
    expect(urlRange(page)).toBe("today");
    await press(page, "m", "month_to_date");
    expect((await pickerLabel(page))[0]).toBe("Month to date");
    await press(page, "ArrowLeft", "last_month");
    expect((await pickerLabel(page))[0]).toBe("Last month");
    await press(page, "ArrowRight", "month_to_date");

    await press(page, "y", "year_to_date");
    expect((await pickerLabel(page))[0]).toBe("Year to date");
    await press(page, "3", "last_30_days");
    expect((await pickerLabel(page))[0]).toBe("Last 30 days");
    await press(page, "7", "last_7_days");
    expect((await pickerLabel(page))[0]).toBe("Last 7 days");
    await press(page, "e", "yesterday");
  });

  it("do nothing while typing in a field or with a modifier key", { timeout: 60_000 }, async () => {
    const { page } = await suite.open();
    await openDashboard(page);
    const twoAgo = await day(page, 2);
    await press(page, "d", "today");
    await press(page, "ArrowLeft", "yesterday");
    await press(page, "ArrowLeft", `custom:${twoAgo},${twoAgo}`);

    // The custom range's own date field keeps its arrows (moving between its parts) and letters.
    const from = page.getByLabel("From", { exact: true });
    await from.focus();
    for (const k of ["ArrowLeft", "ArrowRight", "y", "m", "d"]) await page.keyboard.press(k);
    // A text field outside the app's own markup, typed into.
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.id = "scratch";
      input.setAttribute("aria-label", "Scratch");
      document.body.append(input);
    });
    await page.locator("#scratch").fill("");
    await page.locator("#scratch").pressSequentially("dem7y3");
    expect(await page.locator("#scratch").inputValue()).toBe("dem7y3");
    await page.locator("#scratch").blur();
    await page.evaluate(() => document.getElementById("scratch")?.remove());
    await from.blur();
    // With a modifier, a key belongs to the browser or the system.
    await page.keyboard.press("Alt+d");
    await page.keyboard.press("Alt+ArrowRight");
    await page.waitForTimeout(300);
    expect(urlRange(page)).toBe(`custom:${twoAgo},${twoAgo}`);
    expect(await from.inputValue()).toBe(twoAgo);
    // And on the page itself the same key still works.
    await press(page, "ArrowRight", "yesterday");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`list themselves in a help popover, axe-clean (${theme})`, { timeout: 60_000 }, async () => {
      const { page } = await suite.open();
      await openDashboard(page, theme);
      const button = page.getByRole("button", { name: "Keyboard shortcuts" });
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await button.click();
      await help.waitFor();
      expect(await button.getAttribute("aria-expanded")).toBe("true");
      for (const text of [
        "Today",
        "Yesterday",
        "Last 7 days",
        "Last 30 days",
        "Month to date",
        "Year to date",
        "Previous / next",
      ])
        expect(await help.textContent()).toContain(text);
      await page.screenshot({ path: artifactPath(`dashboard-shortcuts-${theme}.png`) });
      const violations = await axeViolations(page);
      expect(violations, `shortcuts help (${theme}): axe-core\n${describeViolations(violations)}`).toEqual([]);

      // Escape closes it; `?` opens it again, and a click elsewhere closes it.
      await page.keyboard.press("Escape");
      await help.waitFor({ state: "detached" });
      expect(await button.getAttribute("aria-expanded")).toBe("false");
      await button.blur();
      await page.keyboard.press("?");
      await help.waitFor();
      await page.locator("main h1").click();
      await help.waitFor({ state: "detached" });

      // On a phone the popover spans the screen, whole and clean.
      await page.setViewportSize(PHONE);
      await page.keyboard.press("?");
      await help.waitFor();
      const box = await help.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
      await page.screenshot({ path: artifactPath(`dashboard-shortcuts-${theme}-phone.png`) });
      const onPhone = await axeViolations(page);
      expect(onPhone, `shortcuts help (${theme}, phone): axe-core\n${describeViolations(onPhone)}`).toEqual([]);
    });
  }
});
