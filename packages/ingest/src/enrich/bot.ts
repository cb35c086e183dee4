// Bot detection: isbot's crawler list plus browser-automation markers it does not treat as bots
// on their own. A missing user agent is a bot too: every real browser sends one.
import { isbot } from "isbot";

// Automation frameworks announce themselves in the UA (or via a flag the tracker cannot read),
// and headless browsers drive synthetic monitoring and scrapers, never people.
const AUTOMATION =
  /headless|phantomjs|slimerjs|playwright|puppeteer|selenium|webdriver|cypress|nightmare|jsdom|lighthouse|pagespeed/i;

export function isBotUserAgent(userAgent: string): boolean {
  const ua = userAgent.trim();
  if (ua.length === 0) return true;
  return AUTOMATION.test(ua) || isbot(ua);
}
