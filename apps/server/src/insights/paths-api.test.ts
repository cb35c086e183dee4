// The paths insight through the API (DESIGN.md §5): an unsaved spec's answer with exact edges on
// hand-built visits, 400s naming the field for bad specs and bad nodes, and the visitors behind a
// node (POST …/insights/actors), each a client id that links to /customers/{clientId}.
import { type EventRow, eventRow } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

describe("paths insight API", () => {
  let t: TestApp;
  let site: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const alice = await t.user("alice@example.com");
    site = await t.property(alice.accountId, "https://shop.test");
    token = (await t.login(alice.email, alice.password)).token;
    const ev = (ts: string, v: string, path: string, o: Partial<EventRow> = {}): EventRow =>
      eventRow({
        property: site,
        ts: new Date(ts),
        name: "pageview",
        path,
        visitor_id: v,
        client_id: `cid-${v}`,
        session_id: `${v}-s`,
        ...o,
      });
    await t.events.append([
      ev("2024-03-05T10:00:00Z", "v1", "/"),
      ev("2024-03-05T10:01:00Z", "v1", "/pricing"),
      ev("2024-03-05T10:02:00Z", "v1", "/pricing"),
      ev("2024-03-05T10:03:00Z", "v1", "/", { name: "signup" }),
      ev("2024-03-06T10:00:00Z", "v2", "/"),
      ev("2024-03-06T10:05:00Z", "v2", "/pricing"),
      ev("2024-03-07T10:00:00Z", "v3", "/"),
      ev("2024-03-07T10:01:00Z", "v3", "/docs"),
    ]);
    await t.events.sync();
  });
  afterAll(async () => {
    await t?.close();
  });
  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as Record<string, unknown>,
    });
  const spec = { kind: "paths", period: "custom", date: "2024-03-05,2024-03-07", type: "all", start: "/", steps: 4 };

  it("answers the top edges by distinct visitors, with their nodes", async () => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, spec);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      kind: "paths",
      results: {
        edges: [
          { step: 1, source: "/", target: "/pricing", visitors: 2 },
          { step: 1, source: "/", target: "/docs", visitors: 1 },
          { step: 2, source: "/pricing", target: "signup", visitors: 1 },
        ],
        nodes: [
          { step: 1, node: "/", visitors: 3 },
          { step: 2, node: "/pricing", visitors: 2 },
          { step: 2, node: "/docs", visitors: 1 },
          { step: 3, node: "signup", visitors: 1 },
        ],
        paths: 3,
      },
    });
  });

  it("lists the visitors behind a node, paged", async () => {
    const url = `/api/v1/properties/${site}/insights/actors`;
    const r = await post(url, { spec, at: { step: 2, node: "/pricing" }, limit: 1 });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ visitors: [{ client_id: "cid-v1" }], has_more: true });
    const next = await post(url, { spec, at: { step: 2, node: "/pricing" }, limit: 1, offset: 1 });
    expect(next.json()).toMatchObject({ visitors: [{ client_id: "cid-v2" }], has_more: false });
  });

  it.each([
    [{ ...spec, steps: 11 }, "steps", "too many steps"],
    [{ ...spec, steps: 2 }, "steps", "too few steps"],
    [{ ...spec, end: "/" }, "end", "must differ"],
    [{ ...spec, type: "screen" }, "type", ""],
    [{ ...spec, filters: "nope==1" }, "filters", ""],
  ])("answers 400 naming the field for a bad spec %#", async (body, field, message) => {
    const r = await post(`/api/v1/properties/${site}/insights/query`, body);
    expect(r.statusCode).toBe(400);
    expect(JSON.stringify(r.json())).toContain(field);
    expect(JSON.stringify(r.json())).toContain(message);
    expect(r.json()).toHaveProperty("code");
  });

  it("answers 400 for a node that is not one (step out of range, no node)", async () => {
    const url = `/api/v1/properties/${site}/insights/actors`;
    for (const at of [{ step: 0, node: "/" }, { step: 11, node: "/" }, { step: 1 }, "x"]) {
      const r = await post(url, { spec, at });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(/^at/);
    }
  });
});
