// Settings › Reports against a real server with seeded traffic: set up a weekly report with a
// recipient, see its next send time, "Send now" and find the mail in the server's outbox (no
// SMTP_URL: the outbox prints it), bad recipients refused in place, and an export downloaded with
// its progress and unzipped (Plausible's file names); axe-core and screenshots in both themes,
// desktop and phone.
/// <reference lib="dom" />
import { mkdirSync, readFileSync } from "node:fs";
import { EXPORT_TABLES } from "@lookout/schema";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, PHONE, seedEvents, signIn, THEME_KEY, type WatchedPage } from "./support";

const SHOTS = "/tmp/shots";
const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }], seedEvents({ indexes: [0], days: 21, visitors: 80 }));
let current: WatchedPage;
const shop = () => suite.web.propertyIds[0] as string;

async function openReports(page: Page, theme?: "light" | "dark") {
  await signIn(page, suite.web.server);
  await page.evaluate(
    ({ id, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id }));
      if (theme) localStorage.setItem(key, theme);
    },
    { id: shop(), theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/reports`);
  await page.locator("#settings-section-title", { hasText: "Reports" }).waitFor();
}

const weekly = (page: Page) => page.locator(".report-card", { hasText: "Weekly report" });

function zipNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on("entry", (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.readEntry();
    });
  });
}

describe("reports", () => {
  it("sets up a weekly report, sends it now and finds the mail in the outbox", { timeout: 90_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openReports(page);
    const card = weekly(page);
    await card.getByText("Off: no report is sent.").waitFor();

    // A bad line is refused in place, nothing saved.
    await card.getByLabel("Send the weekly report").check();
    await card.getByLabel("Recipients").fill("ann@example.com\nnot an address");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByText("Not an e-mail address: line 2.").waitFor();

    await card.getByLabel("Recipients").fill("ann@example.com");
    await card.getByLabel("Send hour").selectOption("8");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByText("Weekly report saved.").waitFor();
    await expect.poll(() => card.getByTestId("next-send").textContent()).toMatch(/08:00.*covering \d{4}-W\d{2}/);
    expect(await card.getByTestId("last-sent").textContent()).toBe("Not sent yet");

    await card.getByRole("button", { name: "Send now" }).click();
    await card.getByText(/^Sent the report for \d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2} to ann@example\.com\.$/).waitFor();
    await expect
      .poll(() => suite.web.server.logs())
      .toContain('[mail outbox] to=ann@example.com subject="Weekly report for Shop"');
    expect(suite.web.server.logs()).toMatch(/Unique visitors: [1-9]/);
    expect(suite.web.server.logs()).toMatch(/\/api\/v1\/reports\/unsubscribe\?token=/);

    // Reloaded: the schedule is kept, the preview did not mark the period sent.
    await page.reload();
    await weekly(page).getByTestId("last-sent").waitFor();
    expect(await weekly(page).getByLabel("Recipients").inputValue()).toBe("ann@example.com");
    expect(await weekly(page).getByTestId("last-sent").textContent()).toBe("Not sent yet");
  });

  it("downloads the export as a ZIP of Plausible-format CSVs, showing its progress", { timeout: 90_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openReports(page);
    await page.getByLabel("Date range").selectOption("last_30_days");
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download ZIP" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^shop_example_\d{8}\.zip$/);
    await page
      .getByTestId("export-status")
      .getByText(/^Downloaded shop_example_\d{8}\.zip \(\d+(\.\d)? kB\)\.$/)
      .waitFor();
    const names = await zipNames(await download.path());
    expect(names).toHaveLength(EXPORT_TABLES.length);
    for (const [i, table] of EXPORT_TABLES.entries()) expect(names[i]).toMatch(new RegExp(`^${table}_\\d{8}_\\d{8}\\.csv$`));
  });
});

describe("reports screenshots", () => {
  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      it(`${theme}, ${device}`, { timeout: 60_000 }, async () => {
        mkdirSync(SHOTS, { recursive: true });
        current = await suite.open({ viewport, colorScheme: theme });
        const { page } = current;
        await openReports(page, theme);
        await weekly(page).getByTestId("next-send").waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `reports overflow sideways at ${device} width`).toBeLessThanOrEqual(0);
        const violations = await axeViolations(page);
        expect(violations, `reports ${theme} ${device}:\n${describeViolations(violations)}`).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/reports-${theme}-${device}.png`, fullPage: true });
      });
    }
  }
});
