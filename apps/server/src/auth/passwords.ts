// Password hashing: argon2id with OWASP's minimum parameters (19 MiB, t=2, p=1). Length is
// capped by the schemas before hashing so argon2 work stays bounded.
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** A hash to verify against for unknown e-mails, so they cost the same time as wrong passwords. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}

/** A strong generated password: 24 url-safe characters, 144 bits. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
