// The one way to write a route (DESIGN.md §2): a definition names its zod schemas (params, query,
// body, answer), who may call it (the one policy, policy.ts) and the service call; the helper
// runs authenticate -> parse -> authorize -> service -> respond, records the schemas in the route
// table (route-table.ts) and so in the OpenAPI document (openapi.ts). Services throw domain errors
// (domain-errors.ts); errors.ts maps them, and zod's, to `{message, code, details?}`.
//
//   export const deleteProperty = defineRoute({
//     method: "DELETE", url: "/api/v1/properties/:id", summary: "Deletes a property with its data.",
//     params: z.object({ id: PropertyIdSchema }), answer: NO_CONTENT,
//     access: { property: ({ params }) => params.id, action: "admin" },
//     handle: ({ actor, property }) => properties.remove(actor, property),
//   });
//
// Deliberate exceptions, registered with Fastify directly (they still appear in the route table,
// so the access matrix and the hostile-input test walk them):
// - POST /api/event (collect/routes.ts), the collector's hot path: no async hook and no promise
//   per event, no credential read, no answer check; a callback CORS hook whose headers also reach
//   the 400/413 replies; text/plain bodies (sendBeacon); token buckets taken before the lookup.
// - POST /api/batch (collect/batch-route.ts): the same collector, sharing /api/event's client-IP
//   resolver and token buckets, with a body limit of 500 events.
// - GET /js/script.js (collect/script-route.ts): a static, cacheable, cross-origin file, raw bytes.
// These three carry a hand-written RouteDoc in their route config, so the OpenAPI document lists
// them (openapi.test.ts). The dashboard socket, GET /api (live/routes.ts), is a WebSocket upgrade
// whose authentication and refusals are close codes (live/socket.ts), not HTTP answers; OpenAPI
// cannot describe it, so it is left out of the document.
import type { Role } from "@lookout/schema";
import type { MetaStore, PropertyRow } from "@lookout/storage";
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { z } from "zod";
import { type Actor, authenticate, identify } from "./authenticate.js";
import { zodMessage } from "./errors.js";
import { type Action, authorizeAccount, authorizeMethod, authorizeProperty } from "./policy.js";
import type { RouteDoc, RouteSchemas } from "./route-table.js";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A query string read by a function of its own (the Stats API's), documented by a zod object. */
export interface CustomQuery<Q> {
  /** The parameters as the OpenAPI document and the route table show them; not used to parse. */
  schema: z.ZodObject;
  parse(raw: Record<string, unknown>): Q;
}

export interface Input<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/**
 * Who may call: "none" reads no credential (login), "optional" the caller if any (logout),
 * "signed-in" any live credential; an account or property rule asks the policy for `action` on
 * the id the function picks from the parsed input (403 for an account, 404 for a property).
 */
export type Access<I> =
  | "none"
  | "optional"
  | "signed-in"
  | { account: (input: I) => string; action: Action }
  | { property: (input: I) => string; action: Action };

type Caller<Acc> = Acc extends "none"
  ? { actor: null }
  : Acc extends "optional"
    ? { actor: Actor | null }
    : Acc extends { property: unknown }
      ? { actor: Actor; property: PropertyRow }
      : Acc extends { account: unknown }
        ? { actor: Actor; role: Role }
        : { actor: Actor };

export type Context<P, Q, B, Acc> = Input<P, Q, B> & Caller<Acc> & { req: FastifyRequest; reply: FastifyReply };

/** The answer of a route that answers nothing: 204 unless `status` says otherwise. */
export const NO_CONTENT = null;
/** The answer of a route that sends something other than JSON itself (a page, a redirect). */
export const raw = (contentType: string) => ({ contentType });

type Answer = z.ZodType | { contentType: string } | null;
// biome-ignore lint/suspicious/noConfusingVoidType: a NO_CONTENT route's service call may return Promise<void>
type AnswerOf<A> = A extends z.ZodType ? z.output<A> : A extends null ? void : unknown;

export interface RouteDef<P, Q, B, A extends Answer, Acc> {
  method: Method;
  /** Fastify's syntax: `/api/v1/properties/:id`. */
  url: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  access: Acc;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q> | CustomQuery<Q>;
  body?: z.ZodType<B>;
  /** What an absent body reads as (the form-encoded properties call: `{}`, so the error names the field). */
  absentBody?: unknown;
  /** Content types the body may come in, for the document (JSON unless told). */
  bodyTypes?: readonly string[];
  answer: A;
  /** The success status: 200, or 204 for NO_CONTENT, unless told. */
  status?: number;
  /** Statuses beyond those the access rule and the schemas imply, for the document. */
  responses?: Readonly<Record<number, string>>;
  /** Runs before anything else (the sign-in calls' same-origin check). */
  onRequest?: onRequestHookHandler;
  /**
   * Whether a shared link's credential (X-Share-Slug, sharing/credential.ts) may call it: the
   * Stats API's reads only. Elsewhere the header is not even read.
   */
  share?: boolean;
  /**
   * Whether the answer carries the account's numbers (the Stats API, insights, visitors, a
   * report): such a route answers 402 account_locked while its account is locked over its plan's
   * quota (issue #24 §3). Declared here rather than listed in billing so that a new route cannot
   * be missed: mountRoutes refuses one mounted without the lock, and billing/lock-routes.test.ts
   * holds every registered route's declaration to a hand-written table and calls each locked one.
   */
  readsStats?: boolean;
  handle(ctx: Context<P, Q, B, Acc>): AnswerOf<A> | Promise<AnswerOf<A>>;
}

/**
 * A route definition, ready for mountRoutes (its types checked by defineRoute). Its `access` is
 * required and typed: a route cannot be written without saying who may call it, and mountRoute
 * refuses at start-up one whose access is not a rule (a cast, a plain object).
 */
export type Route = RouteDef<unknown, unknown, unknown, Answer, Access<Input<unknown, unknown, unknown>>>;

/**
 * The billing lock over a route that reads stats (billing/lock.ts). Called before the service
 * with the authorized property; a route without one (a saved insight by short id, authorized in
 * its service) is asked after it, so that an id the caller may not read still answers 404.
 */
export type StatsGate = (ctx: { property?: PropertyRow; params?: unknown }) => Promise<void>;

const ACTIONS: readonly Action[] = ["read", "write", "admin", "own"];

/** Throws unless `access` is one of the rules of Access: the runtime half of the guarantee. */
export function assertAccess(name: string, access: unknown): void {
  if (access === "none" || access === "optional" || access === "signed-in") return;
  if (typeof access === "object" && access !== null) {
    const rule = access as { account?: unknown; property?: unknown; action?: unknown };
    const picks = [rule.account, rule.property].filter((f) => f !== undefined);
    if (picks.length === 1 && typeof picks[0] === "function" && ACTIONS.includes(rule.action as Action)) return;
  }
  throw new Error(
    `${name}: a route must declare its access ("none", "optional", "signed-in", or an account or property rule with an action)`,
  );
}

/** Types a route definition; mountRoutes registers it. */
export function defineRoute<P, Q, B, A extends Answer, const Acc extends Access<Input<P, Q, B>>>(
  def: RouteDef<P, Q, B, A, Acc>,
): Route {
  return def as unknown as Route;
}

/**
 * Whether answers are checked against their schema: under test and in development, never in
 * production (NODE_ENV unset included), where a check would cost every call.
 */
export const CHECK_ANSWERS = process.env.NODE_ENV === "test" || process.env.NODE_ENV === "development";

export class AnswerMismatchError extends Error {
  constructor(route: string, err: z.ZodError) {
    super(`${route} answered what its answer schema does not allow: ${zodMessage(err)}`);
    this.name = "AnswerMismatchError";
  }
}

function docOf(def: Route): RouteDoc {
  const access = def.access as Access<unknown>;
  return {
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    ...(def.tags ? { tags: def.tags } : {}),
    access: typeof access === "string" ? access : "property" in access ? "property" : "account",
    status: def.status ?? (def.answer === null ? 204 : 200),
    answer: def.answer,
    ...(def.body && def.bodyTypes ? { bodyTypes: def.bodyTypes } : {}),
    ...(def.readsStats
      ? {
          readsStats: true,
          responses: { ...def.responses, 402: "The account is locked over its plan's quota (account_locked)." },
        }
      : def.responses
        ? { responses: def.responses }
        : {}),
  };
}

/**
 * Registers routes written with defineRoute on `app` (a plugin's scope keeps its hooks). A route
 * that reads stats needs `statsGate`: mounting it without one throws at start-up.
 */
export function mountRoutes(
  app: FastifyInstance,
  meta: MetaStore,
  routes: readonly Route[],
  check = CHECK_ANSWERS,
  statsGate?: StatsGate,
): void {
  for (const def of routes) mountRoute(app, meta, def, check, statsGate);
}

function mountRoute(app: FastifyInstance, meta: MetaStore, def: Route, check: boolean, statsGate?: StatsGate): void {
  const name = `${def.method} ${def.url}`;
  assertAccess(name, def.access);
  const gate = def.readsStats ? statsGate : undefined;
  if (def.readsStats && !gate)
    throw new Error(`${name}: a route that reads stats must be mounted with the billing lock (statsGate)`);
  const query = def.query;
  const querySchema = query === undefined ? undefined : query instanceof z.ZodType ? query : query.schema;
  // A zod schema and a CustomQuery both parse with .parse(raw).
  const parseQuery: (raw: Record<string, unknown>) => unknown = query === undefined ? () => undefined : (q) => query.parse(q);
  const schemas: RouteSchemas = {
    ...(def.params ? { params: def.params } : {}),
    ...(querySchema ? { query: querySchema } : {}),
    ...(def.body ? { body: def.body } : {}),
  };
  const doc = docOf(def);
  const access = def.access as Access<Input<unknown, unknown, unknown>>;
  const answerSchema = check && def.answer instanceof z.ZodType ? def.answer : undefined;

  app.route({
    method: def.method,
    url: def.url,
    config: { doc, schemas },
    ...(def.onRequest ? { onRequest: def.onRequest } : {}),
    handler: async (req, reply) => {
      const actor =
        access === "none"
          ? null
          : access === "optional"
            ? await identify(meta, req)
            : await authenticate(meta, req, def.share === true);
      authorizeMethod(actor, def.method);
      const input: Input<unknown, unknown, unknown> = {
        params: def.params ? def.params.parse(req.params) : undefined,
        query: parseQuery(req.query as Record<string, unknown>),
        body: def.body ? def.body.parse(req.body ?? def.absentBody) : undefined,
      };
      let granted: { property: PropertyRow } | { role: Role } | undefined;
      if (typeof access === "object") {
        granted =
          "property" in access
            ? { property: await authorizeProperty(meta, actor as Actor, access.property(input), access.action) }
            : { role: await authorizeAccount(meta, actor as Actor, access.account(input), access.action) };
      }
      const ctx = { ...input, actor, ...granted, req, reply } as Context<unknown, unknown, unknown, unknown>;
      const property = (granted as { property?: PropertyRow } | undefined)?.property;
      if (gate && property) await gate({ property });
      const result = await def.handle(ctx);
      if (gate && !property) await gate({ params: input.params });
      if (def.answer === null) return reply.code(doc.status).send();
      if (!(def.answer instanceof z.ZodType)) return result;
      if (answerSchema) {
        // The answer as the client receives it (dates as strings, undefined dropped).
        const wire = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
        const checked = answerSchema.safeParse(wire);
        if (!checked.success) throw new AnswerMismatchError(name, checked.error);
      }
      if (doc.status !== 200) reply.code(doc.status);
      return result;
    },
  });
}
