// Every id and secret comes from node:crypto. Secrets are stored only as SHA-256 hashes: they are
// 256-bit random, so a fast hash is enough (no dictionary to attack), unlike passwords.
import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/**
 * A property's public id for the tracker snippet: 16 url-safe chars, 96 random bits. Never
 * starting with "-" or "_": an id starting with "-" reads as an option on a command line
 * (`generate --property -x...` failed, one property in 32).
 */
export function newUniqueId(): string {
  for (;;) {
    const id = randomBytes(12).toString("base64url");
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

/** An opaque bearer secret: 256 bits, url-safe. */
export const newSecret = (): string => randomBytes(32).toString("base64url");

export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

let lastStamp = 0;
/**
 * A change time for "last changed first" lists: the wall clock, but strictly increasing within
 * this process, so two changes in one millisecond still sort in the order they were made (a create
 * and an update in the same millisecond tied, and the list then fell back to the random id).
 */
export function changeStamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}
