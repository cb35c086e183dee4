// The account's own settings (DESIGN.md §5 "accounts"): rename (admins) and delete (the owner,
// typed confirmation). Listing, creating and transferring accounts belong to the Team screen.
import { AccountDeleteBodySchema, AccountInfoSchema, AccountParamsSchema, AccountPatchBodySchema } from "@lookout/schema";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createAccountService } from "./service.js";

const TAGS = ["accounts"] as const;

export function accountRoutes(deps: AppDeps): Route[] {
  const accounts = createAccountService(deps);
  return [
    defineRoute({
      method: "PATCH",
      url: "/api/v1/accounts/:accountId",
      summary: "Renames the account (admins).",
      tags: TAGS,
      params: AccountParamsSchema,
      body: AccountPatchBodySchema,
      access: { account: ({ params }) => params.accountId, action: "admin" },
      answer: AccountInfoSchema,
      handle: ({ actor, params, body }) => accounts.rename(actor, params.accountId, body.name),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/accounts/:accountId",
      summary:
        "Deletes the account with its properties, their events, members' access, invitations, API keys, shared links, " +
        "report schedules and goals (the owner; `confirm` is the account's name).",
      tags: TAGS,
      params: AccountParamsSchema,
      body: AccountDeleteBodySchema,
      access: { account: ({ params }) => params.accountId, action: "own" },
      answer: NO_CONTENT,
      handle: ({ actor, params, body }) => accounts.remove(actor, params.accountId, body.confirm),
    }),
  ];
}
