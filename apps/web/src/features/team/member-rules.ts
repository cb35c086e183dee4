// What the signed-in member may do to another member on /team (DESIGN.md §7), from the same
// rules the server's policy uses (@lookout/schema mayInvite, mayManageMember): admins manage
// members below owner and grant roles up to admin, owners manage everyone and make owners. The
// screen hides or disables by these; the server decides either way. Pure, tested without a browser.
import { mayInvite, mayManageMember, type Role } from "@lookout/schema";

export const ROLES: readonly Role[] = ["owner", "admin", "editor", "viewer"];

export const ROLE_LABEL: Record<Role, string> = { owner: "Owner", admin: "Admin", editor: "Editor", viewer: "Viewer" };

export const ROLE_HELP: Record<Role, string> = {
  owner: "Everything, including billing, deleting the account and making owners.",
  admin: "Properties, tracking settings, shared links, reports, API keys and members below owner.",
  editor: "Reads every statistic and creates insights and goals.",
  viewer: "Reads statistics, the live view, visitors, insights and reports.",
};

/** The roles a member with `viewer` role may give (to an invitation, or a member they manage). */
export function grantableRoles(viewer: Role | null | undefined): Role[] {
  return ROLES.filter((r) => mayInvite(viewer, r));
}

/**
 * Whether `viewer` may change the role of, or remove, a member whose role is `target`. Nobody
 * manages themselves here: they leave instead, and an owner hands the account on by a transfer.
 */
export function canManage(viewer: Role | null | undefined, target: Role, isSelf: boolean): boolean {
  return !isSelf && mayManageMember(viewer, target, null);
}

/**
 * Whether a member may leave: anyone but the last owner (an account always keeps one owner; they
 * transfer ownership or delete the account instead).
 */
export function canLeave(role: Role | null | undefined, owners: number): boolean {
  if (role == null) return false;
  return role !== "owner" || owners > 1;
}

/** The number of owners among the members. */
export function ownerCount(members: readonly { role: Role }[]): number {
  return members.filter((m) => m.role === "owner").length;
}

/** "an editor", "a viewer": the role in a sentence. */
export function withArticle(role: Role): string {
  return `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;
}
