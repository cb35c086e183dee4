// Settings › API keys, Account and Your profile in Chromium: an API key is created (its secret
// shown once), reads the Stats API, and is refused once revoked; the password is changed (the
// other session ends, the new password signs in); each section passes axe-core in both themes,
// fits a phone without sideways scrolling, and is photographed into /tmp/shots/account-*.png.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, OWNER, PHONE, signIn, THEME_KEY, type WatchedPage } from "./support";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
const SHOTS = "/tmp/shots";
/** The owner's password once the profile test has changed it (the account test signs in with it). */
const NEW_PASSWORD = "a-new-and-longer-passphrase";
let current: WatchedPage;

async function openSection(page: Page, section: string, ready: string) {
  await page.goto(`${suite.web.server.url}/settings?section=${section}`);
  await page.locator(ready).first().waitFor();
}

const stats = (key: string) =>
  fetch(`${suite.web.server.url}/api/v1/stats/aggregate?property_id=${suite.web.propertyIds[0]}&period=last_7_days`, {
    headers: { authorization: `Bearer ${key}` },
  });

/** No sideways scrolling, no axe violations (desktop), a full-page shot; in the page's theme. */
async function check(page: Page, name: string, device: "desktop" | "phone") {
  await page.evaluate(() => document.fonts.ready);
  // CoreUI's fades.
  await page.waitForTimeout(250);
  const theme = await page.evaluate(() => document.documentElement.dataset.coreuiTheme);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} overflows sideways (${theme}, ${device})`).toBeLessThanOrEqual(0);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/account-${name}-${theme}-${device}.png`, fullPage: true });
  if (device === "desktop") {
    const violations = await axeViolations(page);
    expect(violations, `${name} (${theme}): axe-core violations\n${describeViolations(violations)}`).toEqual([]);
  }
}

describe("API keys", () => {
  it("creates a key whose secret shows once and reads the Stats API, then revokes it", { timeout: 60_000 }, async () => {
    current = await suite.open({ colorScheme: "light" });
    const { page } = current;
    await signIn(page, suite.web.server);
    await openSection(page, "api-keys", "text=No API keys yet.");

    await page.getByLabel("New key’s name").fill("Nightly export");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = page.getByLabel("The new API key");
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^lk_[\w-]{40,}$/);
    await expect.poll(() => page.getByTestId("new-api-key").textContent()).toContain("you will not see it again");
    await page.locator("table").waitFor();
    expect(await page.locator("table").textContent()).toContain("Nightly export");
    expect(await page.locator("table").textContent()).toContain(key.slice(0, 9));
    expect(await page.locator("table").textContent()).not.toContain(key);
    await check(page, "api-keys-created", "desktop");

    const ok = await stats(key);
    expect(ok.status).toBe(200);

    // Once dismissed (or after a reload) the secret is nowhere on the page.
    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await page.locator("table").waitFor();
    expect(await page.content()).not.toContain(key);
    await expect.poll(async () => page.locator("table").textContent()).not.toContain("Never");

    await page.getByRole("button", { name: "Revoke Nightly export" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("stops working at once").waitFor();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("No API keys yet.").waitFor();
    expect((await stats(key)).status).toBe(401);
  });
});

describe("screens", () => {
  beforeAll(async () => {
    const owner = await login(suite.web.server, OWNER.email, OWNER.password);
    const r = await fetch(`${suite.web.server.url}/api/v1/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
      body: JSON.stringify({ accountId: owner.accountId, name: "Grafana dashboard" }),
    });
    expect(r.status).toBe(201);
  });
  for (const device of ["desktop", "phone"] as const) {
    for (const theme of ["light", "dark"] as const) {
      it(`API keys, account and profile, ${theme}, ${device}`, { timeout: 90_000 }, async () => {
        current = await suite.open({ colorScheme: theme, viewport: device === "desktop" ? DESKTOP : PHONE });
        const { page } = current;
        await signIn(page, suite.web.server);
        await page.evaluate(({ k, v }) => localStorage.setItem(k, v), { k: THEME_KEY, v: theme });
        await openSection(page, "api-keys", "table");
        await check(page, "api-keys", device);
        await openSection(page, "account", "text=Danger zone");
        await check(page, "account", device);
        await page.getByRole("button", { name: "Delete account" }).click();
        await page.getByRole("dialog").getByText("to confirm").waitFor();
        expect(await page.getByRole("dialog").getByRole("button", { name: "Delete account" }).isDisabled()).toBe(true);
        await check(page, "account-delete", device);
        await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
        await openSection(page, "profile", "text=This device");
        await page.getByLabel("E-mail address").fill("someone.else@example.com");
        await page.getByLabel("Current password", { exact: true }).first().waitFor();
        await check(page, "profile", device);
      });
    }
  }
});

describe("profile", () => {
  it("changes the password: the other session ends, and the new password signs in", { timeout: 60_000 }, async () => {
    const other = await login(suite.web.server, OWNER.email, OWNER.password);
    current = await suite.open({ colorScheme: "light" });
    const { page } = current;
    await signIn(page, suite.web.server);
    await openSection(page, "profile", "text=This device");
    const form = page.getByRole("form", { name: "Change password" });
    const next = NEW_PASSWORD;
    await form.getByLabel("Current password").fill(OWNER.password);
    await form.getByLabel("New password", { exact: true }).fill(next);
    await form.getByLabel("Repeat the new password").fill(`${next}!`);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByText("The two new passwords differ.").waitFor();
    await form.getByLabel("Repeat the new password").fill(next);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByText("Your password has been changed.").waitFor();
    expect(await form.getByRole("status").textContent()).toMatch(/[1-9]\d* other sessions? (was|were) signed out/);

    const otherCall = await fetch(`${suite.web.server.url}/api/v1/me/sessions`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(otherCall.status).toBe(401);
    // This session stays signed in.
    await page.reload();
    await page.getByText("This device").waitFor();

    await page.goto(`${suite.web.server.url}/logout`);
    await page.getByRole("button", { name: "Log In" }).waitFor();
    await page.getByLabel("E-mail address").fill(OWNER.email);
    await page.getByLabel("Password").fill(next);
    await page.getByRole("button", { name: "Log In" }).click();
    await page.waitForURL(/\/dashboard/);
  });
});

describe("account", () => {
  it("renames the account, then deletes it with its name typed and signs out", { timeout: 60_000 }, async () => {
    const before = await login(suite.web.server, OWNER.email, NEW_PASSWORD);
    current = await suite.open({ colorScheme: "light" });
    const { page } = current;
    await signIn(page, suite.web.server, before);
    await openSection(page, "account", "text=Danger zone");
    await page.getByLabel("Account name").fill("Acme Analytics");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();

    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Type Acme Analytics to confirm").waitFor();
    const confirm = dialog.getByRole("button", { name: "Delete account" });
    await dialog.getByRole("textbox").fill("Acme");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole("textbox").fill("Acme Analytics");
    await confirm.click();
    await page.waitForURL(/\/login$/);

    // The property went with the account; the next sign-in opens a fresh, empty account.
    const after = await login(suite.web.server, OWNER.email, NEW_PASSWORD);
    expect(after.accountId).not.toBe(before.accountId);
    const list = async (accountId: string) =>
      fetch(`${suite.web.server.url}/static-api/get-properties`, {
        method: "POST",
        headers: { authorization: `Bearer ${after.token}`, "content-type": "application/json" },
        body: JSON.stringify({ accountId }),
      });
    expect((await list(before.accountId)).status).toBe(403);
    expect(await (await list(after.accountId)).json()).toEqual([]);
  });
});
