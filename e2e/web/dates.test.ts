// Dates and charts agree with the numbers (issue #19 item 1) in a real browser whose clock is in
// another timezone than the property's (Kiritimati, UTC+14, against a UTC property): the label of
// Last 7 days names the property's 7 days, the chart has 7 points with the current one dashed and
// called incomplete, the same days as a custom range show the same totals, and a custom range that
// ends in the future or starts after it ends gets a message (axe-clean in both themes).
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import { addCalendarDays, calendarDaysBetween, localCalendarDay, presetRange } from "@lookout/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, type LoginAnswer, openPage, PHONE, seedEvents, signIn, THEME_KEY } from "./support";

const suite = browserSuite(
  [{ url: "https://shop.example", name: "Shop" }],
  seedEvents({ indexes: [0], days: 14, visitors: 150 }),
);
/** The property's timezone: the CLI's default. */
const PROPERTY_TZ = "UTC";
/** The browser's: a day ahead of UTC for most of the UTC day. */
const BROWSER_TZ = "Pacific/Kiritimati";
const SHOTS = "/tmp/shots-dates";

async function openDashboard(page: Page, theme: "light" | "dark" = "light"): Promise<LoginAnswer> {
  const session = await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id, website_url: "https://shop.example" }));
      localStorage.setItem(key, theme);
    },
    { id: suite.web.propertyIds[0] as string, theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/dashboard`);
  await page.locator("main h1", { hasText: "Dashboard" }).waitFor();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "last_7_days");
  return session;
}

async function aggregate(session: LoginAnswer, params: Record<string, string>): Promise<number> {
  const qs = new URLSearchParams({ property_id: suite.web.propertyIds[0] as string, metrics: "visitors", ...params });
  const r = await fetch(`${suite.web.server.url}/api/v1/stats/aggregate?${qs}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await r.json()) as { results: { visitors: { value: number } } };
  if (!r.ok) throw new Error(`aggregate: ${r.status} ${JSON.stringify(body)}`);
  return body.results.visitors.value;
}

/** The visitors card's number, once it shows `want` (formatted as the card formats counts). */
const waitVisitors = (page: Page, want: number) =>
  page.waitForFunction(
    (n) =>
      document.querySelector('.stat-card[data-metric="visitors"] .stat-value')?.textContent?.replace(/[^\d]/g, "") === String(n),
    want,
  );

/** The picker's label for two local days, formatted as the picker formats them. */
const labelFor = (page: Page, first: string, last: string) =>
  page.evaluate(
    ([a, b]) => {
      const day = (s: string) => {
        const [y, m, d] = s.split("-").map(Number);
        return new Date(y as number, (m as number) - 1, d);
      };
      return new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" }).formatRange(day(a), day(b));
    },
    [first, last] as const,
  );

/** Hovers the chart's last point and returns the tooltip's text. */
async function hoverLastPoint(page: Page): Promise<string> {
  const chart = page.locator(".main-chart .timeseries-chart");
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  if (!box) throw new Error("no chart box");
  // The last point sits on the grid's right edge, which is 16 px in plus half the last axis label
  // (containLabel), so its distance from the box edge depends on the date ("Dec 1" put it past a
  // fixed 20 px). Entering the grid from the right, the first spot that shows a tip snaps to the
  // nearest category: the last one.
  const y = box.y + box.height / 2;
  const tip = chart.locator(".chart-tip").last();
  await page.mouse.move(box.x + box.width + 40, y);
  await tip.waitFor({ state: "hidden" }).catch(() => undefined);
  for (let dx = 4; dx < box.width / 2; dx += 6) {
    await page.mouse.move(box.x + box.width - dx, y);
    if (await tip.isVisible()) break;
  }
  await tip.waitFor();
  return (await chart.locator(".chart-tip").allTextContents()).join(" | ");
}

describe("dates and charts agree with the numbers", () => {
  it("Last 7 days names the property's 7 days, charts 7 points (the last incomplete) and totals the same as those days picked by hand", {
    timeout: 90_000,
  }, async () => {
    const { page } = await suite.open({ timezoneId: BROWSER_TZ });
    const session = await openDashboard(page);
    const today = localCalendarDay(PROPERTY_TZ, new Date());
    const want = presetRange({ preset: "last_7_days" }, today);

    // The label: the property's days, 7 of them, ending on its today (not the browser's).
    const span = page.getByTestId("date-range-span");
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid="date-range-span"]')?.getAttribute("data-last-day") === d,
      today,
    );
    const [first, last] = [await span.getAttribute("data-first-day"), await span.getAttribute("data-last-day")];
    expect([first, last]).toEqual([want.firstDay, want.lastDay]);
    expect(calendarDaysBetween(first as string, last as string)).toBe(7);
    expect(await span.textContent()).toBe(await labelFor(page, want.firstDay, want.lastDay));

    // The chart: 7 day points, the last one (today) dashed and called incomplete.
    const chart = page.locator(".main-chart .timeseries-chart");
    await chart.locator("canvas").waitFor();
    await page.waitForFunction(() => !document.querySelector(".main-chart .is-reloading"));
    expect(await chart.getAttribute("data-points")).toBe("7");
    expect(await chart.getAttribute("data-incomplete-point")).toBe("6");
    expect(await chart.getAttribute("aria-label")).toContain("7 points, the last one (today) incomplete");
    await expect.poll(() => page.getByTestId("incomplete-legend").textContent()).toContain("Incomplete (today)");
    expect(await hoverLastPoint(page)).toContain("(incomplete)");

    // The totals: the API's for the preset, and the same for the same days as a custom range.
    const presetTotal = await aggregate(session, { period: "last_7_days" });
    expect(await aggregate(session, { period: "custom", date: `${want.firstDay},${want.lastDay}` })).toBe(presetTotal);
    await waitVisitors(page, presetTotal);
    await page.getByLabel("Date range").selectOption("custom");
    await page.waitForFunction((d) => new URL(location.href).searchParams.get("date") === d, `${want.firstDay},${want.lastDay}`);
    expect(await span.textContent()).toBe(await labelFor(page, want.firstDay, want.lastDay));
    await waitVisitors(page, presetTotal);
    await page.waitForFunction(
      () => document.querySelector(".main-chart .timeseries-chart")?.getAttribute("data-points") === "7",
    );

    // Today by hour stops at this hour (UTC has no DST: hour h is point h + 1), drawn incomplete.
    await page.getByLabel("Date range").selectOption("today");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "today");
    await page.waitForFunction(() =>
      document.querySelector(".main-chart .timeseries-chart")?.getAttribute("aria-label")?.includes("by hour"),
    );
    const hour = () => new Date().getUTCHours() + 1;
    const before = hour();
    await page.waitForFunction(() => !document.querySelector(".main-chart .is-reloading"));
    const points = Number(await chart.getAttribute("data-points"));
    expect([before, hour()]).toContain(points);
    expect(await chart.getAttribute("data-incomplete-point")).toBe(String(points - 1));
    await expect.poll(() => page.getByTestId("incomplete-legend").textContent()).toContain("Incomplete (this hour)");
    mkdirSync(SHOTS, { recursive: true });
    await page.locator(".main-chart").screenshot({ path: `${SHOTS}/today-by-hour.png` });

    // A past range draws no bucket as incomplete.
    await page.getByLabel("Date range").selectOption("custom");
    const lastWeek = `${addCalendarDays(want.firstDay, -7)},${addCalendarDays(want.lastDay, -7)}`;
    await page.getByLabel("To", { exact: true }).fill(addCalendarDays(want.lastDay, -7));
    await page.getByLabel("From", { exact: true }).fill(addCalendarDays(want.firstDay, -7));
    await page.waitForFunction((d) => new URL(location.href).searchParams.get("date") === d, lastWeek);
    await page.waitForFunction(
      () => !document.querySelector(".main-chart .timeseries-chart")?.hasAttribute("data-incomplete-point"),
    );
    expect(await page.getByTestId("incomplete-legend").count()).toBe(0);
  });

  it("says why a custom range ending in the future or starting after it ends is not shown", { timeout: 90_000 }, async () => {
    const { page } = await suite.open({ timezoneId: BROWSER_TZ });
    await openDashboard(page);
    const today = localCalendarDay(PROPERTY_TZ, new Date());
    await page.getByLabel("Date range").selectOption("custom");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("period") === "custom");
    const before = new URL(page.url()).searchParams.get("date");

    const tomorrow = addCalendarDays(today, 1);
    await page.getByLabel("To", { exact: true }).fill(tomorrow);
    const alert = page.getByRole("alert").filter({ hasText: "ends in the future" });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`The range ends in the future: choose an end on or before today (${today}).`);
    expect(await page.getByLabel("To", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(new URL(page.url()).searchParams.get("date")).toBe(before);

    // A valid end is taken at once; a start after it is not, and the picker says why.
    await page.getByLabel("To", { exact: true }).fill(addCalendarDays(today, -5));
    const taken = `${addCalendarDays(today, -6)},${addCalendarDays(today, -5)}`;
    await page.waitForFunction((d) => new URL(location.href).searchParams.get("date") === d, taken);
    expect(await page.locator(".date-range-picker [role='alert']").count()).toBe(0);
    await page.getByLabel("From", { exact: true }).fill(addCalendarDays(today, -2));
    await page.getByRole("alert").filter({ hasText: "The start date is after the end date" }).waitFor();
    expect(new URL(page.url()).searchParams.get("date")).toBe(taken);

    // Fixed: the range is taken and the message goes.
    await page.getByLabel("From", { exact: true }).fill(addCalendarDays(today, -9));
    await page.waitForFunction(
      (d) => new URL(location.href).searchParams.get("date") === d,
      `${addCalendarDays(today, -9)},${addCalendarDays(today, -5)}`,
    );
    expect(await page.getByRole("alert").filter({ hasText: "start date" }).count()).toBe(0);
  });

  it("is axe-clean with the message on show, and looks right, in both themes on desktop and phone", {
    timeout: 120_000,
  }, async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ["light", "dark"] as const) {
      for (const phone of [false, true]) {
        const watched = await openPage(suite.browser, { timezoneId: BROWSER_TZ, ...(phone ? { viewport: PHONE } : {}) });
        const { page } = watched;
        await openDashboard(page, theme);
        const chart = page.locator(".main-chart .timeseries-chart");
        await chart.locator("canvas").waitFor();
        await page.waitForFunction(() => !document.querySelector(".main-chart .is-reloading"));
        await hoverLastPoint(page);
        await page.locator(".main-chart").screenshot({ path: `${SHOTS}/chart-${theme}${phone ? "-phone" : ""}.png` });
        await page.mouse.move(0, 0);
        await page.getByLabel("Date range").selectOption("custom");
        await page.getByLabel("To", { exact: true }).fill(addCalendarDays(localCalendarDay(PROPERTY_TZ, new Date()), 1));
        await page.getByRole("alert").filter({ hasText: "ends in the future" }).waitFor();
        // The panels dim while they reload the custom range; axe judges them once they are back.
        await page.waitForFunction(() => !document.querySelector(".is-reloading, [aria-busy='true']"));
        await page.screenshot({ path: `${SHOTS}/custom-error-${theme}${phone ? "-phone" : ""}.png` });
        const violations = await axeViolations(page);
        expect(violations, `${theme}${phone ? " phone" : ""}: ${describeViolations(violations)}`).toEqual([]);
        expect(watched.problems).toEqual([]);
        await watched.close();
      }
    }
  });
});
