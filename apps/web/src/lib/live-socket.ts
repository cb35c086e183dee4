// The dashboard's live socket (SPEC.md §4, §7, §9; DESIGN.md §5): a WebSocket to /api on the app's
// own origin, authenticated by the session cookie set at login. On open it resets the retry
// counter, introduces itself with agentInfo (the stored accountId) and pings every 35 s; on close
// it retries after 5 s, at most 5 times, then pauses until asked to reconnect. Incoming messages
// are parsed with the shared schemas; anything malformed is ignored. No React in here: the
// provider in features/live wires it to the screens, and tests inject a fake WebSocket.
import {
  type ClientSocketMessage,
  type ServerSocketMessage,
  ServerSocketMessageSchema,
  SOCKET_MAX_RETRIES,
  SOCKET_PING_MS,
  SOCKET_RECONNECT_MS,
  SocketCloseCode,
} from "@lookout/schema";

/** The part of the browser's WebSocket this client uses (so tests can hand in a fake). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** WebSocket.CONNECTING and OPEN; constants so that fakes need not carry the static fields. */
const CONNECTING = 0;
const OPEN = 1;

export type LiveSocketState =
  /** First attempt, or a retry, under way. */
  | { kind: "connecting"; retries: number }
  | { kind: "open" }
  /** Closed; the next attempt starts after SOCKET_RECONNECT_MS. */
  | { kind: "waiting"; retries: number; code: number }
  /** Stopped retrying: the retries are used up, or the server refused us (see `why`). */
  | { kind: "paused"; why: PauseReason; code: number }
  /** stop() was called (logout, unmount). */
  | { kind: "stopped" };

export type PauseReason = "retries_exhausted" | "unauthenticated" | "forbidden" | "locked";

export interface LiveSocketOptions {
  url: string;
  /** The account to subscribe to, read at every open: SPEC.md §7's localStorage accountId. */
  accountId: () => string;
  onMessage: (message: ServerSocketMessage) => void;
  onState?: (state: LiveSocketState) => void;
  /** Injected in unit tests; the browser's WebSocket otherwise. */
  WebSocket?: WebSocketConstructor;
  /** SPEC.md §8: socket errors are logged only. A warning, not an error: nothing is broken for the user. */
  log?: (message: string, detail?: unknown) => void;
}

/** ws(s)://<this origin>/api, the endpoint of SPEC.md §7. */
export function liveSocketUrl(loc: Pick<Location, "protocol" | "host"> = window.location): string {
  return `${loc.protocol === "https:" ? "wss:" : "ws:"}//${loc.host}/api`;
}

/**
 * Close codes after which retrying cannot help. SPEC.md only says "retry after 5 s, up to 5
 * attempts"; it names no close codes. The server closes with 4401 when the upgrade carries no live
 * session (no cookie, expired or revoked token) and with 4403 when the origin is foreign or the
 * user is not a member of the account. Neither changes by waiting 5 seconds, so we pause at once
 * instead of knocking five more times; the user can still press Reconnect (after signing in again,
 * or once an owner restores their access). Every other close (network loss, server restart, 4429
 * too many sockets) follows the spec's retry rule. 4402: the account is locked over its plan's
 * quota (issue #24 §3); waiting 5 seconds will not unlock it either.
 */
const FINAL_CODES: Record<number, PauseReason> = {
  [SocketCloseCode.unauthenticated]: "unauthenticated",
  [SocketCloseCode.forbidden]: "forbidden",
  [SocketCloseCode.accountLocked]: "locked",
};

export class LiveSocket {
  #ws: WebSocketLike | null = null;
  #retries = 0;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #pingTimer: ReturnType<typeof setInterval> | null = null;
  #state: LiveSocketState = { kind: "stopped" };
  readonly #opts: LiveSocketOptions;
  readonly #WebSocket: WebSocketConstructor;
  readonly #log: (message: string, detail?: unknown) => void;

  constructor(opts: LiveSocketOptions) {
    this.#opts = opts;
    this.#WebSocket = opts.WebSocket ?? (globalThis.WebSocket as unknown as WebSocketConstructor);
    this.#log = opts.log ?? ((message, detail) => console.warn(message, detail));
  }

  get state(): LiveSocketState {
    return this.#state;
  }

  /** Retries used since the last successful open. */
  get retries(): number {
    return this.#retries;
  }

  /** Opens the socket (no-op while one is open or an attempt is under way or scheduled). */
  start(): void {
    if (this.#ws || this.#retryTimer) return;
    this.#connect();
  }

  /** A fresh start after a pause, or an immediate retry while waiting: the counter starts over. */
  reconnect(): void {
    this.#teardown();
    this.#retries = 0;
    this.#connect();
  }

  /** Closes for good (logout, unmount): no retry follows. */
  stop(): void {
    this.#teardown();
    this.#setState({ kind: "stopped" });
  }

  #connect(): void {
    this.#setState({ kind: "connecting", retries: this.#retries });
    let ws: WebSocketLike;
    try {
      ws = new this.#WebSocket(this.#opts.url);
    } catch (err) {
      // A malformed URL or a blocked scheme: treated like a connection that closed at once.
      this.#log("Live socket could not be created", err);
      this.#onClose(1006);
      return;
    }
    this.#ws = ws;
    ws.onopen = () => this.#onOpen(ws);
    ws.onmessage = (ev) => this.#onMessage(ev.data);
    ws.onerror = (ev) => this.#log("Live socket error", ev);
    ws.onclose = (ev) => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      this.#onClose(ev.code);
    };
  }

  #onOpen(ws: WebSocketLike): void {
    if (this.#ws !== ws) return;
    this.#retries = 0;
    this.#setState({ kind: "open" });
    this.#send({ type: "agentInfo", data: { customerId: this.#opts.accountId() } });
    this.#clearPing();
    this.#pingTimer = setInterval(() => this.#send({ type: "ping2" }), SOCKET_PING_MS);
  }

  #onMessage(data: unknown): void {
    if (typeof data !== "string") {
      this.#log("Live socket: ignored a binary message");
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      this.#log("Live socket: ignored a message that is not JSON");
      return;
    }
    const parsed = ServerSocketMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.#log("Live socket: ignored a malformed message", parsed.error.issues[0]?.message);
      return;
    }
    this.#opts.onMessage(parsed.data);
  }

  #onClose(code: number): void {
    this.#clearPing();
    const final = FINAL_CODES[code];
    if (final) {
      this.#setState({ kind: "paused", why: final, code });
      return;
    }
    if (this.#retries >= SOCKET_MAX_RETRIES) {
      this.#setState({ kind: "paused", why: "retries_exhausted", code });
      return;
    }
    this.#retries += 1;
    this.#setState({ kind: "waiting", retries: this.#retries, code });
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#connect();
    }, SOCKET_RECONNECT_MS);
  }

  #send(message: ClientSocketMessage): void {
    const ws = this.#ws;
    if (ws && ws.readyState === OPEN) ws.send(JSON.stringify(message));
  }

  #clearPing(): void {
    if (this.#pingTimer) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
  }

  #teardown(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#clearPing();
    const ws = this.#ws;
    this.#ws = null;
    if (!ws) return;
    ws.onmessage = ws.onerror = ws.onclose = null;
    if (ws.readyState === CONNECTING) {
      // Closing a socket mid-handshake makes Chromium log an error; let it open, then close it.
      ws.onopen = () => ws.close(1000, "closed by the client");
    } else {
      ws.onopen = null;
      ws.close(1000, "closed by the client");
    }
  }

  #setState(state: LiveSocketState): void {
    this.#state = state;
    this.#opts.onState?.(state);
  }
}
