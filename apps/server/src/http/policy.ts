// The one authorization policy: every route and the socket ask it whether an actor may act on an
// account or property. Unknown and foreign ids answer the same way, so ids cannot be probed.
import { type Action, allows, mayInvite, mayManageMember, type Role } from "@lookout/schema";
import type { MetaStore, PropertyRow } from "@lookout/storage";
import type { Actor } from "./authenticate.js";
import { DomainError } from "./domain-errors.js";

export { type Action, allows };

/** The actor's role in `accountId`: their membership, narrowed for an API key to read in its account. */
export async function roleFor(meta: MetaStore, actor: Actor, accountId: string): Promise<Role | null> {
  // A shared link has no role in any account: it reads its one property (below) and nothing else.
  if (actor.propertyScope !== undefined) return null;
  if (actor.accountScope !== undefined && actor.accountScope !== accountId) return null;
  const role = await meta.accounts.roleOf(actor.userId, accountId);
  return actor.via === "api_key" && role ? "viewer" : role;
}

/**
 * An API key only reads (DESIGN.md §7): any call other than a GET is refused before its access
 * rule is asked, whatever the route (leaving or switching an account, creating one, logging out).
 */
export function authorizeMethod(actor: Actor | null, method: string): void {
  if (actor?.via === "api_key" && method !== "GET" && method !== "HEAD") {
    throw new DomainError("forbidden", "An API key can only read.");
  }
}

/** The actor's role in the account, or 403 when it does not allow `action`. */
export async function authorizeAccount(meta: MetaStore, actor: Actor, accountId: string, action: Action): Promise<Role> {
  const role = await roleFor(meta, actor, accountId);
  if (!role || !allows(role, action)) throw new DomainError("forbidden", "You do not have access to this account.");
  return role;
}

/** The property named by its public id, or 404 when it does not exist or the actor may not `action` it. */
export async function authorizeProperty(meta: MetaStore, actor: Actor, uniqueId: string, action: Action): Promise<PropertyRow> {
  const property = await meta.properties.findByUniqueId(uniqueId);
  const role = !property
    ? null
    : actor.propertyScope !== undefined
      ? property.unique_id === actor.propertyScope
        ? "viewer"
        : null
      : await roleFor(meta, actor, property.account_id);
  if (!property || !allows(role, action)) throw new DomainError("property_not_found", "Property not found.");
  return property;
}

/**
 * Member-on-member rules of the one policy: may the actor (role `actorRole` in the account, as
 * authorizeAccount granted it) change `target`'s role to `to`, or remove them (`to` null)? A
 * member never changes their own role this way (leaving and transferring ownership are their own
 * calls). 403 with a message that says which rule refused.
 */
export function authorizeMemberChange(
  actor: Actor,
  actorRole: Role,
  target: { userId: string; role: Role },
  to: Role | null,
): void {
  if (to !== null && target.userId === actor.userId) {
    throw new DomainError("forbidden", "You cannot change your own role. Transfer ownership or leave the account instead.");
  }
  if (!mayManageMember(actorRole, target.role, to)) {
    throw new DomainError(
      "forbidden",
      target.role === "owner" || to === "owner"
        ? "Only an owner can make owners or change an owner's role."
        : "You do not have access to manage members.",
    );
  }
}

/** Whether the actor (role `actorRole`) may invite as `role`; 403 otherwise. */
export function authorizeInvite(actorRole: Role, role: Role): void {
  if (!mayInvite(actorRole, role)) throw new DomainError("forbidden", "Only an owner can invite owners.");
}
