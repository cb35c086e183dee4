// The dashboard socket at /api (SPEC.md §4, §7; DESIGN.md §5). One guard at subscribe time: the
// upgrade must carry a live session (cookie from our own origin, or a Bearer header), and
// agentInfo must name an account the user belongs to. A periodic recheck closes sockets whose
// token was revoked or whose membership was removed. The live view is a dashboard read: an account
// locked over its quota (issue #24 §3) is refused at subscribe time and its sockets closed at the
// next recheck, with 4402 (the web pauses and says why).
import { ClientSocketMessageSchema, type ServerSocketMessage, SocketCloseCode } from "@lookout/schema";
import type { MetaStore } from "@lookout/storage";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";
import type { BillingService } from "../billing/service.js";
import { type Actor, identify, resolveCredential } from "../http/authenticate.js";
import { isSameOrigin } from "../http/origin.js";
import { allows, roleFor } from "../http/policy.js";
import type { Presence, PresenceChange } from "./presence.js";

export const MAX_SOCKETS_PER_USER = 20;
export const SOCKET_MAX_PAYLOAD = 4096;
const RECHECK_MS = 2500;

interface Client {
  socket: WebSocket;
  actor: Actor;
  accountId: string | null;
  properties: Set<string>;
}

/** The value cached under `key`, loaded on first ask: one store query per key and round. */
function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) cache.set(key, (value = load()));
  return value;
}

export class LiveSockets {
  readonly #clients = new Set<Client>();
  readonly #byProperty = new Map<string, Set<Client>>();
  readonly #timer: NodeJS.Timeout;
  readonly #unlisten: () => void;

  constructor(
    private readonly meta: MetaStore,
    private readonly presence: Presence,
    private readonly log: FastifyBaseLogger,
    private readonly publicUrl: string | undefined,
    private readonly billing: Pick<BillingService, "isLocked">,
  ) {
    this.#unlisten = presence.onChange((propertyId, change) => this.#broadcast(propertyId, change));
    this.#timer = setInterval(() => {
      this.recheck().catch((err) => this.log.error({ err }, "live socket recheck failed"));
    }, RECHECK_MS);
    this.#timer.unref();
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Cookie-authenticated upgrades must come from the app's own origin (cross-site hijacking). */
  #originAllowed(req: FastifyRequest): boolean {
    return isSameOrigin(req, this.publicUrl);
  }

  async handle(socket: WebSocket, req: FastifyRequest): Promise<void> {
    // Buffer messages that arrive while the upgrade is being authenticated.
    const early: string[] = [];
    const onEarly = (data: unknown) => early.push(String(data));
    socket.on("message", onEarly);
    const actor = await identify(this.meta, req).catch(() => null);
    if (!actor) return socket.close(SocketCloseCode.unauthenticated, "authentication required");
    if (actor.via === "cookie" && !this.#originAllowed(req)) return socket.close(SocketCloseCode.forbidden, "origin not allowed");
    const mine = [...this.#clients].filter((c) => c.actor.userId === actor.userId).length;
    if (mine >= MAX_SOCKETS_PER_USER) return socket.close(SocketCloseCode.tooManySockets, "too many sockets");

    const client: Client = { socket, actor, accountId: null, properties: new Set() };
    this.#clients.add(client);
    socket.off("message", onEarly);
    socket.on("message", (data) => void this.#guarded(client, String(data)));
    socket.on("close", () => this.#drop(client));
    socket.on("error", (err) => this.log.debug({ err }, "live socket error"));
    for (const m of early) await this.#guarded(client, m);
  }

  /**
   * Handles one message; whatever it throws closes this socket alone (1011) and is logged. An
   * error that escaped a socket callback used to end the whole process.
   */
  async #guarded(client: Client, raw: string): Promise<void> {
    try {
      await this.#onMessage(client, raw);
    } catch (err) {
      this.log.error({ err, userId: client.actor.userId }, "live socket: a message failed; closing the socket");
      this.#drop(client);
      client.socket.close(1011, "internal error");
    }
  }

  async #onMessage(client: Client, raw: string): Promise<void> {
    let parsed: ReturnType<typeof ClientSocketMessageSchema.safeParse>;
    try {
      parsed = ClientSocketMessageSchema.safeParse(JSON.parse(raw));
    } catch {
      this.log.warn({ userId: client.actor.userId }, "live socket: ignored a message that is not JSON");
      return;
    }
    if (!parsed.success) {
      this.log.warn(
        { userId: client.actor.userId, issue: parsed.error.issues[0]?.message },
        "live socket: ignored a malformed message",
      );
      return;
    }
    const msg = parsed.data;
    if (msg.type === "ping2") return;
    const accountId = msg.data.customerId;
    const role = await roleFor(this.meta, client.actor, accountId);
    if (!allows(role, "read")) {
      client.socket.close(SocketCloseCode.forbidden, "not a member of this account");
      return;
    }
    if (await this.billing.isLocked(accountId)) {
      client.socket.close(SocketCloseCode.accountLocked, "account locked over its plan's quota");
      return;
    }
    client.accountId = accountId;
    this.#setProperties(client, await this.#propertyIds(accountId));
    this.#send(client, { type: "initial_customers", data: this.presence.list(client.properties) });
  }

  /** The unique ids of an account's properties. */
  async #propertyIds(accountId: string): Promise<Set<string>> {
    return new Set((await this.meta.properties.listByAccount(accountId)).map((p) => p.unique_id));
  }

  /** Subscribes `client` to exactly `ids`. */
  #setProperties(client: Client, ids: Set<string>): void {
    for (const id of client.properties) if (!ids.has(id)) this.#byProperty.get(id)?.delete(client);
    for (const id of ids) {
      let set = this.#byProperty.get(id);
      if (!set) this.#byProperty.set(id, (set = new Set()));
      set.add(client);
    }
    client.properties = ids;
  }

  /** Closes sockets whose token or membership is gone; picks up new and deleted properties. */
  async recheck(): Promise<void> {
    // A round asks the store once per credential, membership and account, however many sockets
    // share them (a dashboard open in several tabs, a team watching one account). Asking per
    // socket, 200 sockets made 600 queries every round on the main thread, and events waiting
    // behind them reached the dashboards late (live bench p99 255-306 ms, 50 ms without rounds).
    const credentials = new Map<string, Promise<Actor | null>>();
    const memberships = new Map<string, Promise<boolean>>();
    const properties = new Map<string, Promise<Set<string>>>();
    const locks = new Map<string, Promise<boolean>>();
    for (const client of [...this.#clients]) {
      try {
        const { token } = client.actor;
        const via = client.actor.via === "cookie" ? "cookie" : "bearer";
        const live = await once(credentials, `${via}\u0000${token}`, () => resolveCredential(this.meta, token, via));
        if (!live) {
          client.socket.close(SocketCloseCode.unauthenticated, "session ended");
          this.#drop(client);
          continue;
        }
        const accountId = client.accountId;
        if (!accountId) continue;
        // The same token is the same actor, so its role in an account is the same too.
        const member = await once(memberships, `${token}\u0000${accountId}`, async () =>
          allows(await roleFor(this.meta, client.actor, accountId), "read"),
        );
        if (!member) {
          client.socket.close(SocketCloseCode.forbidden, "membership removed");
          this.#drop(client);
          continue;
        }
        if (await once(locks, accountId, () => this.billing.isLocked(accountId))) {
          client.socket.close(SocketCloseCode.accountLocked, "account locked over its plan's quota");
          this.#drop(client);
          continue;
        }
        const ids = await once(properties, accountId, () => this.#propertyIds(accountId));
        // Closed meanwhile: #drop has already unsubscribed it.
        if (this.#clients.has(client)) this.#setProperties(client, ids);
      } catch (err) {
        this.log.warn({ err }, "live socket recheck failed");
      }
    }
  }

  #broadcast(propertyId: string, change: PresenceChange): void {
    const clients = this.#byProperty.get(propertyId);
    if (!clients?.size) return;
    const msg: ServerSocketMessage =
      change.type === "add"
        ? { type: "add_customer", data: change.visitor }
        : { type: "remove_customer", customerId: change.clientid };
    const text = JSON.stringify(msg);
    // Runs inside the presence's callbacks (the bus, the sweep timer): one socket's failure must
    // neither reach them nor stop the others' messages.
    for (const c of clients) {
      try {
        if (c.socket.readyState === c.socket.OPEN) c.socket.send(text);
      } catch (err) {
        this.log.warn({ err }, "live socket: a send failed");
      }
    }
  }

  #send(client: Client, msg: ServerSocketMessage): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(msg));
  }

  #drop(client: Client): void {
    this.#clients.delete(client);
    for (const id of client.properties) this.#byProperty.get(id)?.delete(client);
  }

  close(): void {
    clearInterval(this.#timer);
    this.#unlisten();
    for (const c of this.#clients) c.socket.close(1001, "server shutting down");
    this.#clients.clear();
  }
}
