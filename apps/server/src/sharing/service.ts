// The shared-links domain: a property's links (list, create, revoke, each audited) and the public
// page's two questions (what does this link show; is this its password). No HTTP here beyond the
// cookie the password sets (credential.ts): the caller (routes.ts) has authorized the actor.
import type { CreatedSharedLink, CreateSharedLinkBody, SharedLink, ShareInfo } from "@lookout/schema";
import type { MetaStore, PropertyRow, ResolvedSharedLink, SharedLinkRow, SharedState } from "@lookout/storage";
import type { FastifyReply, FastifyRequest } from "fastify";
import { hashPassword, verifyPassword } from "../auth/passwords.js";
import { Throttle, throttleAddress } from "../auth/throttle.js";
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";
import { hasShareCookie, isExpired, liveLink, setShareCookie, shareNotFound } from "./credential.js";

const PASSWORD_WINDOW_MS = 15 * 60_000;
export const WRONG_SHARE_PASSWORD = "Incorrect password. Please try again.";

/** The public page's address: `origin` is the configured public URL, else the caller's own. */
export const shareUrl = (origin: string, slug: string) => `${origin.replace(/\/+$/, "")}/share/${slug}`;

function toSharedLink(row: SharedLinkRow, origin: string): SharedLink {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    url: shareUrl(origin, row.slug),
    has_password: row.password_hash !== null,
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    expired: isExpired(row),
    created_at: row.created_at.toISOString(),
  };
}

export function createSharingService({ meta, shared }: { meta: MetaStore; shared: SharedState }) {
  // Password guesses are stopped like sign-ins: per (link, address) and per address.
  const byPair = new Throttle(shared, "share:pair", { limit: 10, windowMs: PASSWORD_WINDOW_MS });
  const byAddress = new Throttle(shared, "share:ip", { limit: 100, windowMs: PASSWORD_WINDOW_MS });

  return {
    async list(property: PropertyRow, origin: string): Promise<SharedLink[]> {
      return (await meta.sharedLinks.listByProperty(property.id)).map((r) => toSharedLink(r, origin));
    },

    async create(actor: Actor, property: PropertyRow, body: CreateSharedLinkBody, origin: string): Promise<CreatedSharedLink> {
      const row = await meta.sharedLinks.create({
        propertyId: property.id,
        name: body.name,
        passwordHash: body.password === undefined ? null : await hashPassword(body.password),
        expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at),
        createdBy: actor.userId,
      });
      if (!row) {
        throw new DomainError("shared_link_name_taken", "This property has a shared link of that name already.", {
          field: "name",
        });
      }
      await meta.audit.record({
        action: "shared_link.create",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, link_id: row.id, name: row.name, password: row.password_hash !== null },
      });
      return { id: row.id, slug: row.slug, url: shareUrl(origin, row.slug) };
    },

    /** Revokes (deletes) the link: its page and its stats calls stop at once. */
    async remove(actor: Actor, property: PropertyRow, id: string): Promise<void> {
      const row = await meta.sharedLinks.delete(property.id, id);
      if (!row) throw new DomainError("not_found", "Shared link not found.");
      await meta.audit.record({
        action: "shared_link.delete",
        userId: actor.userId,
        accountId: property.account_id,
        detail: { unique_id: property.unique_id, link_id: row.id, name: row.name },
      });
    },

    /** What the public page shows: the property's details once the link may be seen. */
    async info(slug: string, req: FastifyRequest): Promise<ShareInfo> {
      const link = await liveLink(meta, slug);
      if (!link) throw shareNotFound();
      const hasPassword = link.password_hash !== null;
      const open = !hasPassword || (await hasShareCookie(meta, req, link));
      return {
        name: link.name,
        property_name: link.property_name,
        has_password: hasPassword,
        needs_password: !open,
        property: open
          ? {
              unique_id: link.property_unique_id,
              name: link.property_name,
              website_url: link.property_website_url,
              timezone: link.property_timezone,
            }
          : null,
      };
    },

    /** Checks a link's password (throttled); a right one sets the link's cookie for 24 h. */
    async authenticate(input: { slug: string; password: string; ip: string; reply: FastifyReply; secure: boolean }) {
      const address = throttleAddress(input.ip);
      const pair = `${input.slug}\u0000${address}`;
      // Every attempt counts before the check, so parallel guesses cannot outrun the limits.
      for (const [t, key] of [
        [byAddress, address],
        [byPair, pair],
      ] as const) {
        const wait = await t.hit(key);
        if (wait > 0) throw new DomainError("rate_limited", "Too many attempts. Please try again later.", undefined, wait);
      }
      const link: ResolvedSharedLink | null = await liveLink(meta, input.slug);
      if (!link) throw shareNotFound();
      if (link.password_hash === null) {
        // Nothing to unlock: the attempt does not count.
        await byPair.undo(pair);
        await byAddress.undo(address);
        return;
      }
      if (!(await verifyPassword(link.password_hash, input.password))) {
        await meta.audit.record({
          action: "shared_link.password_failed",
          accountId: link.account_id,
          detail: { link_id: link.id, ip: input.ip },
        });
        throw new DomainError("invalid_share_password", WRONG_SHARE_PASSWORD);
      }
      await byPair.reset(pair);
      await byAddress.undo(address);
      await setShareCookie(meta, input.reply, link, input.secure);
    },
  };
}
