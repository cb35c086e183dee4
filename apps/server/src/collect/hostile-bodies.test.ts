// 4 000 generated bodies against POST /api/event: well-formed-looking events with hostile
// values, wrong types and random JSON. Every answer is a 202, 400 or 413 with our error shape,
// never a 500, and the server keeps collecting afterwards.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test-support.js";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

describe("collector under hostile bodies", () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp("pglite", { env: { LOOKOUT_RATE_PER_IP: "1000000" }, rollupDelayMs: 1000 });
    const u = await t.user("fuzz@example.com");
    site = await t.property(u.accountId, "https://f.test");
  });
  afterAll(async () => {
    await t?.close();
  });

  const hostileString = fc.oneof(
    fc.string({ maxLength: 50 }),
    fc.constantFrom(
      "__proto__",
      "constructor",
      "'; DROP TABLE events; --",
      "<script>alert(1)</script>",
      "\u0000",
      "\ud800",
      "javascript:alert(1)",
    ),
    fc.string({ minLength: 1990, maxLength: 2100 }),
  );
  const scalar = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const eventLike = fc.record(
    {
      p: fc.oneof(fc.constant("SITE"), hostileString),
      n: fc.oneof(fc.constantFrom("pageview", "engagement", "pageleave", "identify", "signup"), hostileString, fc.integer()),
      u: fc.oneof(fc.webUrl(), hostileString, fc.constant(null)),
      r: fc.oneof(fc.webUrl(), hostileString),
      w: fc.oneof(fc.integer(), fc.double(), hostileString),
      c: fc.oneof(fc.stringMatching(/^[a-z0-9]{8,64}$/), hostileString),
      pr: fc.oneof(fc.dictionary(hostileString, scalar, { maxKeys: 35 }), scalar, fc.array(scalar)),
      rv: fc.oneof(fc.record({ amount: fc.oneof(fc.double(), hostileString), currency: hostileString }), scalar),
      e: hostileString,
      t: fc.dictionary(hostileString, scalar, { maxKeys: 5 }),
      g: fc.oneof(fc.integer(), fc.double(), hostileString),
    },
    { requiredKeys: [] },
  );
  // A valid event with a few fields replaced by hostile ones, so many bodies pass validation.
  const mostlyValid = fc
    .tuple(
      fc.record({
        n: fc.constantFrom("pageview", "engagement", "pageleave", "signup"),
        u: fc.webUrl({ withQueryParameters: true, withFragments: true }),
        c: fc.stringMatching(/^[a-z0-9]{8,64}$/),
        pr: fc.dictionary(
          fc.string({ minLength: 1, maxLength: 20 }),
          fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean()),
          { maxKeys: 5 },
        ),
      }),
      eventLike.map((o) => Object.fromEntries(Object.entries(o).slice(0, 2))),
      fc.boolean(),
    )
    .map(([valid, hostile, keep]) => ({ p: "SITE", ...valid, ...(keep ? hostile : {}) }));
  const body = fc.oneof(
    mostlyValid.map((o) => JSON.stringify(o).replaceAll('"SITE"', JSON.stringify(site))),
    eventLike.map((o) => JSON.stringify(o).replaceAll('"SITE"', JSON.stringify(site))),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
  );

  it("never answers 500 and keeps serving", async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom("text/plain", "application/json"), async (payload, contentType) => {
        const r = await t.app.inject({
          method: "POST",
          url: "/api/event",
          headers: { "content-type": contentType, "user-agent": CHROME },
          payload,
        });
        seen.set(r.statusCode, (seen.get(r.statusCode) ?? 0) + 1);
        expect([202, 400, 413]).toContain(r.statusCode);
        if (r.statusCode !== 202) {
          const json = r.json();
          expect(typeof json.message).toBe("string");
          expect(typeof json.code).toBe("string");
          expect(r.body).not.toMatch(/\bat \S+\.(ts|js):\d+|SELECT |INSERT /);
        }
      }),
      { numRuns: 4_000 },
    );
    // Both kinds of answer occurred: the generator reaches past validation.
    expect(seen.get(202)).toBeGreaterThan(40);
    expect(seen.get(400)).toBeGreaterThan(40);
    const ok = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": CHROME },
      payload: JSON.stringify({ p: site, n: "pageview", u: "https://f.test/after", c: "after-fuzz-1" }),
    });
    expect(ok.statusCode).toBe(202);
    expect(await t.events.events(site, { clientId: "after-fuzz-1" })).toHaveLength(1);
  }, 300_000);
});
