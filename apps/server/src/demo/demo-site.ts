// The demo property (issue 4, DESIGN.md §8): on a fresh install the owner's account gets a
// "Demo site" filled with 30 days of generated history, and while the server runs simulated
// visitors browse it in real time through the real collector, so every screen has something to
// show on day one. It is an ordinary property flagged is_demo: deleting it stops all of this.
import { type GeoLookup, normalizeIp } from "@lookout/ingest";
import { TrackerEventSchema } from "@lookout/schema";
import type { EventStore, MetaStore, PropertyRow } from "@lookout/storage";
import { createLiveSimulator, generateEvents, type LiveSimulator, prng } from "@lookout/traffic";
import type { Collector } from "../collect/collector.js";

export const DEMO_NAME = "Demo site";

export interface DemoDeps {
  meta: MetaStore;
  events: EventStore;
  collector: Collector;
  geo: GeoLookup;
}

/** Writes `days` of generated history for a property straight into the event store. */
export async function generateHistory(
  events: EventStore,
  o: { property: string; days: number; visitors: number; hostname: string; seed?: number; end?: Date },
): Promise<number> {
  let n = 0;
  for (const batch of generateEvents({
    property: o.property,
    days: o.days,
    visitors: o.visitors,
    seed: o.seed ?? 1,
    end: o.end ?? new Date(),
    hostname: o.hostname,
    batchSize: 20_000,
  })) {
    await events.append(batch);
    n += batch.length;
  }
  await events.sync();
  return n;
}

/** Creates the demo property in `accountId` with 30 days of history. */
export async function createDemoProperty(deps: DemoDeps, accountId: string, origin: string): Promise<PropertyRow> {
  const property = await deps.meta.properties.create({
    accountId,
    websiteUrl: `${origin}/demo/site`,
    name: DEMO_NAME,
    timezone: "UTC",
    isDemo: true,
  });
  await generateHistory(deps.events, {
    property: property.unique_id,
    days: 30,
    visitors: 2500,
    hostname: new URL(origin).hostname,
  });
  return property;
}

/** Public addresses that the geo database places in a country, so simulated visitors have one. */
export async function sampleCountryIps(geo: GeoLookup, count: number, seed = 7): Promise<string[]> {
  const r = prng(seed);
  const out: string[] = [];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const ip = normalizeIp([1 + Math.floor(r() * 222), 0, 0, 0].map((b, i) => (i === 0 ? b : Math.floor(r() * 256))).join("."));
    if (ip && (await geo.lookup(ip)).country) out.push(ip);
  }
  return out;
}

/** Simulated visitors on every demo property, sent through the collector in process. */
export async function startDemoTraffic(deps: DemoDeps, origin: string): Promise<() => Promise<void>> {
  const demos = (await deps.meta.properties.listAll()).filter((p) => p.is_demo);
  if (demos.length === 0) return async () => {};
  const ips = await sampleCountryIps(deps.geo, 200);
  const sims: LiveSimulator[] = demos.map((p) =>
    createLiveSimulator({
      property: p.unique_id,
      origin,
      ips,
      concurrent: 6,
      async send(e) {
        const property = await deps.collector.property(p.unique_id);
        if (!property) return; // deleted meanwhile
        const body = TrackerEventSchema.parse(e.body);
        await deps.collector.collect(body, { ip: e.ip, userAgent: e.userAgent, now: new Date() }, property);
      },
    }),
  );
  for (const s of sims) s.start(1000);
  return async () => {
    await Promise.all(sims.map((s) => s.stop()));
  };
}
