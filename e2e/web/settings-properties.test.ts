// Settings › Properties, Tracking code and Exclusions against a real server: add a property and
// see its snippet (and make it current); change exclusions (with "Add my current address" and a
// bad line shown per line) and see the next event, sent to /api/event like the tracker does,
// dropped with its reason, then accepted once the exclusion is removed; the tracking options
// rewrite the snippet and the install check sees the event; delete with the typed name. axe-core
// and screenshots (/tmp/shots/props-*) in both themes, desktop and phone, without sideways
// overflow. Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { login } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, type LoginAnswer, PHONE, signIn, THEME_KEY, type WatchedPage } from "./support";

const SHOTS = "/tmp/shots";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
let current: WatchedPage;
const shop = () => suite.web.propertyIds[0] as string;
// One sign-in for the whole file: sign-ins are throttled per address and e-mail.
let session: LoginAnswer | undefined;
const owner = async () => {
  session ??= await login(suite.web.server);
  return session;
};

async function openSection(
  page: Page,
  section: string,
  theme?: "light" | "dark",
  chosen = { id: shop(), url: "https://shop.example" },
) {
  await signIn(page, suite.web.server, await owner());
  await page.evaluate(
    ({ chosen, theme, key }) => {
      localStorage.setItem("currentProperty", JSON.stringify({ unique_id: chosen.id, website_url: chosen.url }));
      if (theme) localStorage.setItem(key, theme);
    },
    { chosen, theme, key: THEME_KEY },
  );
  await page.goto(`${suite.web.server.url}/settings?section=${section}`);
  await page.locator("#settings-section-title").waitFor();
}

/** Sends one pageview as the tracker would (text/plain JSON); the drop reason, or "stored". */
async function sendEvent(path: string): Promise<string> {
  const r = await fetch(`${suite.web.server.url}/api/event`, {
    method: "POST",
    headers: { "content-type": "text/plain", "user-agent": CHROME },
    body: JSON.stringify({ property: shop(), name: "pageview", url: `https://shop.example${path}` }),
  });
  expect(r.status).toBe(202);
  return r.headers.get("x-lookout-dropped") ?? "stored";
}

async function api(path: string, init: RequestInit = {}) {
  const { token } = await owner();
  return fetch(`${suite.web.server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
}

async function expectClean(page: Page, what: string) {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The outermost elements sticking out, to name in the failure.
    const wide = Array.from(document.querySelectorAll("body *"))
      .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.parentElement?.closest(".table-responsive"))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${(e.className || "").toString().replace(/ /g, ".")}`);
    return { by: document.documentElement.scrollWidth - width, wide };
  });
  expect(overflow.by, `${what} overflows sideways: ${overflow.wide.join(", ")}`).toBeLessThanOrEqual(0);
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${describeViolations(violations)}`).toEqual([]);
}

describe("Settings › Properties, Tracking code and Exclusions", () => {
  let blog = "";

  it("adds a property, shows its snippet and makes it the current property", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openSection(page, "properties");
    await page.locator("[data-property]").first().waitFor();
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Blog");
    await page.getByLabel("Website address").fill("ftp://blog.example");
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByText("Website address must be an http(s) address").waitFor();
    await page.getByLabel("Website address").fill("blog.example/posts");
    expect(await page.getByLabel("Timezone").inputValue()).not.toBe("");
    await page.getByLabel("Timezone").fill("Europe/Berlin");
    await page.getByRole("button", { name: "Add property" }).click();
    const snippet = page.getByTestId("new-snippet");
    await snippet.waitFor();
    const text = (await snippet.textContent()) ?? "";
    blog = /data-property="([\w-]+)"/.exec(text)?.[1] ?? "";
    expect(text).toBe(`<script defer src="${suite.web.server.url}/js/script.js" data-property="${blog}"></script>`);
    const stored = await (await api(`/api/v1/properties/${blog}`)).json();
    expect(stored).toMatchObject({ name: "Blog", website_url: "https://blog.example", timezone: "Europe/Berlin" });
    await page.locator(`[data-property="${blog}"]`, { hasText: "Blog" }).waitFor();
    await page.getByRole("button", { name: "Make it the current property" }).click();
    await page.getByRole("button", { name: "Current property" }).waitFor();
    const chosen = await page.evaluate(() => JSON.parse(localStorage.getItem("currentProperty") ?? "{}"));
    expect(chosen).toEqual({ unique_id: blog, website_url: "https://blog.example" });
  });

  it("drops the next event once excluded, with its reason; accepts it once removed", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    expect(await sendEvent("/admin/users")).toBe("stored");
    await openSection(page, "exclusions");
    await page.getByRole("button", { name: "Add my current address" }).click();
    const ips = page.getByLabel("Excluded IP addresses");
    await page.waitForFunction(() =>
      (document.querySelector("textarea") as HTMLTextAreaElement | null)?.value.includes("127.0.0.1"),
    );
    await ips.fill(`${await ips.inputValue()}\n300.1.2.3`);
    await page.getByLabel("Excluded paths").fill("/admin/*");
    await page.getByLabel("Allowed hostnames").fill("shop.example\nexa mple.com");
    await page.getByRole("button", { name: "Save exclusions" }).click();
    const ipErrors = page.getByTestId("excluded_ips-errors");
    await ipErrors.waitFor();
    expect(await ipErrors.textContent()).toContain('Line 2: "300.1.2.3" is not an IP address');
    expect(await page.getByTestId("allowed_hostnames-errors").textContent()).toContain(
      'Line 2: "exa mple.com" is not a hostname',
    );
    // Nothing was stored: the collector still accepts.
    expect(await sendEvent("/admin/users")).toBe("stored");

    await ips.fill("127.0.0.1");
    await page.getByLabel("Allowed hostnames").fill("shop.example");
    await page.getByRole("button", { name: "Save exclusions" }).click();
    await page.getByText("Saved. The collector applies").waitFor();
    expect(await sendEvent("/")).toBe("excluded_ip");

    await ips.fill("");
    await page.getByRole("button", { name: "Save exclusions" }).click();
    await page.getByText("Saved. The collector applies").waitFor();
    expect(await sendEvent("/admin/users")).toBe("excluded_path");
    expect(await sendEvent("/admin/users/7")).toBe("stored");

    await page.getByLabel("Excluded paths").fill("");
    await page.getByLabel("Allowed hostnames").fill("*.shop.example");
    await page.getByRole("button", { name: "Save exclusions" }).click();
    await page.getByText("Saved. The collector applies").waitFor();
    expect(await sendEvent("/admin/users")).toBe("hostname_not_allowed");
    await page.getByLabel("Allowed hostnames").fill("");
    await page.getByRole("button", { name: "Save exclusions" }).click();
    await page.getByText("Saved. The collector applies").waitFor();
    expect(await sendEvent("/admin/users")).toBe("stored");
    const audit = await (await api(`/api/v1/properties/${shop()}`)).json();
    expect(audit.settings).toEqual({ cookieless: false, excluded_ips: [], excluded_paths: [], allowed_hostnames: [] });
  });

  it("rewrites the snippet with the tracker's options and reports the last event", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openSection(page, "tracking");
    const snippet = page.getByTestId("tracking-snippet");
    await snippet.waitFor();
    await page.getByLabel(/^Outbound links/).check();
    await page.getByLabel(/^Hash routing/).check();
    expect(await snippet.textContent()).toBe(
      `<script defer src="${suite.web.server.url}/js/script.js" data-property="${shop()}" data-outbound data-hash></script>`,
    );
    await page.getByLabel(/^Outbound links/).uncheck();
    await page.getByLabel(/^File downloads/).check();
    await page.getByLabel(/^Cookieless/).check();
    expect(await snippet.textContent()).toContain(`data-property="${shop()}" data-downloads data-hash data-cookieless>`);
    await page
      .getByTestId("install-status")
      .getByText(/Last event received/)
      .waitFor();
  });

  it("deletes a property only once its name is typed", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    await openSection(page, "properties", undefined, { id: blog, url: "https://blog.example" });
    // Renamed first, through Edit.
    await page.getByRole("button", { name: "Manage Blog" }).click();
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Old blog");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.locator(`[data-property="${blog}"]`, { hasText: "Old blog" }).waitFor();
    await page.getByRole("button", { name: "Manage Old blog" }).click();
    await page.getByRole("button", { name: "Delete…" }).click();
    const confirm = page.getByRole("button", { name: "Delete property" });
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/Type Old blog to confirm/).fill("Blog");
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/Type Old blog to confirm/).fill("Old blog");
    await confirm.click();
    await page.getByText("Old blog was deleted with all its data.").waitFor();
    await page.locator(`[data-property="${blog}"]`).waitFor({ state: "detached" });
    expect((await api(`/api/v1/properties/${blog}`)).status).toBe(404);
    // It was the current property: the selection is cleared.
    expect(await page.evaluate(() => localStorage.getItem("currentProperty"))).toBeNull();
  });
});

describe("property settings screenshots", () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [device, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      it(`${theme}, ${device}`, { timeout: 60_000 }, async () => {
        current = await suite.open({ viewport, colorScheme: theme });
        const { page } = current;
        await openSection(page, "properties", theme);
        await page.locator("[data-property]").first().waitFor();
        await page.getByRole("button", { name: "Add property" }).click();
        await page.getByLabel("Website address").fill("ftp://nope.example");
        await page.getByRole("button", { name: "Add property" }).click();
        await page.getByText("Website address must be an http(s) address").waitFor();
        await expectClean(page, `properties ${theme} ${device}`);
        await page.screenshot({ path: `${SHOTS}/props-properties-${theme}-${device}.png`, fullPage: true });
        await page.getByRole("button", { name: "Manage Shop" }).click();
        await page.getByRole("button", { name: "Reset stats…" }).click();
        await page.getByRole("dialog").waitFor();
        await page.getByLabel(/Type Shop to confirm/).fill("Shop");
        await page.waitForTimeout(300);
        await expectClean(page, `reset dialog ${theme} ${device}`);
        await page.screenshot({ path: `${SHOTS}/props-reset-${theme}-${device}.png` });
        await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

        await page.goto(`${suite.web.server.url}/settings?section=tracking`);
        await page
          .getByTestId("install-status")
          .getByText(/Last event received|No event/)
          .waitFor();
        await expectClean(page, `tracking ${theme} ${device}`);
        await page.screenshot({ path: `${SHOTS}/props-tracking-${theme}-${device}.png`, fullPage: true });

        await page.goto(`${suite.web.server.url}/settings?section=exclusions`);
        await page.getByLabel("Excluded paths").fill("/ok\nno-slash");
        await page.getByRole("button", { name: "Save exclusions" }).click();
        await page.getByTestId("excluded_paths-errors").waitFor();
        await expectClean(page, `exclusions ${theme} ${device}`);
        await page.screenshot({ path: `${SHOTS}/props-exclusions-${theme}-${device}.png`, fullPage: true });
      });
    }
  }
});

describe("an account without any property", () => {
  it("offers Add property on the dashboard, which opens the form in Settings", { timeout: 60_000 }, async () => {
    current = await suite.open();
    const { page } = current;
    const { accountId } = await owner();
    const list = (await (await api(`/api/v1/properties?accountId=${accountId}`)).json()) as { unique_id: string }[];
    for (const p of list) expect((await api(`/api/v1/properties/${p.unique_id}`, { method: "DELETE" })).status).toBe(204);
    await signIn(page, suite.web.server, await owner());
    await page.goto(`${suite.web.server.url}/dashboard`);
    await page.getByText("There are no properties to show yet.").waitFor();
    await expectClean(page, "dashboard without properties");
    await page.getByRole("link", { name: "Add property" }).click();
    await page.waitForURL(/\/settings\?section=properties&add=1$/);
    await page.getByLabel("Name", { exact: true }).fill("First site");
    await page.getByLabel("Website address").fill("https://first.example");
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByTestId("new-snippet").waitFor();
    await page.getByRole("button", { name: "Make it the current property" }).click();
    await page.goto(`${suite.web.server.url}/dashboard`);
    await page.getByTestId("install-snippet").waitFor();
  });
});
