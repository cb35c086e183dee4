// The Team API (DESIGN.md §5 "members", "accounts"; issue #20): members, invitations (and their
// public link), transfer of ownership, the user's accounts and the account's activity. Each route:
// schemas, its access (the one policy: "admin" for managing members, "own" for ownership), the
// service call (service.ts), where the member-on-member rules are asked of the policy too.
import {
  AccountCreateBodySchema,
  AccountListAnswerSchema,
  AccountListItemSchema,
  AccountParamsSchema,
  ActivityPageSchema,
  ActivityQuerySchema,
  InvitationAcceptAnswerSchema,
  InvitationAcceptBodySchema,
  InvitationCreateBodySchema,
  InvitationListAnswerSchema,
  InvitationParamsSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenParamsSchema,
  MemberListAnswerSchema,
  MemberParamsSchema,
  MemberRoleBodySchema,
  MemberSchema,
  TransferOwnershipBodySchema,
} from "@lookout/schema";
import type { AppDeps } from "../app-deps.js";
import { authenticate } from "../http/authenticate.js";
import { clientIpResolver } from "../http/client-ip.js";
import { isSecureRequest, setSessionCookies } from "../http/cookies.js";
import { sameOriginOnly } from "../http/origin.js";
import { defineRoute, NO_CONTENT, type Route } from "../http/route.js";
import { createTeamService } from "./service.js";

const TAGS = ["team"] as const;
const account = ({ params }: { params: { accountId: string } }) => params.accountId;

export function teamRoutes(deps: AppDeps): Route[] {
  const team = createTeamService(deps);
  const clientIp = clientIpResolver(deps.config.trustedProxies);
  return [
    // --- the user's accounts ---
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts",
      summary: "The signed-in user's accounts with their role in each (an API key: its one account).",
      tags: TAGS,
      access: "signed-in",
      answer: AccountListAnswerSchema,
      handle: ({ actor }) => team.listAccounts(actor),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts",
      summary: "Creates an account with the caller as its owner, and makes it the one the next sign-in opens.",
      tags: TAGS,
      access: "signed-in",
      body: AccountCreateBodySchema,
      answer: AccountListItemSchema,
      status: 201,
      handle: ({ actor, body }) => team.createAccount(actor, body.name),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/switch",
      summary: "Records the account as the one the user works in: the next sign-in opens there.",
      tags: TAGS,
      params: AccountParamsSchema,
      access: { account, action: "read" },
      answer: NO_CONTENT,
      handle: ({ actor, params }) => team.switchAccount(actor, params.accountId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/transfer-ownership",
      summary: "Makes another member an owner and the caller an admin (owners).",
      tags: TAGS,
      params: AccountParamsSchema,
      body: TransferOwnershipBodySchema,
      access: { account, action: "own" },
      answer: MemberListAnswerSchema,
      handle: ({ actor, params, body }) => team.transferOwnership(actor, params.accountId, body.user_id),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts/:accountId/activity",
      summary: "The account's recent activity from the audit log, newest first, 25 a page (admins).",
      tags: TAGS,
      params: AccountParamsSchema,
      query: ActivityQuerySchema,
      access: { account, action: "admin" },
      answer: ActivityPageSchema,
      handle: ({ params, query }) => team.activity(params.accountId, query.cursor),
    }),

    // --- members ---
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts/:accountId/members",
      summary: "The account's members with their role, when they joined and were last active.",
      tags: TAGS,
      params: AccountParamsSchema,
      access: { account, action: "read" },
      answer: MemberListAnswerSchema,
      handle: ({ params }) => team.listMembers(params.accountId),
    }),
    defineRoute({
      method: "PATCH",
      url: "/api/v1/accounts/:accountId/members/:userId",
      summary: "Changes a member's role (admins below owner; owners any; never one's own; the last owner stays).",
      tags: TAGS,
      params: MemberParamsSchema,
      body: MemberRoleBodySchema,
      access: { account, action: "admin" },
      answer: MemberSchema,
      responses: { 409: "The account's last owner." },
      handle: ({ actor, role, params, body }) => team.changeRole(actor, role, params.accountId, params.userId, body.role),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/accounts/:accountId/members/:userId",
      summary: "Removes a member (admins below owner; owners any); one's own id leaves. Their sockets close.",
      tags: TAGS,
      params: MemberParamsSchema,
      access: { account, action: "admin" },
      answer: NO_CONTENT,
      responses: { 409: "The account's last owner." },
      handle: ({ actor, role, params }) => team.removeMember(actor, role, params.accountId, params.userId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/leave",
      summary: "The caller leaves the account (not its last owner). Their own accounts stay.",
      tags: TAGS,
      params: AccountParamsSchema,
      access: { account, action: "read" },
      answer: NO_CONTENT,
      responses: { 409: "The account's last owner." },
      handle: ({ actor, params }) => team.leave(actor, params.accountId),
    }),

    // --- invitations ---
    defineRoute({
      method: "GET",
      url: "/api/v1/accounts/:accountId/invitations",
      summary: "The account's pending invitations (expired ones flagged), newest first (admins).",
      tags: TAGS,
      params: AccountParamsSchema,
      access: { account, action: "admin" },
      answer: InvitationListAnswerSchema,
      handle: ({ params }) => team.listInvitations(params.accountId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/invitations",
      summary: "Invites one address or a list of them with a role, by e-mail (admins; owners to invite owners).",
      tags: TAGS,
      params: AccountParamsSchema,
      body: InvitationCreateBodySchema,
      access: { account, action: "admin" },
      answer: InvitationListAnswerSchema,
      status: 201,
      responses: { 429: "Too many invitations from this user or to this account." },
      handle: ({ actor, role, params, body }) =>
        team.invite(actor, role, params.accountId, "emails" in body ? body.emails : [body.email], body.role),
    }),
    defineRoute({
      method: "DELETE",
      url: "/api/v1/accounts/:accountId/invitations/:invitationId",
      summary: "Revokes a pending invitation: its link says so from then on (admins).",
      tags: TAGS,
      params: InvitationParamsSchema,
      access: { account, action: "admin" },
      answer: NO_CONTENT,
      handle: ({ actor, role, params }) => team.revokeInvitation(actor, role, params.accountId, params.invitationId),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/accounts/:accountId/invitations/:invitationId/resend",
      summary: "Sends a pending invitation again with a new link valid 72 hours; the old link stops working (admins).",
      tags: TAGS,
      params: InvitationParamsSchema,
      access: { account, action: "admin" },
      answer: InvitationSchema,
      handle: ({ actor, role, params }) => team.resendInvitation(actor, role, params.accountId, params.invitationId),
    }),
    defineRoute({
      method: "GET",
      url: "/api/v1/invitations/:token",
      summary: "What an invitation link shows (public): the account, the inviter, the role, the address and its state.",
      tags: TAGS,
      params: InvitationTokenParamsSchema,
      access: "none",
      answer: InvitationPreviewSchema,
      responses: { 404: "No invitation has this token." },
      handle: ({ params }) => team.preview(params.token),
    }),
    defineRoute({
      method: "POST",
      url: "/api/v1/invitations/accept",
      summary:
        "Accepts an invitation: signed in as the invited address, or with a name and password (a new user, or the " +
        "address's password), which also signs in and sets the session cookies.",
      tags: TAGS,
      access: "optional",
      // Login CSRF: a foreign page must not sign a browser into an account, nor join one for it.
      onRequest: sameOriginOnly(deps.config.publicUrl),
      body: InvitationAcceptBodySchema,
      answer: InvitationAcceptAnswerSchema,
      responses: {
        401: "Not signed in and no name and password, or a wrong password for an address that has an account.",
        403: "Signed in as another address than the invited one.",
        404: "No invitation has this token.",
        410: "The invitation expired, was used or was revoked (the code says which).",
      },
      handle: async ({ actor, body, req, reply }) => {
        // A cookie session joining an account is a write: it needs the XSRF header like any other.
        const caller = actor?.via === "cookie" ? await authenticate(deps.meta, req) : actor;
        const outcome = await team.accept(caller, body, { ip: clientIp(req), userAgent: req.headers["user-agent"] ?? "" });
        if (outcome.session) {
          setSessionCookies(
            reply,
            outcome.session.token,
            outcome.session.expiresAt,
            isSecureRequest(req, deps.config.cookieSecure),
          );
        }
        return outcome.answer;
      },
    }),
  ];
}
