// The share credential: what lets a shared page (/share/{slug}) read its one property's stats.
// A call names its link in the X-Share-Slug header; a link with a password also needs the cookie
// the password form set: `<expiry>.<HMAC>` over the slug and the link's password hash, under a
// secret kept in the metadata store's `settings` table. So revoking the link (its row goes) or
// changing its password voids every cookie at once, and a cookie of one link opens no other.
// authenticate.ts turns the link into an actor scoped to its property (policy.ts).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SHARE_HEADER, SHARE_SLUG_RE } from "@lookout/schema";
import type { MetaStore, ResolvedSharedLink } from "@lookout/storage";
import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError } from "../http/domain-errors.js";

export const SHARE_COOKIE_TTL_MS = 24 * 3_600_000;
const SECRET_KEY = "share_cookie_secret";
const HEADER = SHARE_HEADER.toLowerCase();

/** One cookie per link, so that several protected links open in one browser at once. */
export const shareCookieName = (slug: string): string => `lookout_share_${slug}`;

/** The same answer for unknown, expired and revoked links: which one it was is nobody's business. */
export const shareNotFound = () =>
  new DomainError("share_not_found", "This shared link does not exist, has expired or has been revoked.");

type SettingsTables = { settings: { key: string; value: string } };

const secrets = new WeakMap<MetaStore, Promise<Buffer>>();

/** The install's signing secret, made on first use (the first insert wins across servers). */
function signingSecret(meta: MetaStore): Promise<Buffer> {
  let secret = secrets.get(meta);
  if (!secret) {
    secret = (async () => {
      const db = meta.db.withTables<SettingsTables>();
      await db
        .insertInto("settings")
        .values({ key: SECRET_KEY, value: randomBytes(32).toString("base64url") })
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();
      const row = await db.selectFrom("settings").select("value").where("key", "=", SECRET_KEY).executeTakeFirstOrThrow();
      return Buffer.from(row.value, "base64url");
    })();
    secret.catch(() => secrets.delete(meta));
    secrets.set(meta, secret);
  }
  return secret;
}

function mac(secret: Buffer, link: ResolvedSharedLink, expires: number): string {
  return createHmac("sha256", secret)
    .update(`share\u0000${link.slug}\u0000${link.password_hash ?? ""}\u0000${expires}`)
    .digest("base64url");
}

/** Sets the signed cookie after a right password: HttpOnly, SameSite=Lax, 24 h. */
export async function setShareCookie(
  meta: MetaStore,
  reply: FastifyReply,
  link: ResolvedSharedLink,
  secure: boolean,
  now = Date.now(),
): Promise<void> {
  const expires = now + SHARE_COOKIE_TTL_MS;
  const value = `${expires}.${mac(await signingSecret(meta), link, expires)}`;
  reply.setCookie(shareCookieName(link.slug), value, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    expires: new Date(expires),
  });
}

/** Whether the request carries a live cookie of this link's current password. */
export async function hasShareCookie(meta: MetaStore, req: FastifyRequest, link: ResolvedSharedLink, now = Date.now()) {
  const value = req.cookies[shareCookieName(link.slug)];
  const m = value ? /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires <= now) return false;
  const want = Buffer.from(mac(await signingSecret(meta), link, expires));
  const got = Buffer.from(m[2] ?? "");
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Whether the link is past its expiry. */
export const isExpired = (link: { expires_at: Date | null }, now = Date.now()) =>
  link.expires_at !== null && link.expires_at.getTime() <= now;

/** The live link of `slug`, or null for an unknown, expired or revoked one (or no slug at all). */
export async function liveLink(meta: MetaStore, slug: string): Promise<ResolvedSharedLink | null> {
  if (!SHARE_SLUG_RE.test(slug)) return null;
  const link = await meta.sharedLinks.findBySlug(slug);
  return link && !isExpired(link) ? link : null;
}

/** The slug the request names in X-Share-Slug, or undefined when it names none. */
export function shareSlugOf(req: FastifyRequest): string | undefined {
  const v = req.headers[HEADER];
  return typeof v === "string" ? v : undefined;
}

/**
 * The link a request's share credential opens: 404 when the link is unknown, expired or revoked,
 * 403 when it has a password and the request has no live cookie for it. (Never 401, which the
 * web app reads as "your session is over".)
 */
export async function resolveShareLink(meta: MetaStore, req: FastifyRequest, slug: string): Promise<ResolvedSharedLink> {
  const link = await liveLink(meta, slug);
  if (!link) throw shareNotFound();
  if (link.password_hash !== null && !(await hasShareCookie(meta, req, link))) {
    throw new DomainError("share_password_required", "This shared link needs its password.");
  }
  return link;
}
