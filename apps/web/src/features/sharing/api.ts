// The shared-links calls (DESIGN.md §5): a property's links for Settings (list, create, revoke),
// and the public page's own two (what a link shows, its password). Answers are parsed with the
// shared schemas of @lookout/schema.
import {
  type CreatedSharedLink,
  CreatedSharedLinkSchema,
  type CreateSharedLinkBody,
  type SharedLink,
  SharedLinkListSchema,
  type ShareInfo,
  ShareInfoSchema,
} from "@lookout/schema";
import { request } from "../../lib/http";

const linksUrl = (propertyId: string) => `/api/v1/properties/${encodeURIComponent(propertyId)}/shared-links`;

export async function listSharedLinks(propertyId: string, signal?: AbortSignal): Promise<SharedLink[]> {
  return SharedLinkListSchema.parse(await request("GET", linksUrl(propertyId), { signal }));
}

export async function createSharedLink(propertyId: string, body: CreateSharedLinkBody): Promise<CreatedSharedLink> {
  return CreatedSharedLinkSchema.parse(await request("POST", linksUrl(propertyId), { json: body }));
}

export async function revokeSharedLink(propertyId: string, id: string): Promise<void> {
  await request("DELETE", `${linksUrl(propertyId)}/${encodeURIComponent(id)}`);
}

export async function getShareInfo(slug: string, signal?: AbortSignal): Promise<ShareInfo> {
  return ShareInfoSchema.parse(await request("GET", `/api/v1/share/${encodeURIComponent(slug)}`, { signal }));
}

/** Sends a link's password; a right one sets the link's cookie (HttpOnly, so only the server reads it). */
export async function unlockShare(slug: string, password: string): Promise<void> {
  await request("POST", `/api/v1/share/${encodeURIComponent(slug)}/auth`, { json: { password } });
}

/** The iframe snippet of a link without a password: the compact layout, full width. */
export function embedSnippet(url: string, title: string): string {
  const src = `${url}?embed=true`;
  const safeTitle = title.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<iframe src="${src}" title="${safeTitle}" loading="lazy" style="width: 100%; height: 1800px; border: 0;"></iframe>`;
}
