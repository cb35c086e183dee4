// A session's device in plain words ("Chrome on macOS"), from the user agent it signed in with,
// read by the collector's own parser (@lookout/ingest ua-parser-js) so both name browsers alike.
import { parseUserAgent } from "@lookout/ingest";

export function describeDevice(userAgent: string): string {
  const raw = userAgent.trim();
  if (raw === "") return "Unknown device";
  const ua = parseUserAgent(raw);
  if (ua.browser && ua.os) return `${ua.browser} on ${ua.os}`;
  if (ua.browser) return ua.browser;
  if (ua.os) return `A browser on ${ua.os}`;
  // A command-line client or script ("curl/8.4.0", "node"): its own name is the plainest word.
  const product = /^[A-Za-z][\w.-]{0,30}/.exec(raw)?.[0];
  return product && product !== "Mozilla" ? product : "Unknown device";
}
