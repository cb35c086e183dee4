// The login, recovery and reset screens (SPEC.md §2, §4, §8): busy, success and failure states
// with the exact texts; the session keys a login stores; what the HTTP client sends; and the
// 401 from the properties call signing the user out.
// Callbacks passed to page.evaluate run in the browser, hence the DOM types.
/// <reference lib="dom" />
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { login } from "../harness";
import { browserSuite, holdRequests, OWNER, SESSION_KEYS, storage, type WatchedPage } from "./support";

const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
let current: WatchedPage;

const submit = (page: Page) => page.locator("form button[type=submit]");
const alertText = async (page: Page) => (await page.locator(".alert").textContent())?.trim();

async function fillLogin(page: Page, email: string, password: string) {
  await page.goto(`${suite.web.server.url}/login`);
  await page.locator("#login-email").fill(email);
  await page.locator("#login-password").fill(password);
}

describe("login", () => {
  it("has the spec's fields and link", async () => {
    current = await suite.open();
    const { page } = current;
    await page.goto(`${suite.web.server.url}/login`);
    await page.getByLabel("E-mail address").waitFor();
    expect(await page.getByLabel("Password").getAttribute("type")).toBe("password");
    expect(await submit(page).textContent()).toBe("Log In");
    expect(await page.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe("/recover-password");
  });

  it("is busy while the call runs, then stores the session and opens /dashboard", async () => {
    current = await suite.open();
    const { page } = current;
    await fillLogin(page, OWNER.email, OWNER.password);
    const held = await holdRequests(page, "/wp-json/custom/v1/login");
    await submit(page).click();
    await page.getByRole("button", { name: "Logging in..." }).waitFor();
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await submit(page).locator(".spinner-border").count()).toBe(1);
    held.release();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    const stored = await storage(page, SESSION_KEYS);
    const me = await fetch(`${suite.web.server.url}/api/auth/me`, { headers: { authorization: `Bearer ${stored.userToken}` } });
    const body = (await me.json()) as { user: { id: string; email: string }; accounts: { id: string }[] };
    expect(stored).toEqual({
      userToken: expect.any(String),
      accountId: body.accounts[0]?.id,
      accountId2: body.user.id,
      userEmail: OWNER.email,
    });
  });

  it("shows the server's message for wrong credentials and is usable again", async () => {
    current = await suite.open();
    const { page } = current;
    await fillLogin(page, OWNER.email, "not-the-password");
    await submit(page).click();
    await page.locator(".alert-danger").waitFor();
    expect(await alertText(page)).toBe("Invalid e-mail address or password.");
    expect(await submit(page).textContent()).toBe("Log In");
    expect(await submit(page).isDisabled()).toBe(false);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await storage(page, ["userToken"])).toEqual({ userToken: null });
  });

  it("falls back to its own text when the answer has no message", async () => {
    current = await suite.open();
    const { page } = current;
    await page.route("**/wp-json/custom/v1/login", (r) =>
      r.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
    );
    await fillLogin(page, OWNER.email, OWNER.password);
    await submit(page).click();
    await page.locator(".alert-danger").waitFor();
    expect(await alertText(page)).toBe("Login failed. Please check your credentials.");
  });

  it("sends the bearer token, the XSRF cookie as X-XSRF-TOKEN and a form-encoded accountId", async () => {
    current = await suite.open();
    const { page, context } = current;
    await fillLogin(page, OWNER.email, OWNER.password);
    const call = page.waitForRequest("**/static-api/get-properties");
    await submit(page).click();
    const req = await call;
    const headers = await req.allHeaders();
    const stored = await storage(page, ["userToken", "accountId"]);
    const xsrf = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")?.value;
    expect(xsrf).toBeTruthy();
    expect(headers["x-xsrf-token"]).toBe(xsrf);
    expect(headers.authorization).toBe(`Bearer ${stored.userToken}`);
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(req.postData()).toBe(new URLSearchParams({ accountId: stored.accountId ?? "" }).toString());
    await page.locator(".property-card").waitFor();
  });
});

describe("401 from the properties call", () => {
  it("signs out and goes to /login", async () => {
    current = await suite.open();
    const { page } = current;
    const answer = await login(suite.web.server);
    await page.goto(`${suite.web.server.url}/login`);
    await page.evaluate((a) => {
      localStorage.setItem("userToken", "revoked-or-made-up-token");
      localStorage.setItem("accountId", a.accountId);
      localStorage.setItem("accountId2", a.accountId2);
      localStorage.setItem("userEmail", a.email);
    }, answer);
    await page.goto(`${suite.web.server.url}/live`);
    await page.waitForURL((u) => u.pathname === "/login");
    await page.getByRole("button", { name: "Log In" }).waitFor();
    expect(await storage(page, SESSION_KEYS)).toEqual({ userToken: null, accountId: null, accountId2: null, userEmail: null });
  });
});

describe("recovery", () => {
  async function fillRecover(page: Page, email: string) {
    await page.goto(`${suite.web.server.url}/recover-password`);
    await page.locator("#recover-email").fill(email);
  }

  it("is busy while the call runs, then shows the success banner", async () => {
    current = await suite.open();
    const { page } = current;
    await fillRecover(page, "nobody@example.com");
    const held = await holdRequests(page, "/wp-json/custom/v1/recover-password");
    const sent = page.waitForRequest("**/wp-json/custom/v1/recover-password");
    await submit(page).click();
    await page.getByRole("button", { name: "Submitting..." }).waitFor();
    expect(await submit(page).isDisabled()).toBe(true);
    expect(await submit(page).locator(".spinner-border").count()).toBe(1);
    expect((await sent).postDataJSON()).toEqual({ user_email: "nobody@example.com" });
    held.release();
    await page.locator(".alert-success").waitFor();
    expect(await alertText(page)).toBe("Password recovery successful! Check your email for further instructions.");
    expect(await submit(page).textContent()).toBe("Recover Password");
  });

  it("shows the server's message, else its own text", async () => {
    current = await suite.open();
    const { page } = current;
    await fillRecover(page, "");
    await submit(page).click();
    await page.locator(".alert-danger").waitFor();
    expect(await alertText(page)).toBe("user_email: user_email is required");

    await page.route("**/wp-json/custom/v1/recover-password", (r) => r.fulfill({ status: 500, body: "" }));
    await fillRecover(page, "someone@example.com");
    await submit(page).click();
    await page.locator(".alert-danger").waitFor();
    expect(await alertText(page)).toBe("Password recovery failed. Please check your email address.");
  });
});

// Last in the file: it changes the owner's password.
describe("reset from the e-mailed link", () => {
  it("sets a new password that then logs in", async () => {
    current = await suite.open();
    const { page } = current;
    const before = suite.web.server.logs().length;
    await page.goto(`${suite.web.server.url}/recover-password`);
    await page.locator("#recover-email").fill(OWNER.email);
    await submit(page).click();
    await page.locator(".alert-success").waitFor();
    let link: string | undefined;
    for (let i = 0; i < 50 && !link; i++) {
      link = /https?:\/\/\S+\/reset-password\?token=[\w%-]+/.exec(suite.web.server.logs().slice(before))?.[0];
      if (!link) await new Promise((r) => setTimeout(r, 100));
    }
    expect(link).toBeTruthy();
    await page.goto(`${suite.web.server.url}${new URL(link ?? "").pathname}${new URL(link ?? "").search}`);

    await page.locator("#reset-password").fill("short");
    await page.locator("#reset-confirm").fill("short");
    await submit(page).click();
    expect(await alertText(page)).toBe("Use at least 10 characters.");

    await page.locator("#reset-password").fill("a-brand-new-passphrase");
    await page.locator("#reset-confirm").fill("a-different-passphrase");
    await submit(page).click();
    expect(await alertText(page)).toBe("The two passwords do not match.");

    await page.locator("#reset-confirm").fill("a-brand-new-passphrase");
    const held = await holdRequests(page, "/api/auth/reset-password");
    await submit(page).click();
    await page.getByRole("button", { name: "Saving..." }).waitFor();
    held.release();
    await page.locator(".alert-success").waitFor();
    expect(await alertText(page)).toBe("Your password has been changed. You can now log in.");

    // The link works once.
    await page.reload();
    await page.locator("#reset-password").fill("another-new-passphrase");
    await page.locator("#reset-confirm").fill("another-new-passphrase");
    await submit(page).click();
    await page.locator(".alert-danger").waitFor();
    expect(await alertText(page)).toBe("This password reset link is invalid, expired or already used. Please request a new one.");

    await page.getByRole("link", { name: "Back to Login" }).click();
    await page.locator("#login-email").fill(OWNER.email);
    await page.locator("#login-password").fill("a-brand-new-passphrase");
    await submit(page).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
  });

  it("says so when the link has no token", async () => {
    current = await suite.open();
    const { page } = current;
    await page.goto(`${suite.web.server.url}/reset-password`);
    await page.locator(".alert-warning").waitFor();
    expect(await alertText(page)).toBe("This reset link is incomplete. Please request a new one.");
    expect(await page.locator("form").count()).toBe(0);
  });
});
