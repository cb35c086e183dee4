// The tracking snippet and the examples of the tracker's API, written from the script's real
// options (packages/tracker/src/script.ts: data-outbound, data-downloads, data-hash,
// data-cookieless; window.lookout(name, {props, revenue}) and lookout.identify(email, traits)).
export interface SnippetOptions {
  outbound: boolean;
  downloads: boolean;
  hash: boolean;
  cookieless: boolean;
}

export const NO_OPTIONS: SnippetOptions = { outbound: false, downloads: false, hash: false, cookieless: false };

/** The option's attribute on the script tag (a boolean attribute: present means on). */
export const SNIPPET_ATTRIBUTES: Record<keyof SnippetOptions, string> = {
  outbound: "data-outbound",
  downloads: "data-downloads",
  hash: "data-hash",
  cookieless: "data-cookieless",
};

export function trackerSnippet(origin: string, uniqueId: string, options: SnippetOptions = NO_OPTIONS): string {
  const flags = (Object.keys(SNIPPET_ATTRIBUTES) as (keyof SnippetOptions)[])
    .filter((k) => options[k])
    .map((k) => ` ${SNIPPET_ATTRIBUTES[k]}`)
    .join("");
  return `<script defer src="${origin}/js/script.js" data-property="${uniqueId}"${flags}></script>`;
}

/** Lets calls made before the script loaded wait in a queue (the script replays `lookout.q`). */
export const QUEUE_STUB =
  "<script>window.lookout = window.lookout || function () { (window.lookout.q = window.lookout.q || []).push(arguments) }</script>";

export const API_EXAMPLES = [
  {
    id: "custom",
    title: "Custom event",
    help: "Counts an action by name, with optional properties to break it down by.",
    code: `lookout("Signup", { props: { plan: "pro", source: "pricing" } });`,
  },
  {
    id: "revenue",
    title: "Revenue",
    help: "A custom event with an amount and an ISO 4217 currency code.",
    code: `lookout("Purchase", { revenue: { amount: 49.9, currency: "EUR" }, props: { sku: "T-100" } });`,
  },
  {
    id: "identify",
    title: "Identify",
    help: "Ties this visitor's events to a signed-in user of your site, with optional traits.",
    code: `lookout.identify("ada@example.com", { name: "Ada Lovelace", plan: "pro" });`,
  },
] as const;
