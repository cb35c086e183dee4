// The properties calls: SPEC.md §7's list for the client, and the management API of DESIGN.md §5
// (list, create, read, edit with settings, reset, delete, install check, the caller's address).
// Reading needs membership ("read"); every change needs "admin" (DESIGN.md §7). Each route:
// schemas, the policy's rule, the service call (service.ts). Delete and reset take no body: the
// typed confirmation of the property's name is the web app's; both are audited.
import {
  AccountIdSchema,
  AdminPropertyListSchema,
  AdminPropertySchema,
  ClientAddressSchema,
  GetPropertiesBodySchema,
  InstallStatusSchema,
  PropertyIdSchema,
  PropertyListAnswerSchema,
} from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { clientIpResolver } from "../http/client-ip.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createPropertyService } from "./service.js";
import { CreatePropertyBodySchema, UpdatePropertyBodySchema } from "./settings.js";

export { toProperty } from "./service.js";

const IdParams = z.object({ id: PropertyIdSchema.describe("The property's unique_id.") });

const SETTINGS_HELP =
  "settings: cookieless (boolean); excluded_ips: IPs, CIDR ranges (IPv4 and IPv6) or loopback/private/linklocal; " +
  'excluded_paths: patterns starting with "/", `*` within a path segment, `**` across segments; allowed_hostnames: ' +
  "example.com (www. included) or *.example.com (subdomains). At most 100 entries a list; each list replaces the " +
  "stored one; a bad entry answers 400 with its index in details[].path (settings.excluded_ips.3). Effective at " +
  "the collector at once.";

export function propertyRoutes(deps: AppDeps): Route[] {
  const properties = createPropertyService(deps);
  const clientIp = clientIpResolver(deps.config.trustedProxies);
  return [
    defineRoute({
      method: "POST",
      url: "/static-api/get-properties",
      summary: "The properties of an account the caller belongs to (SPEC.md §7).",
      tags: ["properties"],
      body: GetPropertiesBodySchema,
      absentBody: {},
      bodyTypes: ["application/x-www-form-urlencoded", "application/json"],
      access: { account: ({ body }) => body.accountId, action: "read" },
      answer: PropertyListAnswerSchema,
      handle: ({ body }) => properties.list(body.accountId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties",
      summary: "The account's properties with their settings and events of the last 30 days.",
      tags: ["properties"],
      query: z.object({ accountId: AccountIdSchema.describe("The account whose properties to list.") }),
      access: { account: ({ query }) => query.accountId, action: "read" },
      answer: AdminPropertyListSchema,
      handle: ({ query }) => properties.listAdmin(query.accountId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties",
      summary: "Adds a property (website) to an account (account admins).",
      description:
        "website_url is parsed as a URL (http or https; a bare host reads as https) and stored as its origin; " +
        "timezone is an IANA name (Intl.supportedValuesOf('timeZone')) or UTC.",
      tags: ["properties"],
      body: CreatePropertyBodySchema,
      access: { account: ({ body }) => body.accountId, action: "admin" },
      answer: AdminPropertySchema,
      status: 201,
      handle: ({ actor, body }) => properties.create(actor, body),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id",
      summary: "One property with its settings and events of the last 30 days.",
      tags: ["properties"],
      params: IdParams,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: AdminPropertySchema,
      handle: ({ property }) => properties.get(property),
    }),
    defineRoute({
      method: "PATCH",
      url: "/api/v1/properties/:id",
      summary: "Changes a property's name, address, timezone or settings (account admins; audited).",
      description: SETTINGS_HELP,
      tags: ["properties"],
      params: IdParams,
      body: UpdatePropertyBodySchema,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: AdminPropertySchema,
      handle: ({ actor, property, body }) => properties.update(actor, property, body),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/properties/:id",
      summary: "Deletes a property with all its events and visitor profiles (account admins; audited).",
      tags: ["properties"],
      params: IdParams,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: NO_CONTENT,
      handle: ({ actor, property }) => properties.remove(actor, property),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/properties/:id/reset",
      summary: "Deletes every event, visitor profile and rollup of a property; keeps the property (account admins; audited).",
      tags: ["properties"],
      params: IdParams,
      access: { property: ({ params }) => params.id, action: "admin" },
      answer: NO_CONTENT,
      handle: ({ actor, property }) => properties.reset(actor, property),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/install-status",
      summary: "Whether an event of this property has arrived, and when the latest did (from received events).",
      tags: ["properties"],
      params: IdParams,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: InstallStatusSchema,
      handle: ({ property }) => properties.installStatus(property),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/properties/:id/client-address",
      summary: "The caller's IP address as the collector would see it (to exclude one's own visits).",
      tags: ["properties"],
      params: IdParams,
      access: { property: ({ params }) => params.id, action: "read" },
      answer: ClientAddressSchema,
      handle: ({ req }) => ({ ip: clientIp(req) }),
    }),
  ];
}
