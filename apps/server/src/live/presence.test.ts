import { memoryLiveBus } from "@lookout/storage";
import { describe, expect, it } from "vitest";
import { Presence, type PresenceChange, type Sighting } from "./presence.js";

function setup() {
  let now = 1_000_000;
  const p = new Presence(memoryLiveBus(), () => now);
  const changes: [string, PresenceChange][] = [];
  p.onChange((id, c) => changes.push([id, c]));
  const seen = (s: Partial<Sighting> = {}) =>
    p.apply({
      kind: "seen",
      s: {
        clientid: "c1",
        propertyId: "P",
        country: "DE",
        page: "/",
        title: "Home",
        source: "Google",
        referrer: "",
        device: "desktop",
        browser: "Firefox",
        os: "Linux",
        ts: now,
        pageKey: "/",
        pageview: true,
        ...s,
      },
    });
  return { p, changes, seen, tick: (ms: number) => (now += ms), now: () => now };
}

describe("Presence", () => {
  it("adds a visitor on first sighting and updates only on visible change", () => {
    const { p, changes, seen, tick } = setup();
    seen();
    tick(20_000);
    seen({ ts: 1_020_000 });
    expect(changes).toHaveLength(1);
    seen({ ts: 1_020_000, page: "/pricing", pageKey: "/pricing" });
    expect(changes).toHaveLength(2);
    expect(changes[1]?.[1]).toMatchObject({ type: "add", visitor: { page: "/pricing", arrivedAt: 1_000_000, active: true } });
    expect(p.list(["P"])).toHaveLength(1);
  });

  it("removes a visitor 60 s after the last sighting", () => {
    const { p, changes, seen, tick } = setup();
    seen();
    tick(59_999);
    p.sweep();
    expect(p.list(["P"])).toHaveLength(1);
    tick(1);
    p.sweep();
    expect(p.list(["P"])).toHaveLength(0);
    expect(changes.at(-1)).toEqual(["P", { type: "remove", clientid: "c1" }]);
  });

  it("sweeps whoever expired, however sightings interleave", () => {
    const { p, seen, tick } = setup();
    seen({ clientid: "c1" });
    tick(10_000);
    seen({ clientid: "c2", ts: 1_010_000 });
    tick(10_000);
    seen({ clientid: "c1", ts: 1_020_000 }); // c1 was seen after c2 now
    tick(50_000);
    p.sweep(); // 70 s: c2 (last seen at 10 s) is gone, c1 (at 20 s) is not
    expect(p.list(["P"]).map((v) => v.clientid)).toEqual(["c1"]);
    tick(10_000);
    p.sweep();
    expect(p.list(["P"])).toHaveLength(0);
  });

  it("ends presence at once on pageleave of the last open page, not while another tab is open", () => {
    const { p, seen, now } = setup();
    seen({ pageKey: "/a" });
    seen({ pageKey: "/b", page: "/b" });
    p.apply({ kind: "leave", propertyId: "P", clientid: "c1", pageKey: "/a", ts: now() });
    expect(p.list(["P"])).toHaveLength(1);
    p.apply({ kind: "leave", propertyId: "P", clientid: "c1", pageKey: "/b", ts: now() });
    expect(p.list(["P"])).toHaveLength(0);
  });

  it("does not let a closing page's last heartbeat revive a visitor who left; a new pageview does", () => {
    const { p, seen, tick, now } = setup();
    seen({ pageKey: "/a" });
    p.apply({ kind: "leave", propertyId: "P", clientid: "c1", pageKey: "/a", ts: now() });
    seen({ pageKey: "/a", pageview: false });
    expect(p.list(["P"])).toHaveLength(0);
    tick(1000);
    seen({ pageKey: "/a", pageview: true, ts: now() });
    expect(p.list(["P"])).toHaveLength(1);
  });

  it("keeps properties apart and counts only visitors with a country", () => {
    const { p, seen } = setup();
    seen();
    seen({ clientid: "c2", country: undefined });
    seen({ clientid: "c3", propertyId: "Q" });
    expect(p.count("P")).toBe(1);
    expect(
      p
        .list(["P"])
        .map((v) => v.clientid)
        .sort(),
    ).toEqual(["c1", "c2"]);
    expect(p.list(["Q"]).map((v) => v.clientid)).toEqual(["c3"]);
  });

  it("ignores stale and malformed signals", () => {
    const { p, seen, now } = setup();
    seen({ ts: now() - 61_000 });
    p.apply({ kind: "bogus" } as never);
    p.apply(null as never);
    expect(p.list(["P"])).toHaveLength(0);
  });

  it("spreads signals to every process on the bus", async () => {
    const bus = memoryLiveBus();
    const a = new Presence(bus);
    const b = new Presence(bus);
    await a.start();
    await b.start();
    await a.signal({
      kind: "seen",
      s: {
        clientid: "x",
        propertyId: "P",
        country: "FR",
        page: "/",
        title: "",
        source: "",
        referrer: "",
        device: "",
        browser: "",
        os: "",
        ts: Date.now(),
        pageKey: "/",
        pageview: true,
      },
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(b.list(["P"])).toHaveLength(1);
    a.stop();
    b.stop();
  });

  it("applies a batch of signals in order, in every process", async () => {
    const bus = memoryLiveBus();
    const a = new Presence(bus);
    const b = new Presence(bus);
    await a.start();
    await b.start();
    const sighting = (clientid: string, pageKey: string): Sighting => ({
      clientid,
      propertyId: "P",
      country: "FR",
      page: pageKey,
      title: "",
      source: "",
      referrer: "",
      device: "",
      browser: "",
      os: "",
      ts: Date.now(),
      pageKey,
      pageview: true,
    });
    await a.signal([
      { kind: "seen", s: sighting("x", "/") },
      { kind: "seen", s: sighting("y", "/") },
      { kind: "leave", propertyId: "P", clientid: "x", pageKey: "/", ts: Date.now() },
    ]);
    await new Promise((r) => setTimeout(r, 10));
    for (const p of [a, b]) expect(p.list(["P"]).map((v) => v.clientid)).toEqual(["y"]);
    a.stop();
    b.stop();
  });
});
