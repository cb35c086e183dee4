// Live presence and the dashboard socket's messages (SPEC.md §4, §7): a versioned union both the
// server and the web app parse. Version 1 is the spec's wire format exactly.
import { z } from "zod";
import { AccountIdSchema } from "./strings.js";

/** A live visitor as the dashboard sees it. `clientid`, `propertyId`, `country`, `active` are the spec's. */
export const LiveVisitorSchema = z.object({
  clientid: z.string(),
  propertyId: z.string(),
  country: z.string().optional(),
  active: z.boolean(),
  page: z.string(),
  title: z.string(),
  source: z.string(),
  referrer: z.string(),
  device: z.string(),
  browser: z.string(),
  os: z.string(),
  email: z.string().optional(),
  arrivedAt: z.number(), // epoch ms
  lastSeen: z.number(), // epoch ms
});
export type LiveVisitor = z.infer<typeof LiveVisitorSchema>;

export const ClientSocketMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("agentInfo"), data: z.object({ customerId: AccountIdSchema }) }),
  z.object({ type: z.literal("ping2") }),
]);
export type ClientSocketMessage = z.infer<typeof ClientSocketMessageSchema>;

export const ServerSocketMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("initial_customers"), data: z.array(LiveVisitorSchema) }),
  z.object({ type: z.literal("add_customer"), data: LiveVisitorSchema }),
  z.object({ type: z.literal("remove_customer"), customerId: z.string() }),
]);
export type ServerSocketMessage = z.infer<typeof ServerSocketMessageSchema>;

export const SOCKET_PROTOCOL_VERSION = 1;

/** Socket close codes: 44xx mirror the HTTP statuses they stand for. */
export const SocketCloseCode = {
  unauthenticated: 4401,
  /** The account is locked over its plan's quota (issue #24 §3): no live view until it is unlocked. */
  accountLocked: 4402,
  forbidden: 4403,
  tooManySockets: 4429,
  badHandshake: 4400,
} as const;

/** SPEC.md §9 socket constants. */
export const SOCKET_PING_MS = 35_000;
export const SOCKET_RECONNECT_MS = 5_000;
export const SOCKET_MAX_RETRIES = 5;

/** DESIGN.md §4: live means seen within the last 60 s. */
export const LIVE_WINDOW_MS = 60_000;

/** SPEC.md §5: distinct active clientid of the current property with a country defined. */
export function liveCount(
  visitors: readonly Pick<LiveVisitor, "clientid" | "propertyId" | "country" | "active">[],
  propertyId: string | undefined,
): number {
  if (!propertyId) return 0;
  const ids = new Set<string>();
  for (const v of visitors) {
    if (v.active && v.propertyId === propertyId && v.country) ids.add(v.clientid);
  }
  return ids.size;
}
