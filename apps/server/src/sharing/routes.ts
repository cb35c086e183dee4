// Shared links (DESIGN.md §5): a property's links for its members (list: any member; create and
// revoke: admins, §7), and the public page's calls: what a link shows, and its password form
// (throttled like sign-ins). The page itself is /share/{slug} (web/routes.ts); its Stats API
// calls carry the link's credential (sharing/credential.ts, stats/routes.ts `share`).
import {
  CreatedSharedLinkSchema,
  CreateSharedLinkBodySchema,
  PropertyIdSchema,
  ShareAuthBodySchema,
  SharedLinkIdSchema,
  SharedLinkListSchema,
  ShareInfoSchema,
  ShareSlugSchema,
} from "@lookout/schema";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { clientIpResolver } from "../http/client-ip.js";
import { isSecureRequest } from "../http/cookies.js";
import { sameOriginOnly } from "../http/origin.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createSharingService } from "./service.js";

const propertyParams = z.object({ unique_id: PropertyIdSchema.describe("The property's unique_id.") });
const slugParams = z.object({ slug: ShareSlugSchema.describe("The link's slug, from its address /share/{slug}.") });
const NOT_FOUND = { 404: "The link does not exist, has expired or has been revoked (the same answer for each)." } as const;

export function sharingRoutes(deps: AppDeps): Route[] {
  const { config } = deps;
  const sharing = createSharingService(deps);
  const clientIp = clientIpResolver(config.trustedProxies);
  /** Where links point: LOOKOUT_PUBLIC_URL, else the address the admin reached this server at. */
  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
  const tags = ["shared links"];

  return [
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:unique_id/shared-links",
      summary: "The property's shared links (any member; the slug is the credential of a link without a password).",
      tags,
      params: propertyParams,
      access: { property: ({ params }) => params.unique_id, action: "read" },
      answer: SharedLinkListSchema,
      handle: ({ property, req }) => sharing.list(property, origin(req)),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:unique_id/shared-links",
      summary: "Creates a shared link: a public, read-only dashboard of this property (admins).",
      description: "`password` (hashed with argon2id) puts a password page before the dashboard; `expires_at` ends the link.",
      tags,
      params: propertyParams,
      body: CreateSharedLinkBodySchema,
      access: { property: ({ params }) => params.unique_id, action: "admin" },
      answer: CreatedSharedLinkSchema,
      status: 201,
      responses: { 409: "The property has a link of that name already." },
      handle: ({ actor, property, body, req }) => sharing.create(actor, property, body, origin(req)),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/properties/:unique_id/shared-links/:id",
      summary: "Revokes a shared link: its page and its stats calls stop at once (admins).",
      tags,
      params: propertyParams.extend({ id: SharedLinkIdSchema }),
      access: { property: ({ params }) => params.unique_id, action: "admin" },
      answer: NO_CONTENT,
      handle: ({ actor, property, params }) => sharing.remove(actor, property, params.id),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/share/:slug",
      summary: "What a shared link shows: its name, whether it needs its password, and (once open) the property.",
      tags,
      params: slugParams,
      access: "none",
      answer: ShareInfoSchema,
      responses: NOT_FOUND,
      handle: ({ params, req }) => sharing.info(params.slug, req),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/share/:slug/auth",
      summary: "Checks a shared link's password; a right one sets the link's signed cookie (HttpOnly, 24 h).",
      tags,
      params: slugParams,
      body: ShareAuthBodySchema,
      access: "none",
      // Like the sign-in calls: a cross-site form may not drive the password check.
      onRequest: sameOriginOnly(config.publicUrl),
      answer: NO_CONTENT,
      responses: {
        ...NOT_FOUND,
        401: "Incorrect password.",
        403: "A cross-site browser request, refused.",
        429: "Too many attempts.",
      },
      handle: ({ params, body, req, reply }) =>
        sharing.authenticate({
          slug: params.slug,
          password: body.password,
          ip: clientIp(req),
          reply,
          secure: isSecureRequest(req, config.cookieSecure),
        }),
    }),
  ];
}
