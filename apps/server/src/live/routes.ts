// Registers the live socket at /api and the realtime visitor count.
import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { LiveSockets, SOCKET_MAX_PAYLOAD } from "./socket.js";

export async function registerLiveRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(websocket, { options: { maxPayload: SOCKET_MAX_PAYLOAD } });
  const sockets = new LiveSockets(deps.meta, deps.presence, app.log, deps.config.publicUrl, deps.billing);
  app.addHook("onClose", async () => sockets.close());
  app.get("/api", { websocket: true }, (socket, req) => {
    sockets.handle(socket, req).catch((err) => {
      app.log.error({ err }, "live socket: the upgrade failed; closing the socket");
      socket.close(1011, "internal error");
    });
  });
}
