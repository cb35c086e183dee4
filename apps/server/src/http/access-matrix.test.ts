// The access matrix (DESIGN.md §7, issue #20): every registered route (app.routeTable) is called
// as anonymous, viewer, editor, admin and owner of account A, the owner of another account B, and
// an API key of A, first with A's ids and then with B's, and each answer's status is compared with
// the one this table expects. The table is written here by hand, from the role matrix, not read
// from the routes' own declarations: a route without a row (or a row without a route) fails, so a
// new route cannot ship until someone has said who may call it. The socket is in the matrix too.
import type { AddressInfo } from "node:net";
import { eventRow, type Role } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestApp, type TestApp } from "../test-support.js";

type Caller = "anonymous" | Role | "stranger" | "apikey";
const CALLERS: readonly Caller[] = ["anonymous", "viewer", "editor", "admin", "owner", "stranger", "apikey"];
type Side = "own" | "foreign";
type Need = "read" | "write" | "admin" | "own";

/** The role matrix of DESIGN.md §7, restated: the least role each need takes. */
const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
const NEED: Record<Need, number> = { read: 0, write: 1, admin: 2, own: 3 };

interface Call {
  url: string;
  body?: unknown;
}

interface Ctx {
  side: Side;
  caller: Caller;
  /** The side's account and a property of it (A for "own", B for "foreign"). */
  acc: string;
  site: string;
  /** The caller's own user id and e-mail ("" for anonymous). */
  userId: string;
  email: string;
  f: Fixtures;
}

interface Row {
  /**
   * Who may call: "public" anyone, "optional" anyone (a credential if any), "signed-in" any live
   * credential, "account"/"property" a member of the ids' account whose role meets `need`
   * (403 for an account, 404 for a property, alike for foreign ids).
   */
  scope: "public" | "optional" | "signed-in" | "account" | "property";
  need?: Need;
  /** What a caller who may call gets (the route's success, or what its input makes of it). */
  ok: number;
  call(c: Ctx): Call | Promise<Call>;
  /** Cells that differ from the rule, by caller (with A's ids) or `foreign:<caller>`. */
  over?: Partial<Record<Caller | `foreign:${Caller}`, number>>;
  /** The caller's credential is a fresh session (the call ends it: logout). */
  freshSession?: boolean;
  /** Not a JSON route (the tracker script, the socket): called differently, or below. */
  method?: string;
}

function expected(row: Row, caller: Caller, side: Side): number {
  const over = row.over?.[side === "foreign" ? (`foreign:${caller}` as const) : caller];
  if (over !== undefined) return over;
  if (row.scope === "public" || row.scope === "optional") return row.ok;
  if (caller === "anonymous") return 401;
  if (row.scope === "signed-in") return caller === "apikey" && row.method !== "GET" ? 403 : row.ok;
  const refused = row.scope === "account" ? 403 : 404;
  // An API key: a viewer of A that only reads. The other account's owner: nobody in A.
  if (caller === "apikey")
    return side === "own" && row.need === "read" && row.method === "GET" ? row.ok : row.method === "GET" ? refused : 403;
  if (caller === "stranger" || side === "foreign") return refused;
  return RANK[caller] >= NEED[row.need ?? "own"] ? row.ok : refused;
}

interface Fixtures {
  t: TestApp;
  users: Record<Exclude<Caller, "anonymous" | "apikey">, { id: string; email: string; token: string }>;
  apiKey: string;
  A: { acc: string; site: string; slug: string };
  B: { acc: string; site: string; slug: string };
  n(): number;
  newProperty(side: Side): Promise<string>;
  newGoal(side: Side): Promise<string>;
  newMember(side: Side): Promise<string>;
  newInvitation(side: Side): Promise<{ id: string; token: string }>;
  newSharedLink(side: Side): Promise<string>;
  /** A saved trends insight of the side's property: its short id. */
  newInsight(side: Side): Promise<string>;
  /** A saved insight of the side's property, deleted (what an undo restores): its short id. */
  newDeletedInsight(side: Side): Promise<string>;
  /** A client id with one pageview on the side's property (a visitor to read, export or delete). */
  newVisitor(side: Side): Promise<string>;
  /** A fresh account: on "own", owned by A's owner with A's admin, editor and viewer; on "foreign", B's owner's. */
  newAccount(side: Side): Promise<{ id: string; name: string }>;
}

const STATS = "period=last_30_days&metrics=visitors";
const TRENDS = { kind: "trends", period: "last_30_days", interval: "day", series: [{ event: "pageview" }] };

/** The table: one row per "METHOD url" the app registers. */
const TABLE: Record<string, Row> = {
  // --- collector, tracker, public pages ---
  // The tracker's CORS preflight: any site may send events.
  "OPTIONS /api/event": { scope: "public", ok: 204, call: () => ({ url: "/api/event" }) },
  "POST /api/event": { scope: "public", ok: 400, call: () => ({ url: "/api/event", body: { n: "pageview" } }) },
  "POST /api/batch": { scope: "public", ok: 400, call: () => ({ url: "/api/batch", body: { events: [] } }) },
  "GET /js/script.js": { scope: "public", ok: 200, method: "GET", call: () => ({ url: "/js/script.js" }) },
  "GET /demo/demo.css": { scope: "public", ok: 200, call: () => ({ url: "/demo/demo.css" }) },
  "GET /demo/demo.js": { scope: "public", ok: 200, call: () => ({ url: "/demo/demo.js" }) },
  // No demo property in this store: the page says so (404); /demo redirects to it.
  "GET /demo/site/:slug?": { scope: "public", ok: 404, call: () => ({ url: "/demo/site/" }) },
  "GET /demo": { scope: "public", ok: 302, call: () => ({ url: "/demo" }) },
  "GET /healthz": { scope: "public", ok: 200, call: () => ({ url: "/healthz" }) },
  "GET /api/v1/openapi.json": { scope: "public", ok: 200, call: () => ({ url: "/api/v1/openapi.json" }) },
  "GET /api/docs": { scope: "public", ok: 200, call: () => ({ url: "/api/docs" }) },
  // The web app is not built for this test: its pages answer 503 saying so.
  "GET /share/:slug": { scope: "public", ok: 503, call: (c) => ({ url: `/share/${c.f[c.side === "own" ? "A" : "B"].slug}` }) },
  "GET /api/v1/share/:slug": {
    scope: "public",
    ok: 200,
    call: (c) => ({ url: `/api/v1/share/${c.f[c.side === "own" ? "A" : "B"].slug}` }),
  },
  // The links have no password: any password opens them.
  "POST /api/v1/share/:slug/auth": {
    scope: "public",
    ok: 204,
    call: (c) => ({ url: `/api/v1/share/${c.f[c.side === "own" ? "A" : "B"].slug}/auth`, body: { password: "whatever" } }),
  },
  // An unknown token: a page saying the link is not valid.
  "GET /api/v1/reports/unsubscribe": { scope: "public", ok: 200, call: () => ({ url: "/api/v1/reports/unsubscribe?token=x" }) },
  "POST /api/v1/reports/unsubscribe": { scope: "public", ok: 200, call: () => ({ url: "/api/v1/reports/unsubscribe?token=x" }) },

  // --- sign-in ---
  "POST /wp-json/custom/v1/login": {
    scope: "public",
    ok: 401,
    call: (c) => ({
      url: "/wp-json/custom/v1/login",
      body: { username: c.email || "nobody@example.com", password: "wrong-password" },
    }),
  },
  "POST /wp-json/custom/v1/recover-password": {
    scope: "public",
    ok: 200,
    call: (c) => ({ url: "/wp-json/custom/v1/recover-password", body: { user_email: `nobody${c.f.n()}@example.com` } }),
  },
  "POST /api/auth/reset-password": {
    scope: "public",
    ok: 400,
    call: () => ({ url: "/api/auth/reset-password", body: { token: "x".repeat(43), password: "a-long-new-password" } }),
  },
  "POST /api/auth/logout": {
    scope: "optional",
    ok: 204,
    freshSession: true,
    over: { apikey: 403, "foreign:apikey": 403 },
    call: () => ({ url: "/api/auth/logout" }),
  },
  "GET /logout": { scope: "optional", ok: 503, freshSession: true, call: () => ({ url: "/logout" }) },
  "GET /api/auth/me": { scope: "signed-in", ok: 200, method: "GET", call: () => ({ url: "/api/auth/me" }) },

  // --- the user ---
  "PATCH /api/v1/me": { scope: "signed-in", ok: 200, call: () => ({ url: "/api/v1/me", body: { name: "Same Name" } }) },
  // A wrong current password: through the access check to the service's own answer.
  "POST /api/v1/me/password": {
    scope: "signed-in",
    ok: 400,
    call: () => ({ url: "/api/v1/me/password", body: { current_password: "wrong", new_password: "a-long-new-password" } }),
  },
  "GET /api/v1/me/sessions": {
    scope: "signed-in",
    ok: 200,
    method: "GET",
    over: { apikey: 403, "foreign:apikey": 403 },
    call: () => ({ url: "/api/v1/me/sessions" }),
  },
  "DELETE /api/v1/me/sessions/:id": {
    scope: "signed-in",
    ok: 404,
    call: () => ({ url: "/api/v1/me/sessions/00000000-0000-4000-8000-000000000000" }),
  },

  // --- properties ---
  "POST /static-api/get-properties": {
    scope: "account",
    need: "read",
    ok: 200,
    call: (c) => ({ url: "/static-api/get-properties", body: { accountId: c.acc } }),
  },
  "GET /api/v1/properties": {
    scope: "account",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties?accountId=${c.acc}` }),
  },
  "POST /api/v1/properties": {
    scope: "account",
    need: "admin",
    ok: 201,
    call: (c) => ({
      url: "/api/v1/properties",
      body: { accountId: c.acc, name: "New", website_url: "https://new.test", timezone: "UTC" },
    }),
  },
  "GET /api/v1/properties/:id": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}` }),
  },
  "PATCH /api/v1/properties/:id": {
    scope: "property",
    need: "admin",
    ok: 200,
    call: (c) => ({ url: `/api/v1/properties/${c.site}`, body: { name: "Renamed" } }),
  },
  "DELETE /api/v1/properties/:id": {
    scope: "property",
    need: "admin",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/properties/${await c.f.newProperty(c.side)}` }),
  },
  "POST /api/v1/properties/:id/reset": {
    scope: "property",
    need: "admin",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/properties/${await c.f.newProperty(c.side)}/reset` }),
  },
  "GET /api/v1/properties/:id/install-status": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/install-status` }),
  },
  "GET /api/v1/properties/:id/client-address": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/client-address` }),
  },
  "GET /api/v1/properties/:id/export": {
    scope: "property",
    need: "admin",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/export` }),
  },

  // --- visitors ---
  "GET /api/v1/properties/:id/visitors": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/visitors` }),
  },
  "GET /api/v1/properties/:id/visitors.csv": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/visitors.csv` }),
  },
  "GET /api/v1/properties/:id/visitors/:clientId": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/visitors/${await c.f.newVisitor(c.side)}` }),
  },
  "GET /api/v1/properties/:id/visitors/:clientId/events": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/visitors/${await c.f.newVisitor(c.side)}/events` }),
  },
  "DELETE /api/v1/properties/:id/visitors/:clientId": {
    scope: "property",
    need: "admin",
    ok: 200,
    method: "DELETE",
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/visitors/${await c.f.newVisitor(c.side)}` }),
  },
  "GET /api/v1/properties/:id/visitors/:clientId/export": {
    scope: "property",
    need: "admin",
    ok: 200,
    method: "GET",
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/visitors/${await c.f.newVisitor(c.side)}/export` }),
  },

  // --- insights (by short id: the insight's property decides, and answers 404 alike) ---
  "POST /api/v1/properties/:id/insights/query": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "POST",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/insights/query`, body: TRENDS }),
  },
  // A trends spec has no visitor list: past the access check it is a 400 (a kind that has one, 200).
  "POST /api/v1/properties/:id/insights/actors": {
    scope: "property",
    need: "read",
    ok: 400,
    method: "POST",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/insights/actors`, body: { spec: TRENDS, at: {} } }),
  },
  "GET /api/v1/properties/:id/insights": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/insights` }),
  },
  "POST /api/v1/properties/:id/insights": {
    scope: "property",
    need: "write",
    ok: 201,
    method: "POST",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/insights`, body: { name: `i${c.f.n()}`, spec: TRENDS } }),
  },
  "GET /api/v1/insights/:shortId": {
    scope: "signed-in",
    ok: 200,
    over: {
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
      "foreign:apikey": 404,
    },
    method: "GET",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newInsight(c.side)}` }),
  },
  "PATCH /api/v1/insights/:shortId": {
    scope: "signed-in",
    ok: 200,
    over: {
      viewer: 404,
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
    },
    method: "PATCH",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newInsight(c.side)}`, body: { favourite: true } }),
  },
  "DELETE /api/v1/insights/:shortId": {
    scope: "signed-in",
    ok: 204,
    over: {
      viewer: 404,
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
    },
    method: "DELETE",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newInsight(c.side)}` }),
  },
  "POST /api/v1/insights/:shortId/duplicate": {
    scope: "signed-in",
    ok: 201,
    over: {
      viewer: 404,
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
    },
    method: "POST",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newInsight(c.side)}/duplicate` }),
  },
  "POST /api/v1/insights/:shortId/restore": {
    scope: "signed-in",
    ok: 200,
    over: {
      viewer: 404,
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
    },
    method: "POST",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newDeletedInsight(c.side)}/restore` }),
  },
  "GET /api/v1/insights/:shortId/result": {
    scope: "signed-in",
    ok: 200,
    over: {
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
      "foreign:apikey": 404,
    },
    method: "GET",
    call: async (c) => ({ url: `/api/v1/insights/${await c.f.newInsight(c.side)}/result` }),
  },

  // --- stats ---
  "GET /api/v1/stats/aggregate": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/stats/aggregate?property_id=${c.site}&${STATS}` }),
  },
  "GET /api/v1/stats/timeseries": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/stats/timeseries?property_id=${c.site}&${STATS}` }),
  },
  "GET /api/v1/stats/breakdown": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/stats/breakdown?property_id=${c.site}&${STATS}&dimension=page` }),
  },
  "GET /api/v1/stats/realtime/visitors": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/stats/realtime/visitors?property_id=${c.site}` }),
  },

  // --- goals, shared links, reports ---
  "GET /api/v1/properties/:id/goals": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/goals` }),
  },
  "POST /api/v1/properties/:id/goals": {
    scope: "property",
    need: "write",
    ok: 201,
    call: (c) => ({ url: `/api/v1/properties/${c.site}/goals`, body: { kind: "event", match: `signup_${c.f.n()}` } }),
  },
  "DELETE /api/v1/properties/:id/goals/:goalId": {
    scope: "property",
    need: "write",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/goals/${await c.f.newGoal(c.side)}` }),
  },
  // Every member sees the settings read-only; changing them is an admin's.
  "GET /api/v1/properties/:unique_id/shared-links": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/shared-links` }),
  },
  "POST /api/v1/properties/:unique_id/shared-links": {
    scope: "property",
    need: "admin",
    ok: 201,
    call: (c) => ({ url: `/api/v1/properties/${c.site}/shared-links`, body: { name: `Link ${c.f.n()}` } }),
  },
  "DELETE /api/v1/properties/:unique_id/shared-links/:id": {
    scope: "property",
    need: "admin",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/properties/${c.site}/shared-links/${await c.f.newSharedLink(c.side)}` }),
  },
  "GET /api/v1/properties/:id/reports": {
    scope: "property",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/properties/${c.site}/reports` }),
  },
  "PUT /api/v1/properties/:id/reports": {
    scope: "property",
    need: "admin",
    ok: 200,
    call: (c) => ({ url: `/api/v1/properties/${c.site}/reports`, body: { frequency: "off", recipients: [] } }),
  },
  "POST /api/v1/properties/:id/reports/send-now": {
    scope: "property",
    need: "admin",
    ok: 200,
    call: (c) => ({
      url: `/api/v1/properties/${c.site}/reports/send-now`,
      body: { frequency: "weekly", recipients: ["r@example.com"] },
    }),
  },

  // --- API keys ---
  "GET /api/v1/api-keys": {
    scope: "account",
    need: "admin",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/api-keys?accountId=${c.acc}` }),
  },
  "POST /api/v1/api-keys": {
    scope: "account",
    need: "admin",
    ok: 201,
    call: (c) => ({ url: "/api/v1/api-keys", body: { accountId: c.acc, name: "k" } }),
  },
  // Its access is the key's account's, decided by the service: admins and owners; others' keys 404.
  "DELETE /api/v1/api-keys/:id": {
    scope: "signed-in",
    ok: 204,
    over: {
      viewer: 403,
      editor: 403,
      stranger: 404,
      "foreign:viewer": 404,
      "foreign:editor": 404,
      "foreign:admin": 404,
      "foreign:owner": 404,
    },
    call: async (c) => {
      const owner = c.side === "own" ? c.f.users.owner.id : c.f.users.stranger.id;
      const k = await c.f.t.meta.apiKeys.create({ userId: owner, accountId: c.acc, name: "victim" });
      return { url: `/api/v1/api-keys/${k.id}` };
    },
  },

  // --- accounts ---
  "GET /api/v1/accounts": { scope: "signed-in", ok: 200, method: "GET", call: () => ({ url: "/api/v1/accounts" }) },
  "POST /api/v1/accounts": { scope: "signed-in", ok: 201, call: () => ({ url: "/api/v1/accounts", body: { name: "Another" } }) },
  "PATCH /api/v1/accounts/:accountId": {
    scope: "account",
    need: "admin",
    ok: 200,
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}`, body: { name: c.side === "own" ? "Account A" : "Account B" } }),
  },
  "DELETE /api/v1/accounts/:accountId": {
    scope: "account",
    need: "own",
    ok: 204,
    call: async (c) => {
      const a = await c.f.newAccount(c.side);
      return { url: `/api/v1/accounts/${a.id}`, body: { confirm: a.name } };
    },
  },
  "POST /api/v1/accounts/:accountId/switch": {
    scope: "account",
    need: "read",
    ok: 204,
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/switch` }),
  },
  "POST /api/v1/accounts/:accountId/transfer-ownership": {
    scope: "account",
    need: "own",
    ok: 200,
    call: async (c) => {
      const a = await c.f.newAccount(c.side);
      const heir = await c.f.t.user(`heir-${c.f.n()}@matrix.test`);
      await c.f.t.meta.accounts.addMember(a.id, heir.id, "viewer");
      return { url: `/api/v1/accounts/${a.id}/transfer-ownership`, body: { user_id: heir.id } };
    },
  },
  "GET /api/v1/accounts/:accountId/activity": {
    scope: "account",
    need: "admin",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/activity` }),
  },

  // --- billing (off in this app: the calls are allowed, then answer that nothing can be bought) ---
  "GET /api/v1/accounts/:accountId/billing": {
    scope: "account",
    need: "own",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/billing` }),
  },
  "GET /api/v1/accounts/:accountId/billing/notice": {
    scope: "account",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/billing/notice` }),
  },
  "POST /api/v1/accounts/:accountId/billing/checkout": {
    scope: "account",
    need: "own",
    ok: 409,
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/billing/checkout`, body: { plan: "starter", interval: "month" } }),
  },
  "POST /api/v1/accounts/:accountId/billing/portal": {
    scope: "account",
    need: "own",
    ok: 409,
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/billing/portal`, body: {} }),
  },
  // Signed by the provider, not by a user: anyone may call it; billing off, it is not there (404).
  "POST /api/v1/billing/webhook": { scope: "public", ok: 404, call: () => ({ url: "/api/v1/billing/webhook", body: {} }) },

  // --- members and invitations ---
  "GET /api/v1/accounts/:accountId/members": {
    scope: "account",
    need: "read",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/members` }),
  },
  "PATCH /api/v1/accounts/:accountId/members/:userId": {
    scope: "account",
    need: "admin",
    ok: 200,
    call: async (c) => ({ url: `/api/v1/accounts/${c.acc}/members/${await c.f.newMember(c.side)}`, body: { role: "editor" } }),
  },
  "DELETE /api/v1/accounts/:accountId/members/:userId": {
    scope: "account",
    need: "admin",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/accounts/${c.acc}/members/${await c.f.newMember(c.side)}` }),
  },
  // Leaving a fresh account of the same members: its only owner cannot (409).
  "POST /api/v1/accounts/:accountId/leave": {
    scope: "account",
    need: "read",
    ok: 204,
    over: { owner: 409 },
    call: async (c) => ({ url: `/api/v1/accounts/${(await c.f.newAccount(c.side)).id}/leave` }),
  },
  "GET /api/v1/accounts/:accountId/invitations": {
    scope: "account",
    need: "admin",
    ok: 200,
    method: "GET",
    call: (c) => ({ url: `/api/v1/accounts/${c.acc}/invitations` }),
  },
  "POST /api/v1/accounts/:accountId/invitations": {
    scope: "account",
    need: "admin",
    ok: 201,
    call: (c) => ({
      url: `/api/v1/accounts/${c.acc}/invitations`,
      body: { email: `inv-${c.f.n()}@matrix.test`, role: "viewer" },
    }),
  },
  "DELETE /api/v1/accounts/:accountId/invitations/:invitationId": {
    scope: "account",
    need: "admin",
    ok: 204,
    call: async (c) => ({ url: `/api/v1/accounts/${c.acc}/invitations/${(await c.f.newInvitation(c.side)).id}` }),
  },
  "POST /api/v1/accounts/:accountId/invitations/:invitationId/resend": {
    scope: "account",
    need: "admin",
    ok: 200,
    call: async (c) => ({ url: `/api/v1/accounts/${c.acc}/invitations/${(await c.f.newInvitation(c.side)).id}/resend` }),
  },
  "GET /api/v1/invitations/:token": {
    scope: "public",
    ok: 200,
    call: async (c) => ({ url: `/api/v1/invitations/${(await c.f.newInvitation(c.side)).token}` }),
  },
  // An invitation of a fresh account for the caller's own address: anyone signed in joins with
  // it; without a session nor a password it asks to sign in; an API key only reads.
  "POST /api/v1/invitations/accept": {
    scope: "optional",
    ok: 200,
    over: { anonymous: 401, "foreign:anonymous": 401, apikey: 403, "foreign:apikey": 403 },
    call: async (c) => {
      const a = await c.f.newAccount(c.side);
      const inv = await c.f.t.meta.invitations.create({
        accountId: a.id,
        email: c.email || "nobody@matrix.test",
        role: "viewer",
        invitedBy: c.f.users.owner.id,
        ttlMs: 3_600_000,
      });
      return { url: "/api/v1/invitations/accept", body: { token: inv.token } };
    },
  },

  // The socket: its own cells below.
  "GET /api": { scope: "account", need: "read", ok: 101, method: "GET", call: () => ({ url: "/api" }) },
};

describe("access matrix", () => {
  let f: Fixtures;
  let t: TestApp;
  const seen: string[] = [];

  beforeAll(async () => {
    t = await createTestApp("pglite", { env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" } });
    let counter = 0;
    const owner = await t.user("owner@matrix.test");
    const stranger = await t.user("stranger@matrix.test");
    const users = {} as Fixtures["users"];
    users.owner = { id: owner.id, email: owner.email, token: "" };
    users.stranger = { id: stranger.id, email: stranger.email, token: "" };
    for (const role of ["viewer", "editor", "admin"] as const) {
      const u = await t.user(`${role}@matrix.test`);
      await t.meta.accounts.addMember(owner.accountId, u.id, role);
      users[role] = { id: u.id, email: u.email, token: "" };
    }
    for (const u of Object.values(users)) u.token = (await t.login(u.email, "a-good-long-password")).token;
    const side = async (accountId: string, userId: string) => {
      const site = await t.property(accountId, `https://${accountId.slice(0, 8)}.test`);
      const prop = await t.meta.properties.findByUniqueId(site);
      const link = await t.meta.sharedLinks.create({
        propertyId: prop!.id,
        name: "Public",
        passwordHash: null,
        expiresAt: null,
        createdBy: userId,
      });
      return { acc: accountId, site, slug: link!.slug };
    };
    const A = await side(owner.accountId, owner.id);
    const B = await side(stranger.accountId, stranger.id);
    const apiKey = (await t.meta.apiKeys.create({ userId: owner.id, accountId: A.acc, name: "matrix" })).key;
    const sideOf = (s: Side) => (s === "own" ? A : B);
    const propertyRow = async (s: Side) => (await t.meta.properties.findByUniqueId(sideOf(s).site))!;
    f = {
      t,
      users,
      apiKey,
      A,
      B,
      n: () => ++counter,
      newProperty: (s) => t.property(sideOf(s).acc, "https://throwaway.test"),
      async newGoal(s) {
        const g = await t.meta.goals.create({
          propertyId: (await propertyRow(s)).id,
          kind: "event",
          match: `g${++counter}`,
          displayName: `g${counter}`,
          currency: null,
        });
        return g!.id;
      },
      async newMember(s) {
        const u = await t.user(`m${++counter}@matrix.test`);
        await t.meta.accounts.addMember(sideOf(s).acc, u.id, "viewer");
        return u.id;
      },
      async newInvitation(s) {
        const r = await t.meta.invitations.create({
          accountId: sideOf(s).acc,
          email: `i${++counter}@matrix.test`,
          role: "viewer",
          invitedBy: s === "own" ? owner.id : stranger.id,
          ttlMs: 3_600_000,
        });
        return { id: r.row.id, token: r.token };
      },
      async newSharedLink(s) {
        const l = await t.meta.sharedLinks.create({
          propertyId: (await propertyRow(s)).id,
          name: `l${++counter}`,
          passwordHash: null,
          expiresAt: null,
          createdBy: owner.id,
        });
        return l!.id;
      },
      async newInsight(s) {
        const row = await t.meta.insights.create((await propertyRow(s)).id, s === "own" ? owner.id : stranger.id, {
          kind: "trends",
          name: `i${++counter}`,
          description: "",
          spec: TRENDS,
          favourite: false,
          tags: [],
        });
        return row.short_id;
      },
      async newDeletedInsight(s) {
        const shortId = await this.newInsight(s);
        const row = await t.meta.insights.findByShortId(shortId);
        await t.meta.insights.softDelete(row!.id);
        return shortId;
      },
      async newVisitor(s) {
        const clientId = `visitor-${++counter}`;
        await t.events.append([
          eventRow({
            property: sideOf(s).site,
            ts: new Date(Date.now() - 3_600_000),
            visitor_id: clientId,
            client_id: clientId,
            session_id: clientId,
          }),
        ]);
        await t.events.sync();
        return clientId;
      },
      async newAccount(s) {
        const name = `Fresh ${++counter}`;
        const a = await t.meta.accounts.createWithOwner(s === "own" ? owner.id : stranger.id, name);
        if (s === "own")
          for (const role of ["viewer", "editor", "admin"] as const) await t.meta.accounts.addMember(a.id, users[role].id, role);
        return { id: a.id, name };
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it("has a row for every registered route, and no row for a route that is gone", () => {
    const registered = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(
      registered.filter((k) => !TABLE[k]),
      "routes without a row in TABLE",
    ).toEqual([]);
    for (const k of Object.keys(TABLE)) expect(registered, `row ${k} names no registered route`).toContain(k);
  });

  it("agrees with each helper route's declared access kind", () => {
    const kinds: Record<string, Row["scope"]> = {
      none: "public",
      optional: "optional",
      "signed-in": "signed-in",
      account: "account",
      property: "property",
    };
    for (const r of t.app.routeTable) {
      const row = TABLE[`${r.method} ${r.url}`];
      if (!row || !r.doc) continue;
      expect(kinds[r.doc.access], `${r.method} ${r.url}`).toBe(row.scope);
    }
  });

  it("answers every cell as the table says", async () => {
    const wrong: string[] = [];
    const routes = t.app.routeTable.filter((r) => TABLE[`${r.method} ${r.url}`] && !(r.method === "GET" && r.url === "/api"));
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      const row = TABLE[key]!;
      for (const side of ["own", "foreign"] as const) {
        for (const caller of CALLERS) {
          // The other account's owner with the other account's ids is that account's owner: not a cell.
          if (side === "foreign" && caller === "stranger") continue;
          const user = caller === "anonymous" || caller === "apikey" ? undefined : f.users[caller];
          const ids = side === "own" ? f.A : f.B;
          const c: Ctx = { side, caller, acc: ids.acc, site: ids.site, userId: user?.id ?? "", email: user?.email ?? "", f };
          const call = await row.call(c);
          let credential: string | undefined = caller === "apikey" ? f.apiKey : user?.token;
          if (row.freshSession && user) credential = (await t.meta.tokens.issue(user.id, 3_600_000)).token;
          const res = await t.app.inject({
            method: r.method as "GET",
            url: call.url,
            headers: credential ? { authorization: `Bearer ${credential}` } : {},
            ...(call.body === undefined ? {} : { payload: call.body as Record<string, unknown> }),
          });
          seen.push(key);
          const want = expected({ ...row, method: r.method }, caller, side);
          if (res.statusCode !== want)
            wrong.push(`${key} as ${caller} (${side} ids): ${res.statusCode}, expected ${want} ${res.body.slice(0, 120)}`);
          if (res.statusCode === 500) wrong.push(`${key} as ${caller}: a 500`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(new Set(seen).size).toBe(routes.length);
  }, 240_000);

  describe("the socket", () => {
    let url: string;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api`;
    });

    /** Opens the socket with a credential, asks for an account, answers how it ended or "feed". */
    const outcome = (credential: string | undefined, accountId: string) =>
      new Promise<number | "feed">((resolve, reject) => {
        const ws = new WebSocket(url, { headers: credential ? { authorization: `Bearer ${credential}` } : {} });
        ws.on("open", () => ws.send(JSON.stringify({ type: "agentInfo", data: { customerId: accountId } })));
        ws.on("message", (d) => {
          if (JSON.parse(String(d)).type === "initial_customers") {
            resolve("feed");
            ws.close();
          }
        });
        ws.on("close", (code) => resolve(code));
        ws.on("error", reject);
      });

    it.each(CALLERS.flatMap((caller) => (["own", "foreign"] as const).map((side) => [caller, side] as const)))(
      "as %s with %s ids",
      async (caller, side) => {
        if (side === "foreign" && caller === "stranger") return;
        const credential = caller === "anonymous" ? undefined : caller === "apikey" ? f.apiKey : f.users[caller].token;
        const got = await outcome(credential, side === "own" ? f.A.acc : f.B.acc);
        const want = caller === "anonymous" ? 4401 : side === "foreign" || caller === "stranger" ? 4403 : "feed";
        expect(got).toBe(want);
      },
    );
  });
});
