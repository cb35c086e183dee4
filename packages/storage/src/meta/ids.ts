// Every id and secret comes from node:crypto. Secrets are stored only as SHA-256 hashes: they are
// 256-bit random, so a fast hash is enough (no dictionary to attack), unlike passwords.
import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** Public property id used by the tracker snippet: 16 url-safe chars, 96 bits. */
export const newUniqueId = (): string => randomBytes(12).toString("base64url");

/** An opaque bearer secret: 256 bits, url-safe. */
export const newSecret = (): string => randomBytes(32).toString("base64url");

export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
