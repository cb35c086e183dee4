// The live socket protocol with a real `ws` client against a listening server.
import type { AddressInfo } from "node:net";
import type { ServerSocketMessage } from "@lookout/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { hostileSocketMessage } from "../http/hostile-values.js";
import { createTestApp, type TestApp } from "../test-support.js";
import type { Sighting } from "./presence.js";

let t: TestApp;
let base: string;
let alice: Awaited<ReturnType<TestApp["user"]>>;
let bob: Awaited<ReturnType<TestApp["user"]>>;
let aliceToken: string;
let aliceSite: string;
let bobSite: string;

beforeAll(async () => {
  t = await createTestApp("pglite");
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
  alice = await t.user("alice-live@example.com");
  bob = await t.user("bob-live@example.com");
  aliceSite = await t.property(alice.accountId, "https://a.test");
  bobSite = await t.property(bob.accountId, "https://b.test");
  aliceToken = (await t.login(alice.email, alice.password)).token;
});
afterAll(async () => {
  await t?.close();
});

interface Conn {
  ws: WebSocket;
  messages: ServerSocketMessage[];
  closed: Promise<{ code: number; reason: string }>;
  next(pred?: (m: ServerSocketMessage) => boolean): Promise<ServerSocketMessage>;
  send(m: unknown): void;
}

function connect(headers: Record<string, string>): Promise<Conn> {
  const ws = new WebSocket(base, { headers });
  const messages: ServerSocketMessage[] = [];
  const waiters: { pred: (m: ServerSocketMessage) => boolean; resolve: (m: ServerSocketMessage) => void }[] = [];
  let seen = 0;
  ws.on("message", (d) => {
    const m = JSON.parse(String(d)) as ServerSocketMessage;
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((r) =>
    ws.on("close", (code, reason) => r({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.on("open", () =>
      resolve({
        ws,
        messages,
        closed,
        send: (m) => ws.send(typeof m === "string" ? m : JSON.stringify(m)),
        next(pred = () => true) {
          const hit = messages.slice(seen).find(pred);
          if (hit) {
            seen = messages.indexOf(hit) + 1;
            return Promise.resolve(hit);
          }
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error("no message")), 5000);
            waiters.push({
              pred,
              resolve: (m) => {
                clearTimeout(timer);
                seen = messages.indexOf(m) + 1;
                res(m);
              },
            });
          });
        },
      }),
    );
    ws.on("error", reject);
  });
}

const bearer = () => ({ authorization: `Bearer ${aliceToken}` });

function sighting(propertyId: string, over: Partial<Sighting> = {}): Sighting {
  return {
    clientid: "visitor-1",
    propertyId,
    country: "DE",
    page: "/",
    title: "Home",
    source: "Google",
    referrer: "https://www.google.com/",
    device: "desktop",
    browser: "Firefox",
    os: "Linux",
    ts: Date.now(),
    pageKey: "/",
    pageview: true,
    ...over,
  };
}

describe("live socket", () => {
  it("closes unauthenticated sockets with 4401", async () => {
    const c = await connect({});
    expect((await c.closed).code).toBe(4401);
    const bad = await connect({ authorization: "Bearer nonsense" });
    expect((await bad.closed).code).toBe(4401);
  });

  it("closes with 4403 when agentInfo names a foreign account", async () => {
    const c = await connect(bearer());
    c.send({ type: "agentInfo", data: { customerId: bob.accountId } });
    expect((await c.closed).code).toBe(4403);
  });

  it("sends the initial list, then add, update and remove for the account's properties only", async () => {
    const c = await connect(bearer());
    await t.presence.signal({ kind: "seen", s: sighting(aliceSite, { clientid: "early" }) });
    c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    const initial = await c.next((m) => m.type === "initial_customers");
    expect(initial).toMatchObject({
      type: "initial_customers",
      data: [{ clientid: "early", propertyId: aliceSite, country: "DE", active: true }],
    });

    await t.presence.signal({ kind: "seen", s: sighting(bobSite, { clientid: "bobs-visitor" }) });
    await t.presence.signal({ kind: "seen", s: sighting(aliceSite) });
    const add = await c.next((m) => m.type === "add_customer");
    expect(add).toMatchObject({ type: "add_customer", data: { clientid: "visitor-1", active: true, page: "/" } });

    await t.presence.signal({ kind: "seen", s: sighting(aliceSite, { page: "/pricing", pageKey: "/pricing" }) });
    expect(await c.next((m) => m.type === "add_customer")).toMatchObject({ data: { clientid: "visitor-1", page: "/pricing" } });

    await t.presence.signal({ kind: "leave", propertyId: aliceSite, clientid: "visitor-1", pageKey: "/pricing", ts: Date.now() });
    await t.presence.signal({ kind: "leave", propertyId: aliceSite, clientid: "visitor-1", pageKey: "/", ts: Date.now() });
    expect(await c.next((m) => m.type === "remove_customer")).toEqual({ type: "remove_customer", customerId: "visitor-1" });

    // Time-out: 60 s without a sighting.
    t.presence.sweep(Date.now() + 61_000);
    expect(await c.next((m) => m.type === "remove_customer")).toEqual({ type: "remove_customer", customerId: "early" });
    expect(c.messages.some((m) => JSON.stringify(m).includes("bobs-visitor"))).toBe(false);
    c.ws.close();
  });

  it("ignores malformed messages and pings, and stays open", async () => {
    const c = await connect(bearer());
    c.send("not json");
    c.send({ type: "nope" });
    c.send({ type: "agentInfo", data: {} });
    c.send({ type: "ping2" });
    c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    expect((await c.next((m) => m.type === "initial_customers")).type).toBe("initial_customers");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it("survives hostile messages: generated ones are ignored, the socket stays open and the server answers", async () => {
    const c = await connect(bearer());
    // The message that once ended the process: a customerId the metadata store cannot hold.
    c.send({ type: "agentInfo", data: { customerId: "\u0000" } });
    await fc.assert(
      fc.asyncProperty(hostileSocketMessage, async (m) => {
        c.send(m);
      }),
      { numRuns: 200 },
    );
    c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    expect((await c.next((m) => m.type === "initial_customers")).type).toBe("initial_customers");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
    c.ws.close();
  });

  it("closes only the socket whose message failed, and keeps serving the others", async () => {
    const other = await connect(bearer());
    const c = await connect(bearer());
    const accounts = t.meta.accounts;
    const roleOf = accounts.roleOf.bind(accounts);
    accounts.roleOf = async () => {
      throw new Error("store failure injected by the test");
    };
    try {
      c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
      expect((await c.closed).code).toBe(1011);
    } finally {
      accounts.roleOf = roleOf;
    }
    other.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    expect((await other.next((m) => m.type === "initial_customers")).type).toBe("initial_customers");
    other.ws.close();
  });

  it("accepts the session cookie from the app's own origin and refuses a foreign origin", async () => {
    const s = await t.login(alice.email, alice.password);
    const host = new URL(base).host;
    const ok = await connect({ cookie: `lookout_session=${s.token}`, origin: `http://${host}` });
    ok.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    expect((await ok.next()).type).toBe("initial_customers");
    ok.ws.close();
    const evil = await connect({ cookie: `lookout_session=${s.token}`, origin: "https://evil.example" });
    expect((await evil.closed).code).toBe(4403);
  });

  it("ends the feed when the token is revoked or the membership removed", async () => {
    const s = await t.login(alice.email, alice.password);
    const c = await connect({ authorization: `Bearer ${s.token}` });
    c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    await c.next();
    await t.meta.tokens.revoke(s.token);
    expect((await c.closed).code).toBe(4401);

    const carol = await t.user("carol-live@example.com");
    await t.meta.accounts.addMember(alice.accountId, carol.id, "viewer");
    const cs = await t.login(carol.email, carol.password);
    const cc = await connect({ authorization: `Bearer ${cs.token}` });
    cc.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    await cc.next();
    await t.meta.accounts.removeMember(alice.accountId, carol.id);
    expect((await cc.closed).code).toBe(4403);
  });

  it("rechecks a credential shared by many sockets once a round, not once a socket", async () => {
    const s = await t.login(alice.email, alice.password);
    const conns = await Promise.all(Array.from({ length: 10 }, () => connect({ authorization: `Bearer ${s.token}` })));
    for (const c of conns) c.send({ type: "agentInfo", data: { customerId: alice.accountId } });
    await Promise.all(conns.map((c) => c.next((m) => m.type === "initial_customers")));
    const tokens = t.meta.tokens;
    const resolve = tokens.resolve.bind(tokens);
    let asked = 0;
    tokens.resolve = (token) => {
      if (token === s.token) asked++;
      return resolve(token);
    };
    try {
      // Rounds run every 2.5 s: two or three of them in this window, ten sockets each.
      await new Promise((r) => setTimeout(r, 6000));
    } finally {
      tokens.resolve = resolve;
    }
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(asked).toBeLessThanOrEqual(3);
    for (const c of conns) expect(c.ws.readyState).toBe(WebSocket.OPEN);
    for (const c of conns) c.ws.close();
    await Promise.all(conns.map((c) => c.closed));
  });

  it("caps sockets per user", async () => {
    const conns = await Promise.all(Array.from({ length: 20 }, () => connect(bearer())));
    const extra = await connect(bearer());
    expect((await extra.closed).code).toBe(4429);
    for (const c of conns) c.ws.close();
  });
});
