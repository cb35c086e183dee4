// Launches Debian's Chromium through playwright-core with the flags this machine needs.
// Under CI=true a missing browser is a loud failure, never a skip.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { ROOT } from "./harness";

export const CHROMIUM = process.env.LOOKOUT_CHROMIUM ?? "/usr/bin/chromium";
export const ARTIFACTS = join(ROOT, "test-artifacts");

export async function launchBrowser(): Promise<{ browser: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}; npm test installs it with apt-get`);
  const userDataDir = mkdtempSync(join(tmpdir(), "lookout-chromium-"));
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    viewport: { width: 1280, height: 800 },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A separate, non-persistent browser for tests that need independent contexts. */
export async function launchPlainBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
