// DELETE /api/v1/properties/:id: admins of the account remove a property with its events; others
// get 404, cookie callers need the XSRF header, and the collector stops accepting its events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROPPED_HEADER } from "../collect/routes.js";
import { createTestApp, type TestApp } from "../test-support.js";

describe("deleting a property", () => {
  let t: TestApp;
  let site: string;
  let alice: { token: string; cookies: Record<string, string> };
  let bobToken: string;
  beforeAll(async () => {
    t = await createTestApp("pglite");
    const a = await t.user("alice@example.com");
    const b = await t.user("bob@example.com");
    site = await t.property(a.accountId, "https://s.test", { isDemo: true });
    alice = await t.login(a.email, a.password);
    bobToken = (await t.login(b.email, b.password)).token;
    const r = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0 Safari/537.36" },
      payload: JSON.stringify({ p: site, n: "pageview", u: "https://s.test/" }),
    });
    expect(r.statusCode).toBe(202);
    expect(await t.events.events(site)).toHaveLength(1);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses strangers and cookie calls without the XSRF header", async () => {
    const stranger = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/properties/${site}`,
      headers: { authorization: `Bearer ${bobToken}` },
    });
    expect(stranger.statusCode).toBe(404);
    const noXsrf = await t.app.inject({ method: "DELETE", url: `/api/v1/properties/${site}`, cookies: alice.cookies });
    expect(noXsrf.statusCode).toBe(403);
    expect(await t.meta.properties.findByUniqueId(site)).toBeDefined();
  });

  it("removes the property and its events for an admin; later events are dropped", async () => {
    const r = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/properties/${site}`,
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(r.statusCode).toBe(204);
    expect(await t.meta.properties.findByUniqueId(site)).toBeUndefined();
    expect(await t.events.events(site)).toHaveLength(0);
    const late = await t.app.inject({
      method: "POST",
      url: "/api/event",
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ p: site, n: "pageview", u: "https://s.test/" }),
    });
    expect(late.headers[DROPPED_HEADER]).toBe("unknown_property");
  });
});
