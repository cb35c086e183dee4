// The role matrix of DESIGN.md §7 as data, shared by the server's one policy (apps/server/src/http/
// policy.ts) and the web app (which hides or disables what a role may not do; the server decides).
import type { Role } from "./auth.js";

/**
 * What a call needs: read (stats, live, visitors, insights, reports), write (insights, goals),
 * admin (properties, tracking, exclusions, shared links, report schedules, exports, API keys,
 * members below owner), own (billing, deleting the account, ownership).
 */
export type Action = "read" | "write" | "admin" | "own";

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
const NEEDS: Record<Action, Role> = { read: "viewer", write: "editor", admin: "admin", own: "owner" };

/** Whether `role` (null: not a member) may do what `action` needs. */
export function allows(role: Role | null | undefined, action: Action): boolean {
  return role != null && RANK[role] >= RANK[NEEDS[action]];
}

/**
 * Member-on-member (DESIGN.md §7): whether a member with role `actor` may give a member whose
 * role is `target` the role `to` (null: remove them). Admins manage members below owner only;
 * owners manage everyone and make owners. Acting on oneself is leaving or transferring, never
 * this (the policy refuses it before asking). The last-owner rule needs the data: the service.
 */
export function mayManageMember(actor: Role | null | undefined, target: Role, to: Role | null): boolean {
  if (!allows(actor, "admin")) return false;
  if (actor === "owner") return true;
  return target !== "owner" && to !== "owner";
}

/** Whether `actor` may invite someone as `role`: admins below owner, owners any role. */
export function mayInvite(actor: Role | null | undefined, role: Role): boolean {
  return allows(actor, "admin") && (role !== "owner" || actor === "owner");
}
