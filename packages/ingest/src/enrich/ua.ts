// User agent -> browser, major version, OS, OS version, device class and bot flag, via
// ua-parser-js v2. Real traffic repeats a few thousand user agents, so results are LRU-cached.
import type { Device } from "@lookout/schema";
import { UAParser } from "ua-parser-js";
import { LruMap } from "../lru.js";
import { isBotUserAgent } from "./bot.js";

/** Longer user agents are cut before parsing and caching: no browser needs more, attackers do. */
export const MAX_USER_AGENT_LENGTH = 512;

export interface UaInfo {
  browser: string;
  /** Major version only: minor versions split every breakdown without telling anyone anything. */
  browser_version: string;
  os: string;
  /** Major.minor, e.g. "17.4" for iOS 17.4.1. */
  os_version: string;
  device: Device;
  bot: boolean;
}

// The device dimension already says "mobile", so the browser is just the browser.
const BROWSER_NAMES: Record<string, string> = {
  "Mobile Safari": "Safari",
  "Mobile Chrome": "Chrome",
  "Mobile Firefox": "Firefox",
  "Chrome Headless": "Chrome",
};

function deviceClass(type: string | undefined): Device {
  if (type === "mobile" || type === "wearable") return "mobile";
  if (type === "tablet") return "tablet";
  // Desktops, smart TVs, consoles and XR headsets browse like desktops: large screen, no touch UI.
  return "desktop";
}

function majorMinor(version: string | undefined): string {
  if (!version) return "";
  const m = /^\d+(\.\d+)?/.exec(version);
  return m ? m[0] : version.slice(0, 20);
}

export function parseUserAgentUncached(userAgent: string): UaInfo {
  const ua = userAgent.slice(0, MAX_USER_AGENT_LENGTH);
  const r = UAParser(ua);
  const name = r.browser.name ?? "";
  return {
    browser: BROWSER_NAMES[name] ?? name,
    browser_version: r.browser.major ?? "",
    os: r.os.name ?? "",
    os_version: majorMinor(r.os.version),
    device: deviceClass(r.device.type),
    bot: isBotUserAgent(ua),
  };
}

export function createUaParser(cacheSize = 5_000): (userAgent: string) => UaInfo {
  const cache = new LruMap<string, UaInfo>(cacheSize);
  return (userAgent) => {
    const ua = userAgent.slice(0, MAX_USER_AGENT_LENGTH);
    let info = cache.get(ua);
    if (info === undefined) {
      info = Object.freeze(parseUserAgentUncached(ua));
      cache.set(ua, info);
    }
    return info;
  };
}

/** A process-wide cached parser for callers that do not need their own cache. */
export const parseUserAgent = createUaParser();
