// The customer avatar's address (SPEC.md §2): Gravatar, keyed by the MD5 of the trimmed,
// lower-cased e-mail, default size 200, the "mystery person" image for unknown addresses.
import { md5 } from "js-md5";

export const AVATAR_SIZE = 200;

export function gravatarUrl(email: string, size = AVATAR_SIZE): string {
  return `https://www.gravatar.com/avatar/${md5(email.trim().toLowerCase())}?s=${size}&d=mp`;
}
