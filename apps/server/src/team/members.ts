// Team members (issue #20): the account's member list, role changes, removal, leaving and the
// transfer of ownership. The one policy (http/policy.ts) decides member-on-member rules; the repos
// keep the "at least one owner" rule atomic. Every change is audited. Composed by service.ts.
import type { Member, Role } from "@lookout/schema";
import type { MemberChange, MemberRow, MetaStore } from "@lookout/storage";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { authorizeMemberChange } from "../http/policy.js";

const iso = (d: Date) => d.toISOString();

function toMember(m: MemberRow): Member {
  return {
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role,
    joined_at: iso(m.joined_at),
    last_active_at: m.last_active_at ? iso(m.last_active_at) : null,
  };
}

function changeRefused(result: MemberChange): never {
  if (result === "last_owner") {
    throw new DomainError(
      "last_owner",
      "An account must keep at least one owner. Make another member an owner first, or transfer ownership.",
    );
  }
  throw new DomainError("not_found", "No such member in this account.");
}

export function createMemberService(meta: MetaStore) {
  async function leave(actor: Actor, accountId: string): Promise<void> {
    const result = await meta.members.remove(accountId, actor.userId);
    if (result !== "ok") changeRefused(result);
    await meta.audit.record({ action: "member.leave", userId: actor.userId, accountId });
  }

  async function listMembers(accountId: string): Promise<Member[]> {
    return (await meta.members.list(accountId)).map(toMember);
  }

  async function memberOf(accountId: string, userId: string): Promise<MemberRow> {
    const m = await meta.members.find(accountId, userId);
    if (!m) throw new DomainError("not_found", "No such member in this account.");
    return m;
  }

  return {
    listMembers,
    leave,

    async changeRole(actor: Actor, actorRole: Role, accountId: string, userId: string, role: Role): Promise<Member> {
      const target = await memberOf(accountId, userId);
      authorizeMemberChange(actor, actorRole, { userId, role: target.role }, role);
      if (target.role !== role) {
        const result = await meta.members.changeRole(accountId, userId, role);
        if (result !== "ok") changeRefused(result);
        await meta.audit.record({
          action: "member.role_change",
          userId: actor.userId,
          accountId,
          detail: { member_id: userId, email: target.email, from: target.role, to: role },
        });
      }
      return toMember({ ...target, role });
    },

    async removeMember(actor: Actor, actorRole: Role, accountId: string, userId: string): Promise<void> {
      if (userId === actor.userId) return leave(actor, accountId);
      const target = await memberOf(accountId, userId);
      authorizeMemberChange(actor, actorRole, { userId, role: target.role }, null);
      const result = await meta.members.remove(accountId, userId);
      if (result !== "ok") changeRefused(result);
      // Their sockets for this account close at the next membership recheck (live/socket.ts, ≤ 2.5 s).
      await meta.audit.record({
        action: "member.remove",
        userId: actor.userId,
        accountId,
        detail: { member_id: userId, email: target.email, role: target.role },
      });
    },

    async transferOwnership(actor: Actor, accountId: string, toUserId: string): Promise<Member[]> {
      if (toUserId === actor.userId) {
        throw new DomainError("forbidden", "You are an owner already. Choose another member to transfer ownership to.");
      }
      const target = await memberOf(accountId, toUserId);
      const result = await meta.members.transferOwnership(accountId, actor.userId, toUserId);
      if (result !== "ok") changeRefused(result);
      await meta.audit.record({
        action: "account.transfer_ownership",
        userId: actor.userId,
        accountId,
        detail: { member_id: toUserId, email: target.email, from: target.role },
      });
      return listMembers(accountId);
    },
  };
}
