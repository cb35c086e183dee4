// The account's team calls (DESIGN.md §5 "members"; TEAM-API): members and their roles, leaving
// and transferring ownership, invitations (list, create one or several, resend, revoke), the
// account's activity from the audit log, and the public invitation link's preview and accept.
// Answers are parsed with the shared schemas, so a surprise reads as an error where it is shown.
import {
  type ActivityPage,
  ActivityPageSchema,
  type Invitation,
  type InvitationAcceptAnswer,
  InvitationAcceptAnswerSchema,
  type InvitationAcceptBody,
  type InvitationCreateBody,
  InvitationListAnswerSchema,
  type InvitationPreview,
  InvitationPreviewSchema,
  InvitationSchema,
  type Member,
  MemberListAnswerSchema,
  MemberSchema,
  type Role,
} from "@lookout/schema";
import { request } from "../../lib/http";

const account = (accountId: string) => `/api/v1/accounts/${encodeURIComponent(accountId)}`;
const member = (accountId: string, userId: string) => `${account(accountId)}/members/${encodeURIComponent(userId)}`;
const invitation = (accountId: string, id: string) => `${account(accountId)}/invitations/${encodeURIComponent(id)}`;

export async function listMembers(accountId: string, signal?: AbortSignal): Promise<Member[]> {
  return MemberListAnswerSchema.parse(await request("GET", `${account(accountId)}/members`, { signal }));
}

export async function changeRole(accountId: string, userId: string, role: Role): Promise<Member> {
  return MemberSchema.parse(await request("PATCH", member(accountId, userId), { json: { role } }));
}

export async function removeMember(accountId: string, userId: string): Promise<void> {
  await request("DELETE", member(accountId, userId));
}

export async function leaveAccount(accountId: string): Promise<void> {
  await request("POST", `${account(accountId)}/leave`);
}

/** The member becomes an owner and the caller an admin; answers the members as they now are. */
export async function transferOwnership(accountId: string, userId: string): Promise<Member[]> {
  return MemberListAnswerSchema.parse(
    await request("POST", `${account(accountId)}/transfer-ownership`, { json: { user_id: userId } }),
  );
}

export async function listInvitations(accountId: string, signal?: AbortSignal): Promise<Invitation[]> {
  return InvitationListAnswerSchema.parse(await request("GET", `${account(accountId)}/invitations`, { signal }));
}

/** Answers the invitations created (one per address). */
export async function invite(accountId: string, body: InvitationCreateBody): Promise<Invitation[]> {
  return InvitationListAnswerSchema.parse(await request("POST", `${account(accountId)}/invitations`, { json: body }));
}

/** A new link (the old one stops working) valid for another 72 hours. */
export async function resendInvitation(accountId: string, id: string): Promise<Invitation> {
  return InvitationSchema.parse(await request("POST", `${invitation(accountId, id)}/resend`));
}

export async function revokeInvitation(accountId: string, id: string): Promise<void> {
  await request("DELETE", invitation(accountId, id));
}

export async function getActivity(accountId: string, cursor: string | null, signal?: AbortSignal): Promise<ActivityPage> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
  return ActivityPageSchema.parse(await request("GET", `${account(accountId)}/activity${query}`, { signal }));
}

// --- The public link (/invite/{token}) -------------------------------------------------------

export async function previewInvitation(token: string, signal?: AbortSignal): Promise<InvitationPreview> {
  return InvitationPreviewSchema.parse(await request("GET", `/api/v1/invitations/${encodeURIComponent(token)}`, { signal }));
}

export async function acceptInvitation(body: InvitationAcceptBody): Promise<InvitationAcceptAnswer> {
  return InvitationAcceptAnswerSchema.parse(await request("POST", "/api/v1/invitations/accept", { json: body }));
}
