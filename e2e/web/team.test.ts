// Team (issue #20) against a real server: the owner invites a person from /team, the e-mailed link
// (read from the server's mail outbox: no SMTP_URL) opens in a fresh browser, the new person sets a
// name and password and lands on the dashboard of the inviting account with the invited role;
// roles change and members are removed from the table; used, revoked, unknown and someone else's
// links say so; the avatar menu creates an account and switches between accounts (the property
// follows, and the next login opens the last one used); a viewer sees /team and the settings
// read-only. axe-core on /team and /invite/{token} in both themes, desktop and phone, with
// screenshots in /tmp/shots-team for people to look at.
/// <reference lib="dom" />
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { login, type RunningServer } from "../harness";
import { axeViolations, describeViolations } from "./a11y";
import { browserSuite, DESKTOP, OWNER, openPage, PHONE, signIn, storage, THEME_KEY, type WatchedPage } from "./support";

const SHOTS = "/tmp/shots-team";
const PASSWORD = "a-long-enough-password";
const suite = browserSuite([{ url: "https://shop.example", name: "Shop" }]);
const server = () => suite.web.server;

/** A call of the management API as `token`'s user; the parsed answer (undefined for 204). */
async function api(token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${server().url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? undefined : r.json();
}

/** The token of the latest invitation mailed to `email`, from the outbox the server prints. */
function mailedToken(srv: RunningServer, email: string): string | null {
  const logs = srv.logs();
  const at = logs.lastIndexOf(`[mail outbox] to=${email} `);
  if (at < 0) return null;
  const link = /\/invite\/([A-Za-z0-9_%-]+)/.exec(logs.slice(at));
  return link?.[1] ? decodeURIComponent(link[1]) : null;
}

async function waitForToken(email: string): Promise<string> {
  await expect.poll(() => mailedToken(server(), email), { timeout: 10_000 }).not.toBeNull();
  return mailedToken(server(), email) as string;
}

/** Invites through the API (as the owner) and answers the e-mailed token. */
async function inviteByApi(ownerToken: string, accountId: string, email: string, role: string): Promise<string> {
  await api(ownerToken, "POST", `/api/v1/accounts/${accountId}/invitations`, { email, role });
  return waitForToken(email);
}

/** A member who joined through an invitation, signed in through the login call. */
async function memberWithRole(email: string, role: string) {
  const owner = await login(server(), OWNER.email, OWNER.password);
  const token = await inviteByApi(owner.token, owner.accountId, email, role);
  const r = await fetch(`${server().url}/api/v1/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, name: `The ${role}`, password: PASSWORD }),
  });
  expect(r.status).toBe(200);
  return login(server(), email, PASSWORD);
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.querySelector("main .spinner-border"));
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(Array.from(document.images).map((img) => img.decode().catch(() => undefined)));
  });
  await page.waitForTimeout(200);
}

/** axe-core and a screenshot of what the page shows, in both themes at desktop and phone widths. */
async function checkEverywhere(page: Page, name: string, ready: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate(({ key, theme }) => localStorage.setItem(key, theme), { key: THEME_KEY, theme });
      await page.reload();
      await page.locator(ready).first().waitFor();
      await settle(page);
      const device = size === DESKTOP ? "desktop" : "phone";
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} overflows sideways (${device})`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${device}.png`, fullPage: true });
      const violations = await axeViolations(page);
      expect(violations, `${name} (${theme}, ${device})\n${describeViolations(violations)}`).toEqual([]);
    }
  }
  await page.setViewportSize(DESKTOP);
}

const membersTable = (page: Page) => page.locator(".team-members table");
const memberRow = (page: Page, email: string) => membersTable(page).locator("tbody tr", { hasText: email });

describe("team", () => {
  it("invites a person who joins from the e-mailed link and lands in the inviting account with the invited role", {
    timeout: 120_000,
  }, async () => {
    const current = await suite.open();
    const { page } = current;
    const owner = await signIn(page, server());
    await page.goto(`${server().url}/team`);
    await memberRow(page, OWNER.email).waitFor();
    await expect.poll(() => memberRow(page, OWNER.email).textContent()).toContain("(you)");

    // A bad address is refused in place; nothing is sent.
    await page.getByLabel("E-mail addresses").fill("new.person@example.com, not-an-address");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Not an e-mail address: not-an-address").waitFor();

    await page.getByLabel("E-mail addresses").fill("new.person@example.com");
    await page.getByLabel("Role", { exact: true }).selectOption("editor");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitation sent to new.person@example.com.").waitFor();
    const pending = page.locator("section", { hasText: "Pending invitations" }).locator("tbody tr", {
      hasText: "new.person@example.com",
    });
    await pending.waitFor();
    expect(await pending.textContent()).toContain("Editor");
    const token = await waitForToken("new.person@example.com");
    expect(server().logs()).toContain("invited you to join");

    // The link, in a browser that has never seen Lookout.
    const invitee: WatchedPage = await openPage(suite.browser);
    try {
      const p = invitee.page;
      await p.goto(`${server().url}/invite/${token}`);
      await p.getByRole("heading", { name: /^Join / }).waitFor();
      const intro = await p.locator("main").textContent();
      expect(intro).toContain("invited you to join");
      expect(intro).toContain("as an editor");
      expect(intro).toContain("Invitation for new.person@example.com");
      await checkEverywhere(p, "invite", "#invite-name");

      // Passwords that differ are caught here; then the person joins.
      await p.getByLabel("Your name").fill("New Person");
      await p.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await p.getByLabel("Repeat the password").fill("something else entirely");
      await p.getByRole("button", { name: "Join" }).click();
      await p.getByText("The two passwords do not match.").waitFor();
      await p.getByLabel("Repeat the password").fill(PASSWORD);
      await p.getByRole("button", { name: "Join" }).click();
      await p.waitForURL(`${server().url}/dashboard`);
      const stored = await storage(p, ["accountId", "userEmail", "userToken"]);
      expect(stored.accountId).toBe(owner.accountId);
      expect(stored.userEmail).toBe("new.person@example.com");
      expect(stored.userToken).toBeTruthy();

      // In the inviting account, as an editor: the team is read-only for them.
      await p.goto(`${server().url}/team`);
      await memberRow(p, "new.person@example.com").waitFor();
      expect(await memberRow(p, "new.person@example.com").textContent()).toContain("(you)");
      expect(await memberRow(p, "new.person@example.com").textContent()).toContain("Editor");
      await p.getByText("Your role (editor) can see the team but not change it.").waitFor();
      expect(await p.getByRole("button", { name: "Send invitations" }).count()).toBe(0);

      // The link works once.
      await p.goto(`${server().url}/invite/${token}`);
      await p.getByRole("heading", { name: "This invitation has already been used" }).waitFor();
      expect(invitee.problems).toEqual([]);
    } finally {
      await invitee.close();
    }

    // The owner sees the new member, no pending invitation, and the activity.
    await page.reload();
    await memberRow(page, "new.person@example.com").waitFor();
    await page.getByText("No pending invitations.").waitFor();
    const activity = page.getByTestId("team-activity");
    await expect.poll(() => activity.textContent()).toContain("new.person@example.com");
  });

  it("changes a role, removes a member, revokes an invitation; links that cannot be used say why", {
    timeout: 120_000,
  }, async () => {
    const current = await suite.open();
    const { page } = current;
    const owner = await signIn(page, server());
    await memberWithRole("ed@example.com", "editor");
    await memberWithRole("vic@example.com", "viewer");
    await page.goto(`${server().url}/team`);

    // Editor -> admin with the row's select; the change holds after a reload.
    await page.getByLabel("Role of The editor").selectOption("admin");
    await expect.poll(() => page.getByLabel("Role of The editor").inputValue()).toBe("admin");
    await page.waitForLoadState("networkidle");
    await page.reload();
    await expect.poll(() => page.getByLabel("Role of The editor").inputValue()).toBe("admin");

    // Removal asks first, then the row goes.
    await page.getByRole("button", { name: "Remove The viewer" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("loses access to this account at once").waitFor();
    await dialog.getByRole("button", { name: "Remove member" }).click();
    await memberRow(page, "vic@example.com").waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("team-activity").textContent()).toContain("vic@example.com");

    // A revoked invitation's link says so.
    await page.getByLabel("E-mail addresses").fill("late@example.com");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitation sent to late@example.com.").waitFor();
    const firstToken = await waitForToken("late@example.com");
    // Resend mails a new link.
    await page.getByRole("button", { name: "Resend the invitation to late@example.com" }).click();
    await page.getByText("A new link was sent to late@example.com.").waitFor();
    await expect.poll(() => mailedToken(server(), "late@example.com")).not.toBe(firstToken);
    const revokedToken = await waitForToken("late@example.com");
    await page.getByRole("button", { name: "Revoke the invitation to late@example.com" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
    await page.getByText("No pending invitations.").waitFor();

    // Someone else's invitation, opened while signed in as the owner, cannot be taken.
    const foreign = await inviteByApi(owner.token, owner.accountId, "someone.else@example.com", "viewer");
    await page.goto(`${server().url}/invite/${foreign}`);
    await page
      .getByText("This invitation is for someone.else@example.com, but you are signed in as owner@example.com.")
      .waitFor();
    expect(await page.getByRole("button", { name: /^Join/ }).count()).toBe(0);

    await page.goto(`${server().url}/invite/${revokedToken}`);
    await page.getByRole("heading", { name: "This invitation was revoked" }).waitFor();
    const closedViolations = await axeViolations(page);
    expect(closedViolations, describeViolations(closedViolations)).toEqual([]);
    await page.goto(`${server().url}/invite/an-unknown-invitation-token-of-some-length`);
    await page.getByRole("heading", { name: "This invitation link does not work" }).waitFor();
  });

  it("shows a viewer the team and the settings read-only", { timeout: 90_000 }, async () => {
    const current = await suite.open();
    const { page } = current;
    const viewer = await memberWithRole("reader@example.com", "viewer");
    await signIn(page, server(), viewer);
    await page.goto(`${server().url}/team`);
    await memberRow(page, OWNER.email).waitFor();
    await page.getByText("Your role (viewer) can see the team but not change it.").waitFor();
    expect(await membersTable(page).locator("select").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Remove / }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send invitations" }).count()).toBe(0);
    expect(await page.getByText("Pending invitations").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Leave account" }).count()).toBe(1);

    await page.goto(`${server().url}/settings?section=account`);
    await page.getByText("Your role (viewer) can see these settings but not change them.").waitFor();

    // Leaving asks first; with no other account left, the session ends on the login screen.
    await page.goto(`${server().url}/team`);
    await page.getByRole("button", { name: "Leave account" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Leave account" }).click();
    await page.waitForURL(`${server().url}/login`);
    const owner = await login(server(), OWNER.email, OWNER.password);
    const members = (await api(owner.token, "GET", `/api/v1/accounts/${owner.accountId}/members`)) as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain("reader@example.com");
  });

  it("passes axe-core on /team in both themes at desktop and phone widths", { timeout: 120_000 }, async () => {
    const current = await suite.open();
    const { page } = current;
    await signIn(page, server());
    await page.goto(`${server().url}/team`);

    // Several addresses at once (two batches of 13): one invitation each, and more activity than a page.
    for (const batch of [0, 1]) {
      const emails = Array.from({ length: 13 }, (_, i) => `guest${batch * 13 + i}@example.com`);
      await page.getByLabel("E-mail addresses").fill(emails.join("\n"));
      await page.getByRole("button", { name: "Send invitations" }).click();
      await page.getByText(`Invitation sent to ${emails.join(", ")}.`).waitFor();
    }
    const pending = page.locator("section", { hasText: "Pending invitations" }).locator("tbody tr", { hasText: "guest" });
    await expect.poll(() => pending.count()).toBe(26);
    const entries = page.locator(".team-activity-entry");
    // A first page (the server's page size), then the older entries after it.
    await page.getByRole("button", { name: "Load more" }).waitFor();
    const firstPage = await entries.count();
    expect(firstPage).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(firstPage);

    await checkEverywhere(page, "team", ".team-members table");
  });

  it("creates an account and switches between accounts from the avatar menu", { timeout: 90_000 }, async () => {
    // Someone with a login already (a member of the first account), to invite into the new one.
    await memberWithRole("sam@example.com", "viewer");
    const current = await suite.open();
    const { page } = current;
    const owner = await signIn(page, server());
    const shop = suite.web.propertyIds[0] as string;
    await page.evaluate((id) => localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id })), shop);
    await page.goto(`${server().url}/dashboard`);
    await page.locator("main h1").first().waitFor();

    const menu = async () => {
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.locator(".dropdown-menu.show").waitFor();
    };
    await menu();
    await page.locator(".dropdown-menu.show").getByRole("button", { name: "Create account" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create account" }).click();
    await dialog.getByText("Enter a name.").waitFor();
    await dialog.getByLabel("Account name").fill("Side project");
    await dialog.getByRole("button", { name: "Create account" }).click();
    await dialog.waitFor({ state: "detached" });

    // The new account is the current one, with no property of the old account chosen.
    await expect.poll(async () => (await storage(page, ["accountId"])).accountId).not.toBe(owner.accountId);
    const sideId = (await storage(page, ["accountId"])).accountId as string;
    expect((await storage(page, ["currentProperty"])).currentProperty).toBeNull();
    await page.waitForURL(/\/dashboard/);
    await page.goto(`${server().url}/team`);
    await memberRow(page, OWNER.email).waitFor();
    expect(await page.locator(".team-members tbody tr").count()).toBe(1);
    expect(await page.locator("main").textContent()).toContain("Side project");

    // The menu lists both with the role in each, the current one marked; back to the first.
    await menu();
    const choices = page.locator(".dropdown-menu.show .account-choice");
    await expect.poll(() => choices.count()).toBe(2);
    const currentChoice = page.locator('.dropdown-menu.show .account-choice[aria-current="true"]');
    expect(await currentChoice.textContent()).toContain("Side project");
    expect(await currentChoice.textContent()).toContain("Owner");
    const first = choices.filter({ hasNotText: "Side project" });
    await first.click();
    await expect.poll(async () => (await storage(page, ["accountId"])).accountId).toBe(owner.accountId);
    await page.waitForURL(/\/dashboard/);

    // The server remembers: the next login opens the last account used.
    expect((await login(server(), OWNER.email, OWNER.password)).accountId).toBe(owner.accountId);
    await menu();
    await page.locator(".dropdown-menu.show .account-choice", { hasText: "Side project" }).click();
    await expect.poll(async () => (await storage(page, ["accountId"])).accountId).toBe(sideId);
    expect((await login(server(), OWNER.email, OWNER.password)).accountId).toBe(sideId);

    // The existing user invited to this account joins while signed in.
    const ownerNow = await login(server(), OWNER.email, OWNER.password);
    const joinToken = await inviteByApi(ownerNow.token, sideId, "sam@example.com", "viewer");
    const sam: WatchedPage = await openPage(suite.browser);
    try {
      await signIn(sam.page, server(), await login(server(), "sam@example.com", PASSWORD));
      await sam.page.goto(`${server().url}/invite/${joinToken}`);
      await sam.page.getByRole("button", { name: "Join Side project" }).click();
      await sam.page.waitForURL(`${server().url}/dashboard`);
      expect((await storage(sam.page, ["accountId"])).accountId).toBe(sideId);
      await sam.page.goto(`${server().url}/team`);
      await memberRow(sam.page, "sam@example.com").waitFor();
      expect(await memberRow(sam.page, "sam@example.com").textContent()).toContain("Viewer");

      expect(sam.problems).toEqual([]);
      // Removed from it meanwhile, Sam's next visit opens the account Sam still belongs to. (The
      // property list of the stale account is refused first, which SPEC.md §8 logs to the console.)
      await api(
        ownerNow.token,
        "DELETE",
        `/api/v1/accounts/${sideId}/members/${(await storage(sam.page, ["accountId2"])).accountId2}`,
      );
      await sam.page.reload();
      await expect.poll(async () => (await storage(sam.page, ["accountId"])).accountId, { timeout: 15_000 }).toBe(owner.accountId);
      await sam.page.waitForURL(`${server().url}/dashboard`);
      expect(sam.problems.filter((p) => !p.includes("Could not load the properties"))).toEqual([]);
      // Back in, for the transfer below: invited again and accepted with Sam's own session.
      const again = await inviteByApi(ownerNow.token, sideId, "sam@example.com", "viewer");
      const samLogin = await login(server(), "sam@example.com", PASSWORD);
      await api(samLogin.token, "POST", "/api/v1/invitations/accept", { token: again });
    } finally {
      await sam.close();
    }

    // The menu with two accounts, looked at and checked.
    await menu();
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}/account-menu-light-desktop.png` });
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);

    // The owner hands the side project to Sam, typing Sam's address to confirm, and becomes an admin.
    await page.keyboard.press("Escape");
    await page.goto(`${server().url}/team`);
    await memberRow(page, "sam@example.com").waitFor();
    await page.getByLabel("New owner").selectOption({ label: "The viewer (sam@example.com)" });
    await page.getByRole("button", { name: "Transfer ownership" }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByText("becomes an owner of this account").waitFor();
    expect(await confirm.getByRole("button", { name: "Transfer ownership" }).isDisabled()).toBe(true);
    await confirm.getByLabel("Type sam@example.com to confirm").fill("sam@example.com");
    await confirm.getByRole("button", { name: "Transfer ownership" }).click();
    await page.getByText("sam@example.com is now an owner, and you are an admin.").waitFor();
    await expect.poll(() => memberRow(page, OWNER.email).textContent()).toContain("Admin");
    await expect.poll(() => memberRow(page, "sam@example.com").textContent()).toContain("Owner");
  });
});
