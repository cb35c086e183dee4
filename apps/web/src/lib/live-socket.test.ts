// The live socket's life cycle under fake timers, with a fake WebSocket constructor injected
// (SPEC.md §4, §9): agentInfo on open, ping every 35 s, retry after 5 s at most 5 times, the
// counter reset by a successful open, no retry after 4401/4402/4403, and message parsing.
import {
  type LiveVisitor,
  type ServerSocketMessage,
  SOCKET_MAX_RETRIES,
  SOCKET_PING_MS,
  SOCKET_RECONNECT_MS,
} from "@lookout/schema";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LiveSocket, type LiveSocketState, liveSocketUrl, type WebSocketLike } from "./live-socket";
import { liveVisitor } from "./test-live-visitor";

class FakeWebSocket implements WebSocketLike {
  static all: FakeWebSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: WebSocketLike["onopen"] = null;
  onclose: WebSocketLike["onclose"] = null;
  onmessage: WebSocketLike["onmessage"] = null;
  onerror: WebSocketLike["onerror"] = null;

  constructor(readonly url: string) {
    FakeWebSocket.all.push(this);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  // What the server (or the network) does:
  serverOpens(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  serverCloses(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }

  serverSends(data: unknown): void {
    this.onmessage?.({ data: typeof data === "string" ? data : JSON.stringify(data) });
  }
}

const latest = () => FakeWebSocket.all.at(-1)!;

const visitor = (over: Partial<LiveVisitor> = {}) => liveVisitor("c1", over);

let messages: ServerSocketMessage[];
let states: LiveSocketState[];
let logged: string[];
let client: LiveSocket;

function makeClient(accountId = "acct-1") {
  return new LiveSocket({
    url: "ws://lookout.test/api",
    accountId: () => accountId,
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    WebSocket: FakeWebSocket,
    log: (m) => logged.push(m),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.all = [];
  messages = [];
  states = [];
  logged = [];
  client = makeClient();
});

afterEach(() => {
  client.stop();
  vi.useRealTimers();
});

describe("opening", () => {
  it("connects to the given URL and sends agentInfo with the account id on open", () => {
    client.start();
    expect(FakeWebSocket.all).toHaveLength(1);
    expect(latest().url).toBe("ws://lookout.test/api");
    expect(latest().sent).toEqual([]);
    latest().serverOpens();
    expect(latest().sent).toEqual([{ type: "agentInfo", data: { customerId: "acct-1" } }]);
    expect(client.state).toEqual({ kind: "open" });
  });

  it("reads the account id at every open", () => {
    let account = "first";
    client = new LiveSocket({
      url: "ws://x/api",
      accountId: () => account,
      onMessage: () => {},
      WebSocket: FakeWebSocket,
      log: () => {},
    });
    client.start();
    latest().serverOpens();
    account = "second";
    latest().serverCloses();
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    latest().serverOpens();
    expect(latest().sent[0]).toEqual({ type: "agentInfo", data: { customerId: "second" } });
  });

  it("does not open a second socket when started twice", () => {
    client.start();
    client.start();
    expect(FakeWebSocket.all).toHaveLength(1);
  });

  it("builds ws: and wss: URLs for the app's own origin", () => {
    expect(liveSocketUrl({ protocol: "http:", host: "localhost:3000" })).toBe("ws://localhost:3000/api");
    expect(liveSocketUrl({ protocol: "https:", host: "stats.example.com" })).toBe("wss://stats.example.com/api");
  });
});

describe("ping", () => {
  it("sends ping2 every 35 000 ms while open, and stops when closed", () => {
    expect(SOCKET_PING_MS).toBe(35_000);
    client.start();
    const ws = latest();
    ws.serverOpens();
    vi.advanceTimersByTime(SOCKET_PING_MS - 1);
    expect(ws.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ws.sent).toEqual([{ type: "agentInfo", data: { customerId: "acct-1" } }, { type: "ping2" }]);
    vi.advanceTimersByTime(SOCKET_PING_MS * 2);
    expect(ws.sent.filter((m) => (m as { type: string }).type === "ping2")).toHaveLength(3);
    ws.serverCloses();
    vi.advanceTimersByTime(SOCKET_PING_MS * 3);
    expect(ws.sent).toHaveLength(4);
  });

  it("keeps one ping timer per open socket across reconnects", () => {
    client.start();
    latest().serverOpens();
    latest().serverCloses();
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    const second = latest();
    second.serverOpens();
    vi.advanceTimersByTime(SOCKET_PING_MS);
    expect(second.sent).toEqual([{ type: "agentInfo", data: { customerId: "acct-1" } }, { type: "ping2" }]);
  });
});

describe("reconnecting", () => {
  it("retries 5 000 ms after a close", () => {
    expect(SOCKET_RECONNECT_MS).toBe(5_000);
    client.start();
    latest().serverOpens();
    latest().serverCloses(1006);
    expect(client.state).toEqual({ kind: "waiting", retries: 1, code: 1006 });
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS - 1);
    expect(FakeWebSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.all).toHaveLength(2);
    expect(client.state).toEqual({ kind: "connecting", retries: 1 });
  });

  it("retries at most 5 times, then pauses", () => {
    expect(SOCKET_MAX_RETRIES).toBe(5);
    client.start();
    for (let i = 0; i < 20; i++) {
      latest().serverCloses();
      vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    }
    // The first attempt plus five retries.
    expect(FakeWebSocket.all).toHaveLength(1 + SOCKET_MAX_RETRIES);
    expect(client.state).toEqual({ kind: "paused", why: "retries_exhausted", code: 1006 });
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS * 10);
    expect(FakeWebSocket.all).toHaveLength(6);
  });

  it("resets the retry counter on a successful open", () => {
    client.start();
    for (let i = 0; i < 4; i++) {
      latest().serverCloses();
      vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    }
    expect(client.retries).toBe(4);
    latest().serverOpens();
    expect(client.retries).toBe(0);
    // A full five retries are available again.
    for (let i = 0; i < 20; i++) {
      latest().serverCloses();
      vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    }
    // Five sockets so far (the first and four retries, the last of which opened), then five new retries.
    expect(FakeWebSocket.all).toHaveLength(5 + SOCKET_MAX_RETRIES);
    expect(client.state).toMatchObject({ kind: "paused", why: "retries_exhausted" });
  });

  it.each([
    [4401, "unauthenticated"],
    [4403, "forbidden"],
    [4402, "locked"],
  ] as const)("does not retry after close code %i", (code, why) => {
    client.start();
    latest().serverOpens();
    latest().serverCloses(code);
    expect(client.state).toEqual({ kind: "paused", why, code });
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS * 10);
    expect(FakeWebSocket.all).toHaveLength(1);
  });

  it("retries after other application codes, such as 4429 and a server restart", () => {
    client.start();
    latest().serverCloses(4429);
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    latest().serverCloses(1001);
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    expect(FakeWebSocket.all).toHaveLength(3);
  });

  it("reconnect() starts over after a pause with a fresh counter", () => {
    client.start();
    latest().serverCloses(4401);
    client.reconnect();
    expect(FakeWebSocket.all).toHaveLength(2);
    expect(client.retries).toBe(0);
    latest().serverOpens();
    expect(latest().sent[0]).toEqual({ type: "agentInfo", data: { customerId: "acct-1" } });
  });

  it("reconnect() while waiting connects at once and cancels the scheduled retry", () => {
    client.start();
    latest().serverCloses();
    client.reconnect();
    expect(FakeWebSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS);
    expect(FakeWebSocket.all).toHaveLength(2);
  });
});

describe("stopping", () => {
  it("closes the socket and never retries", () => {
    client.start();
    const ws = latest();
    ws.serverOpens();
    client.stop();
    expect(ws.closedWith?.code).toBe(1000);
    ws.serverCloses(1000);
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS * 10);
    expect(FakeWebSocket.all).toHaveLength(1);
    expect(client.state).toEqual({ kind: "stopped" });
  });

  it("cancels a scheduled retry", () => {
    client.start();
    latest().serverCloses();
    client.stop();
    vi.advanceTimersByTime(SOCKET_RECONNECT_MS * 10);
    expect(FakeWebSocket.all).toHaveLength(1);
  });

  it("lets a socket that is still connecting open before closing it", () => {
    client.start();
    const ws = latest();
    client.stop();
    expect(ws.closedWith).toBeNull();
    ws.serverOpens();
    expect(ws.closedWith?.code).toBe(1000);
    expect(ws.sent).toEqual([]);
    expect(states.at(-1)).toEqual({ kind: "stopped" });
  });
});

describe("messages", () => {
  beforeEach(() => {
    client.start();
    latest().serverOpens();
  });

  it("passes on each valid kind, parsed", () => {
    const v = visitor();
    latest().serverSends({ type: "initial_customers", data: [v] });
    latest().serverSends({ type: "add_customer", data: v });
    latest().serverSends({ type: "remove_customer", customerId: "c1" });
    expect(messages).toEqual([
      { type: "initial_customers", data: [v] },
      { type: "add_customer", data: v },
      { type: "remove_customer", customerId: "c1" },
    ]);
  });

  it("ignores malformed messages and logs them", () => {
    const ws = latest();
    ws.serverSends("not json {");
    ws.serverSends({ type: "add_customer", data: { clientid: "c1" } });
    ws.serverSends({ type: "remove_customer" });
    ws.serverSends({ type: "something_else", data: [] });
    ws.serverSends({ type: "initial_customers", data: [visitor(), { nope: true }] });
    ws.serverSends(null);
    ws.onmessage?.({ data: new ArrayBuffer(2) });
    expect(messages).toEqual([]);
    expect(logged).toHaveLength(7);
    // The socket stays open and keeps working.
    ws.serverSends({ type: "remove_customer", customerId: "c9" });
    expect(messages).toEqual([{ type: "remove_customer", customerId: "c9" }]);
    expect(client.state).toEqual({ kind: "open" });
  });

  it("ignores messages of a socket it has already replaced", () => {
    const old = latest();
    client.reconnect();
    old.serverSends({ type: "remove_customer", customerId: "c1" });
    expect(messages).toEqual([]);
  });
});
