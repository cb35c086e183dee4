// The live list's transitions (SPEC.md §4) and the displayed count (SPEC.md §5) through the store:
// distinct clientid, active, of the current property, with a country.
import { liveCount } from "@lookout/schema";
import { beforeEach, describe, expect, it } from "vitest";
import { liveVisitor } from "../../lib/test-live-visitor";
import { LiveStore } from "./live-store";

const visitor = liveVisitor;

let now: number;
let store: LiveStore;
let notified: number;
const count = (propertyId: string | undefined = "p1") => liveCount(store.getSnapshot(), propertyId);

beforeEach(() => {
  now = 50_000;
  notified = 0;
  store = new LiveStore({ now: () => now, schedule: (flush) => flush() });
  store.subscribe(() => notified++);
});

describe("messages", () => {
  it("initial_customers replaces the list, every visitor active", () => {
    store.apply({ type: "add_customer", data: visitor("old") });
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("b", { active: false })] });
    expect(store.getSnapshot().map((v) => [v.clientid, v.active])).toEqual([
      ["a", true],
      ["b", true],
    ]);
    expect(count()).toBe(2);
  });

  it("add_customer adds a new visitor, active", () => {
    store.apply({ type: "initial_customers", data: [visitor("a")] });
    store.apply({ type: "add_customer", data: visitor("b", { active: false }) });
    expect(store.getSnapshot().map((v) => [v.clientid, v.active])).toEqual([
      ["a", true],
      ["b", true],
    ]);
  });

  it("add_customer updates a known visitor by clientid", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("b")] });
    store.apply({ type: "add_customer", data: visitor("a", { page: "/pricing", title: "Pricing" }) });
    const a = store.getSnapshot().filter((v) => v.clientid === "a");
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ page: "/pricing", title: "Pricing", active: true });
    expect(store.getSnapshot()).toHaveLength(2);
  });

  it("remove_customer marks the visitor inactive without deleting it", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("b")] });
    now = 60_000;
    store.apply({ type: "remove_customer", customerId: "a" });
    const a = store.getSnapshot().find((v) => v.clientid === "a");
    expect(a).toMatchObject({ active: false, leftAt: 60_000, page: "/" });
    expect(store.getSnapshot()).toHaveLength(2);
    expect(count()).toBe(1);
  });

  it("a removed visitor who comes back is active again", () => {
    store.apply({ type: "initial_customers", data: [visitor("a")] });
    store.apply({ type: "remove_customer", customerId: "a" });
    store.apply({ type: "add_customer", data: visitor("a", { arrivedAt: 70_000 }) });
    const a = store.getSnapshot().find((v) => v.clientid === "a");
    expect(a?.active).toBe(true);
    expect(a?.leftAt).toBeUndefined();
    expect(count()).toBe(1);
  });

  it("remove_customer for an unknown clientid changes nothing", () => {
    store.apply({ type: "initial_customers", data: [visitor("a")] });
    store.apply({ type: "remove_customer", customerId: "zzz" });
    expect(store.getSnapshot().map((v) => v.active)).toEqual([true]);
  });

  it("keeps the same clientid on two properties apart, and remove marks both", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("a", { propertyId: "p2" })] });
    store.apply({ type: "add_customer", data: visitor("a", { page: "/x" }) });
    expect(count("p1")).toBe(1);
    expect(count("p2")).toBe(1);
    store.apply({ type: "remove_customer", customerId: "a" });
    expect(count("p1")).toBe(0);
    expect(count("p2")).toBe(0);
  });

  it("forgets the longest-gone inactive visitors past its cap, never active ones", () => {
    store = new LiveStore({ now: () => now, schedule: (f) => f(), maxInactive: 2 });
    store.apply({ type: "initial_customers", data: ["a", "b", "c", "d"].map((id) => visitor(id)) });
    for (const id of ["a", "b", "c"]) {
      now += 1000;
      store.apply({ type: "remove_customer", customerId: id });
    }
    expect(store.getSnapshot().map((v) => v.clientid)).toEqual(["b", "c", "d"]);
  });

  it("clear empties the list", () => {
    store.apply({ type: "initial_customers", data: [visitor("a")] });
    store.clear();
    expect(store.getSnapshot()).toEqual([]);
  });
});

describe("snapshots and notifications", () => {
  it("gives a new array after a change and the same one otherwise", () => {
    const before = store.getSnapshot();
    expect(store.getSnapshot()).toBe(before);
    store.apply({ type: "add_customer", data: visitor("a") });
    const after = store.getSnapshot();
    expect(after).not.toBe(before);
    expect(store.getSnapshot()).toBe(after);
  });

  it("coalesces a burst of changes into one notification", () => {
    const flushes: (() => void)[] = [];
    store = new LiveStore({ schedule: (f) => flushes.push(f) });
    let calls = 0;
    store.subscribe(() => calls++);
    for (let i = 0; i < 50; i++) store.apply({ type: "add_customer", data: visitor(`v${i}`) });
    expect(flushes).toHaveLength(1);
    flushes[0]!();
    expect(calls).toBe(1);
    expect(store.getSnapshot()).toHaveLength(50);
  });

  it("notifies subscribers and stops after unsubscribe", () => {
    const off = store.subscribe(() => {});
    store.apply({ type: "add_customer", data: visitor("a") });
    expect(notified).toBe(1);
    off();
    store.apply({ type: "add_customer", data: visitor("b") });
    expect(notified).toBe(2);
  });
});

describe("the displayed count (SPEC.md §5)", () => {
  it("counts nothing without a current property", () => {
    store.apply({ type: "initial_customers", data: [visitor("a")] });
    expect(liveCount(store.getSnapshot(), undefined)).toBe(0);
  });

  it("leaves out inactive visitors", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("b")] });
    store.apply({ type: "remove_customer", customerId: "b" });
    expect(count()).toBe(1);
  });

  it("leaves out visitors of other properties", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("b", { propertyId: "p2" })] });
    expect(count("p1")).toBe(1);
    expect(count("p2")).toBe(1);
    expect(count("p3")).toBe(0);
  });

  it("leaves out visitors without a country", () => {
    store.apply({
      type: "initial_customers",
      data: [visitor("a"), visitor("b", { country: undefined }), visitor("c", { country: "" })],
    });
    expect(count()).toBe(1);
  });

  it("counts a clientid once however often it is listed", () => {
    store.apply({ type: "initial_customers", data: [visitor("a"), visitor("a", { page: "/2" }), visitor("b")] });
    store.apply({ type: "add_customer", data: visitor("b", { page: "/3" }) });
    store.apply({ type: "add_customer", data: visitor("b", { page: "/4" }) });
    expect(count()).toBe(2);
  });

  it("follows arrivals and departures", () => {
    expect(count()).toBe(0);
    store.apply({ type: "add_customer", data: visitor("a") });
    expect(count()).toBe(1);
    store.apply({ type: "add_customer", data: visitor("b", { country: undefined }) });
    expect(count()).toBe(1);
    store.apply({ type: "remove_customer", customerId: "a" });
    expect(count()).toBe(0);
  });
});
