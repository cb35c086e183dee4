// The MetaStore conformance suite: every backend (PGlite, PostgreSQL) runs exactly these tests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "./ids.js";
import type { MetaStore } from "./meta-store.js";

export function metaStoreConformance(name: string, open: () => Promise<MetaStore>) {
  describe(`MetaStore conformance: ${name}`, () => {
    let store: MetaStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it("creates users with case-insensitively unique e-mail", async () => {
      const u = await store.users.create({ email: " Alice@Example.COM ", passwordHash: "h" });
      expect(u.email).toBe("Alice@Example.COM");
      expect((await store.users.findByEmail("alice@example.com"))?.id).toBe(u.id);
      await expect(store.users.create({ email: "ALICE@example.com", passwordHash: "h" })).rejects.toThrow();
    });

    it("gives the creator an owned account and answers membership questions", async () => {
      const a = await store.users.create({ email: "a@conf.test", passwordHash: "h" });
      const b = await store.users.create({ email: "b@conf.test", passwordHash: "h" });
      const acc = await store.accounts.createWithOwner(a.id, "A's sites");
      expect(await store.accounts.roleOf(a.id, acc.id)).toBe("owner");
      expect(await store.accounts.roleOf(b.id, acc.id)).toBeNull();
      await store.accounts.addMember(acc.id, b.id, "viewer");
      expect(await store.accounts.listForUser(b.id)).toEqual([{ id: acc.id, name: "A's sites", role: "viewer" }]);
      await store.accounts.removeMember(acc.id, b.id);
      expect(await store.accounts.roleOf(b.id, acc.id)).toBeNull();
    });

    it("stores properties with random public ids and settings", async () => {
      const u = await store.users.create({ email: "p@conf.test", passwordHash: "h" });
      const acc = await store.accounts.createWithOwner(u.id, "P");
      const p1 = await store.properties.create({ accountId: acc.id, websiteUrl: "https://a.test", name: "A", timezone: "UTC" });
      const p2 = await store.properties.create({
        accountId: acc.id,
        websiteUrl: "",
        name: "B",
        timezone: "Asia/Tokyo",
        settings: { cookieless: true },
      });
      expect(p1.unique_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(p1.unique_id).not.toBe(p2.unique_id);
      expect(p2.settings.cookieless).toBe(true);
      expect(p2.settings.excluded_ips).toEqual([]);
      expect((await store.properties.listByAccount(acc.id)).map((p) => p.name)).toEqual(["A", "B"]);
      await store.properties.delete(p1.unique_id);
      expect(await store.properties.findByUniqueId(p1.unique_id)).toBeUndefined();
    });

    it("resolves tokens until they expire or are revoked, and stores only hashes", async () => {
      const u = await store.users.create({ email: "t@conf.test", passwordHash: "h" });
      const t0 = new Date("2026-01-01T00:00:00Z");
      const { token } = await store.tokens.issue(u.id, 60_000, "ua", t0);
      expect((await store.tokens.resolve(token, t0))?.userId).toBe(u.id);
      expect(await store.tokens.resolve(token, new Date(t0.getTime() + 60_000))).toBeNull();
      const raw = await store.db.selectFrom("auth_tokens").select("token_hash").where("user_id", "=", u.id).execute();
      expect(raw[0]?.token_hash).toBe(hashSecret(token));
      const live = await store.tokens.issue(u.id, 3_600_000);
      await store.tokens.revoke(live.token);
      expect(await store.tokens.resolve(live.token)).toBeNull();
      const a = await store.tokens.issue(u.id, 3_600_000);
      const b = await store.tokens.issue(u.id, 3_600_000);
      await store.tokens.revokeAllForUser(u.id);
      expect(await store.tokens.resolve(a.token)).toBeNull();
      expect(await store.tokens.resolve(b.token)).toBeNull();
    });

    it("resolves API keys until revoked, stored only as hashes", async () => {
      const u = await store.users.create({ email: "k@conf.test", passwordHash: "h" });
      const account = await store.accounts.createWithOwner(u.id, "Keys");
      const { id, key } = await store.apiKeys.create({ userId: u.id, accountId: account.id, name: "ci" });
      expect(key).toMatch(/^lk_[\w-]{40,}$/);
      expect(await store.apiKeys.resolve(key)).toEqual({ id, userId: u.id, accountId: account.id });
      const raw = await store.db.selectFrom("api_keys").select(["key_hash", "prefix"]).where("id", "=", id).executeTakeFirst();
      expect(raw?.key_hash).toBe(hashSecret(key));
      expect(key.startsWith(raw?.prefix ?? "x")).toBe(true);
      expect((await store.apiKeys.listForUser(u.id)).map((k) => k.name)).toEqual(["ci"]);
      expect(await store.apiKeys.revoke(id)).toBe(true);
      expect(await store.apiKeys.resolve(key)).toBeNull();
      expect(await store.apiKeys.resolve(`${key}x`)).toBeNull();
    });

    it("consumes a reset token once, and not after it expires", async () => {
      const u = await store.users.create({ email: "r@conf.test", passwordHash: "h" });
      const now = new Date();
      const token = await store.resets.create(u.id, now);
      expect(await store.resets.isUsable(token, now)).toBe(true);
      const [first, second] = await Promise.all([store.resets.consume(token, now), store.resets.consume(token, now)]);
      expect([first, second].filter((x) => x === u.id)).toHaveLength(1);
      const late = await store.resets.create(u.id, now);
      expect(await store.resets.consume(late, new Date(now.getTime() + 60 * 60 * 1000 + 1))).toBeNull();
    });

    it("serialises concurrent transactions", async () => {
      const users = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.users.create({ email: `c${i}@conf.test`, passwordHash: "h" })),
      );
      const accounts = await Promise.all(users.map((u) => store.accounts.createWithOwner(u.id, "c")));
      expect(new Set(accounts.map((a) => a.id)).size).toBe(8);
    });

    it("agrees on one salt per day", async () => {
      const [a, b] = await Promise.all([store.salts.forDay("2026-03-01"), store.salts.forDay("2026-03-01")]);
      expect(a).toBe(b);
      expect(await store.salts.forDay("2026-03-02")).not.toBe(a);
    });

    it("keeps insights by random short id, scoped to live rows, with soft delete and views", async () => {
      const u = await store.users.create({ email: "i@conf.test", passwordHash: "h" });
      const acc = await store.accounts.createWithOwner(u.id, "I");
      const p = await store.properties.create({ accountId: acc.id, websiteUrl: "", name: "I", timezone: "UTC" });
      const input = { kind: "trends", name: "Signups", description: "", spec: { kind: "trends" }, favourite: false, tags: ["a"] };
      const a = await store.insights.create(p.id, u.id, input);
      const b = await store.insights.create(p.id, u.id, { ...input, name: "Other" });
      expect(a.short_id).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(a.short_id).not.toBe(b.short_id);
      expect(a.tags).toEqual(["a"]);
      expect(a.query).toEqual({ kind: "trends" });
      const changed = await store.insights.update(a.id, { favourite: true, name: "Signups!" });
      expect([changed?.favourite, changed?.name]).toEqual([true, "Signups!"]);
      expect((await store.insights.list(p.id, 10)).map((r) => r.name)).toEqual(["Signups!", "Other"]);
      expect(await store.insights.softDelete(a.id)).toBe(true);
      expect(await store.insights.softDelete(a.id)).toBe(false);
      expect(await store.insights.findByShortId(a.short_id)).toBeNull();
      expect(await store.insights.update(a.id, { name: "x" })).toBeNull();
      expect((await store.insights.list(p.id, 10)).map((r) => r.name)).toEqual(["Other"]);
      expect(await store.insights.restore(a.id)).toBe(true);
      expect((await store.insights.findByShortId(a.short_id))?.id).toBe(a.id);
      await store.insights.recordView(u.id, a.id);
      await store.insights.recordView(u.id, a.id);
      const views = await store.db.selectFrom("insight_views").selectAll().where("insight_id", "=", a.id).execute();
      expect(views).toHaveLength(1);
    });

    it("keeps an outbox and an audit log", async () => {
      await store.outbox.add({ to: "x@conf.test", subject: "Hi", text: "body" });
      expect((await store.outbox.list(1))[0]?.subject).toBe("Hi");
      await store.audit.record({ action: "login", detail: { ok: true } });
      expect((await store.audit.list({ limit: 1 }))[0]?.detail).toEqual({ ok: true });
    });
    it("keeps at least one owner, also when two owners demote each other at once", async () => {
      const a = await store.users.create({ email: "own-a@conf.test", name: "A", passwordHash: "h" });
      const b = await store.users.create({ email: "own-b@conf.test", name: "B", passwordHash: "h" });
      const acc = await store.accounts.createWithOwner(a.id, "Owners");
      expect(await store.members.changeRole(acc.id, a.id, "admin")).toBe("last_owner");
      expect(await store.members.remove(acc.id, a.id)).toBe("last_owner");
      expect(await store.members.join(acc.id, b.id, "owner")).toBe(true);
      expect(await store.members.join(acc.id, b.id, "viewer")).toBe(false);
      const both = await Promise.all([
        store.members.changeRole(acc.id, a.id, "admin"),
        store.members.changeRole(acc.id, b.id, "admin"),
      ]);
      expect(both.sort()).toEqual(["last_owner", "ok"]);
      const members = await store.members.list(acc.id);
      expect(members.filter((m) => m.role === "owner")).toHaveLength(1);
      expect(members.map((m) => m.email).sort()).toEqual(["own-a@conf.test", "own-b@conf.test"]);
      expect(await store.members.changeRole(acc.id, "00000000-0000-4000-8000-000000000000", "viewer")).toBe("not_member");
      const owner = members.find((m) => m.role === "owner")!.user_id;
      const other = owner === a.id ? b.id : a.id;
      expect(await store.members.transferOwnership(acc.id, owner, other)).toBe("ok");
      expect(await store.accounts.roleOf(other, acc.id)).toBe("owner");
      expect(await store.accounts.roleOf(owner, acc.id)).toBe("admin");
      await store.members.setLastAccount(owner, acc.id);
      expect(await store.members.remove(acc.id, owner)).toBe("ok");
      // The account the next sign-in would open is gone for them.
      expect((await store.users.findById(owner))?.last_account_id).toBeNull();
    });

    it("stores invitation tokens hashed, single use, until revoked or expired", async () => {
      const u = await store.users.create({ email: "inv@conf.test", passwordHash: "h" });
      const acc = await store.accounts.createWithOwner(u.id, "Inv");
      const t0 = new Date("2026-01-01T00:00:00Z");
      const first = await store.invitations.create(
        { accountId: acc.id, email: "New@Conf.test", role: "editor", invitedBy: u.id, ttlMs: 60_000 },
        t0,
      );
      expect(first.row.token_hash).toBe(hashSecret(first.token));
      expect(first.row.email).toBe("New@Conf.test");
      expect(first.row.email_norm).toBe("new@conf.test");
      // A second invitation of the same address replaces the first.
      const second = await store.invitations.create(
        { accountId: acc.id, email: "new@conf.test", role: "viewer", invitedBy: u.id, ttlMs: 60_000 },
        t0,
      );
      expect((await store.invitations.findByToken(first.token))?.invitation.revoked_at).not.toBeNull();
      expect((await store.invitations.listPending(acc.id)).map((i) => i.id)).toEqual([second.row.id]);
      const found = await store.invitations.findByToken(second.token);
      expect(found?.accountName).toBe("Inv");
      expect(await store.invitations.findByToken("unknown-token-unknown-token")).toBeUndefined();
      expect(await store.invitations.consume(second.row.id, u.id, new Date(t0.getTime() + 60_000))).toBe(false);
      expect(await store.invitations.consume(second.row.id, u.id, t0)).toBe(true);
      expect(await store.invitations.consume(second.row.id, u.id, t0)).toBe(false);
      const third = await store.invitations.create(
        { accountId: acc.id, email: "x@conf.test", role: "viewer", invitedBy: u.id, ttlMs: 60_000 },
        t0,
      );
      const renewed = await store.invitations.renew(acc.id, third.row.id, 60_000, t0);
      expect(renewed?.token).not.toBe(third.token);
      expect(await store.invitations.findByToken(third.token)).toBeUndefined();
      expect(await store.invitations.revoke(acc.id, third.row.id)).toBe(true);
      expect(await store.invitations.revoke(acc.id, third.row.id)).toBe(false);
      expect(await store.invitations.renew(acc.id, third.row.id, 60_000)).toBeUndefined();
    });
  });
}
