// `generate --live`: simulated visitors browsing a running server through its public collector,
// until Ctrl-C. Addresses go in X-Forwarded-For; the server honours them only when it trusts this
// machine (LOOKOUT_TRUSTED_PROXIES=127.0.0.1), otherwise visitors arrive without a country.
import { createGeoLookup } from "@lookout/ingest";
import { createLiveSimulator } from "@lookout/traffic";
import { sampleCountryIps } from "../demo/demo-site.js";

export async function runLiveTraffic(o: {
  url: string;
  property: string;
  concurrent: number;
  print: (l: string) => void;
}): Promise<void> {
  const base = o.url.replace(/\/$/, "");
  const ips = await sampleCountryIps(createGeoLookup(), 200);
  let sent = 0;
  let failed = 0;
  const sim = createLiveSimulator({
    property: o.property,
    origin: base,
    ips,
    concurrent: o.concurrent,
    async send(e) {
      const res = await fetch(`${base}/api/event`, {
        method: "POST",
        headers: { "content-type": "text/plain", "user-agent": e.userAgent, "x-forwarded-for": e.ip },
        body: JSON.stringify(e.body),
      }).catch(() => null);
      if (res?.status === 202 && !res.headers.get("x-lookout-dropped")) sent++;
      else failed++;
    },
  });
  o.print(`Simulating about ${o.concurrent} visitors on ${o.property} through ${base}/api/event. Ctrl-C stops.`);
  sim.start(1000);
  const report = setInterval(
    () => o.print(`${sim.active} visitors browsing, ${sent} events accepted, ${failed} refused`),
    10_000,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  clearInterval(report);
  await sim.stop();
}
