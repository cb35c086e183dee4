import { describe, expect, it } from "vitest";
import { isBotUserAgent } from "./bot.js";
import { createUaParser, MAX_USER_AGENT_LENGTH, parseUserAgentUncached } from "./ua.js";

const UA = {
  chromeWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  firefoxWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  edgeWin:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
  firefoxAndroid: "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36",
  samsungTv:
    "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  googlebotSmartphone:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.201 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  curl: "curl/8.5.0",
  headless: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
  phantom: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1",
  playwright: `${"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"} Playwright/1.44`,
  puppeteer: "Mozilla/5.0 (X11; Linux x86_64) Puppeteer/22.0 Chrome/124.0.0.0 Safari/537.36",
  selenium: "Mozilla/5.0 (Windows NT 10.0) Selenium/4.0 Chrome/124.0.0.0 Safari/537.36",
  webdriver: "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/124.0.0.0 Safari/537.36 WebDriver",
};

describe("parseUserAgent", () => {
  it.each([
    ["chromeWin", "Chrome", "124", "Windows", "10", "desktop"],
    ["firefoxWin", "Firefox", "125", "Windows", "10", "desktop"],
    ["safariMac", "Safari", "17", "macOS", "10.15", "desktop"],
    ["edgeWin", "Edge", "124", "Windows", "10", "desktop"],
    ["chromeLinux", "Chrome", "124", "Linux", "", "desktop"],
    ["safariIphone", "Safari", "17", "iOS", "17.4", "mobile"],
    ["chromeIphone", "Chrome", "124", "iOS", "17.4", "mobile"],
    ["ipad", "Safari", "16", "iOS", "16.6", "tablet"],
    ["chromeAndroid", "Chrome", "124", "Android", "14", "mobile"],
    ["firefoxAndroid", "Firefox", "125", "Android", "14", "mobile"],
    ["androidTablet", "Chrome", "123", "Android", "13", "tablet"],
    ["samsungTv", "Samsung Internet", "4", "Tizen", "6.0", "desktop"],
  ] as const)("%s", (key, browser, browser_version, os, os_version, device) => {
    expect(parseUserAgentUncached(UA[key])).toEqual({ browser, browser_version, os, os_version, device, bot: false });
  });

  it("caches by the capped user agent and returns the same object", () => {
    const parse = createUaParser(2);
    const a = parse(UA.chromeWin);
    expect(parse(UA.chromeWin)).toBe(a);
    const long = UA.chromeWin + "x".repeat(2000);
    expect(parse(long).browser).toBe("Chrome");
    expect(parse(`${long.slice(0, MAX_USER_AGENT_LENGTH)}different tail`)).toBe(parse(long));
  });

  it("copes with empty and junk user agents", () => {
    expect(parseUserAgentUncached("")).toEqual({
      browser: "",
      browser_version: "",
      os: "",
      os_version: "",
      device: "desktop",
      bot: true,
    });
    expect(parseUserAgentUncached("\u0000\uffff<script>").device).toBe("desktop");
  });
});

describe("isBotUserAgent", () => {
  it.each([
    "googlebot",
    "googlebotSmartphone",
    "bingbot",
    "curl",
    "headless",
    "phantom",
    "playwright",
    "puppeteer",
    "selenium",
    "webdriver",
  ] as const)("%s is a bot", (key) => expect(isBotUserAgent(UA[key])).toBe(true));

  it.each(["chromeWin", "firefoxWin", "safariMac", "edgeWin", "safariIphone", "chromeAndroid", "ipad", "androidTablet"] as const)(
    "%s is a person",
    (key) => expect(isBotUserAgent(UA[key])).toBe(false),
  );

  it("treats a missing user agent as a bot", () => {
    expect(isBotUserAgent("")).toBe(true);
    expect(isBotUserAgent("   ")).toBe(true);
  });
});
