// The Lookout browser tracker, served at /js/script.js (DESIGN.md §5). It owns everything that
// happens in the visitor's browser: pageviews (including SPA navigation), custom events, identify,
// outbound/download clicks, engaged-time heartbeats and the leave beacon. Budget: 1.5 KB gzipped,
// hence terse code. It must never break the host page, so every entry point swallows its errors.
//
// <script defer src="https://HOST/js/script.js" data-property="ID"></script>, optional attributes:
//   data-api="URL"         collector endpoint (default: the script's origin + /api/event)
//   data-hash              hash-based routing: the fragment is part of the page path
//   data-cookieless        store nothing in the browser; the server hashes a daily visitor id
//   data-outbound          report clicks on links to other hosts ("Outbound Link: Click")
//   data-downloads[="pdf,zip"]  report clicks on file links ("File Download"); default list below
//   data-allow-localhost   also track on localhost, *.localhost, 127.x.x.x, [::1], 0.0.0.0, file:
//   data-heartbeat-ms="N"  engagement heartbeat interval (default 20000; for tests)
// Opt out in a browser with localStorage.lookout_ignore = "true".

type Props = Record<string, string | number | boolean>;
interface Options {
  props?: Props;
  revenue?: { amount: number | string; currency: string };
}
interface Lookout {
  (name: string, options?: Options): void;
  identify(email: string, traits?: Props): void;
  /** Calls made through a stub before the script loaded. */
  q?: ArrayLike<unknown>[];
}
declare global {
  interface Window {
    lookout?: Lookout;
  }
}

const DOWNLOADS =
  "pdf,xlsx,xls,docx,doc,txt,rtf,csv,exe,key,pps,ppt,pptx,7z,pkg,rar,gz,zip,avi,mov,mp4,mpeg,wmv,midi,mp3,wav,wma,dmg,iso,apk,epub";

// biome-ignore lint/suspicious/noExplicitAny: the wrapper forwards arbitrary arguments
const safe = <F extends (...a: any[]) => unknown>(f: F) =>
  ((...a) => {
    try {
      return f(...a);
    } catch {}
  }) as F;

safe(() => {
  // Included twice: the first copy already counts everything.
  if (window.lookout?.identify) return;
  const d = document;
  const loc = location;
  const script = (d.currentScript || d.querySelector("script[data-property]")) as HTMLScriptElement;
  const attr = (name: string) => script.getAttribute(`data-${name}`);
  const property = attr("property");
  const endpoint = attr("api") || `${new URL(script.src).origin}/api/event`;
  const hashMode = attr("hash") != null;
  const downloads = attr("downloads");
  const off =
    !property ||
    (attr("allow-localhost") == null &&
      (/^(localhost|127(\.\d+){3}|0\.0\.0\.0|\[::1\])$|\.localhost$/.test(loc.hostname) || loc.protocol === "file:"));
  const visible = () => d.visibilityState === "visible";
  let clientId: string | undefined;
  let lastPath: string | undefined;
  let lastHref = loc.href;
  let engaged = 0;
  let since = visible() ? Date.now() : 0;

  // Storage access itself throws when the browser blocks it; that must cost only the client id.
  const ignored = safe(() => localStorage.lookout_ignore === "true");

  const send = safe((name: string, extra?: object) => {
    if (off || ignored()) return;
    const body = JSON.stringify({
      p: property,
      n: name,
      // Over-long values would fail validation and lose the event; a cut URL still counts.
      u: loc.href.slice(0, 2e3),
      r: d.referrer.slice(0, 2e3),
      w: innerWidth,
      c: clientId,
      ti: d.title.slice(0, 1e3),
      l: navigator.language,
      h: hashMode || undefined,
      ...extra,
    });
    if (!navigator.sendBeacon?.(endpoint, body)) fetch(endpoint, { method: "POST", body, keepalive: true }).catch(() => {});
  });

  // Engaged time: only while the page is visible. Each report hands over what accrued since the last.
  const take = () => {
    const now = Date.now();
    const ms = engaged + (since && now - since);
    engaged = 0;
    since = visible() ? now : 0;
    return ms;
  };
  const flush = (href = loc.href) => {
    const ms = take();
    if (ms > 0) send("engagement", { g: ms, u: href.slice(0, 2e3) });
  };

  const page = safe(() => {
    const path = loc.pathname + (hashMode ? loc.hash : "");
    // replaceState, popstate on a fragment link and query-only changes must not count again.
    if (path === lastPath) return;
    if (lastPath != null) flush(lastHref);
    lastPath = path;
    lastHref = loc.href;
    send("pageview");
  });

  if (!off && attr("cookieless") == null && !ignored()) {
    safe(() => {
      clientId = localStorage.lookout_cid ||= Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) =>
        (n + 2 ** 32).toString(36),
      ).join("");
    })();
  }

  const lookout: Lookout = safe((name: string, options?: Options) =>
    send(name, { pr: options?.props, rv: options?.revenue }),
  ) as Lookout;
  lookout.identify = safe((e: string, t?: Props) => send("identify", { e, t }));
  const queued = window.lookout?.q || [];
  window.lookout = lookout;

  const history = window.history;
  for (const method of ["pushState", "replaceState"] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
      original.apply(this, args);
      page();
    };
  }
  // biome-ignore lint/suspicious/noExplicitAny: listeners receive the event type they registered for
  const on = (target: EventTarget, type: string, fn: (e: any) => unknown) => target.addEventListener(type, safe(fn));
  on(window, "popstate", page);
  if (hashMode) on(window, "hashchange", page);
  on(d, "visibilitychange", () => (visible() ? (since = Date.now()) : flush()));
  on(window, "pagehide", () => send("pageleave", { g: take() }));
  // A page restored from the back/forward cache is a new view of it.
  on(window, "pageshow", (e: PageTransitionEvent) => {
    if (e.persisted) {
      lastPath = undefined;
      page();
    }
  });
  setInterval(() => visible() && flush(), +(attr("heartbeat-ms") || 2e4));

  const onClick = (e: MouseEvent) => {
    const a = (e.target as Element).closest("a[href]") as HTMLAnchorElement | null;
    if (!a || (e.type === "auxclick" && e.button !== 1)) return;
    // Query strings of links carry signed-download tokens and personal data: report the path only.
    const url = a.origin + a.pathname;
    const extension = a.pathname.split(".").pop()?.toLowerCase() || "";
    if (downloads != null && (downloads || DOWNLOADS).split(",").includes(extension)) {
      send("File Download", { pr: { url } });
    } else if (attr("outbound") != null && a.host !== loc.host && /^https?:$/.test(a.protocol)) {
      send("Outbound Link: Click", { pr: { url } });
    }
  };
  on(d, "click", onClick);
  on(d, "auxclick", onClick);

  const start = () => {
    page();
    for (const args of queued) lookout(...(Array.from(args) as [string, Options?]));
  };
  // A prerendered page may never be seen; count it when (and if) it is shown.
  if ((d as { prerendering?: boolean }).prerendering) on(d, "prerenderingchange", start);
  else start();
})();

export {};
