// Devices in plain words, from real user agents of browsers and scripts.
import { describe, expect, it } from "vitest";
import { describeDevice } from "./device.js";

describe("describeDevice", () => {
  it.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    ["curl/8.4.0", "curl"],
    ["node", "node"],
    ["", "Unknown device"],
    ["Mozilla/5.0", "Unknown device"],
  ])("%s -> %s", (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });
});
