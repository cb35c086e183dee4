// Creating users with their own account, and the first owner on an empty store. There is never a
// default password: one is taken from the environment or generated and printed once.
import { PASSWORD_MAX, PASSWORD_MIN } from "@lookout/schema";
import type { MetaStore, PropertyRow, UserRow } from "@lookout/storage";
import { generatePassword, hashPassword } from "../auth/passwords.js";

export class ProvisionError extends Error {}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN) throw new ProvisionError(`the password must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) throw new ProvisionError(`the password must be at most ${PASSWORD_MAX} characters`);
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

export async function createUserWithAccount(
  meta: MetaStore,
  input: { email: string; password?: string; name?: string },
): Promise<{ user: UserRow; accountId: string; password: string; generated: boolean }> {
  const email = input.email.trim();
  if (!EMAIL.test(email)) throw new ProvisionError(`not an e-mail address: ${email}`);
  if (await meta.users.findByEmail(email)) throw new ProvisionError(`a user with the e-mail ${email} already exists`);
  const generated = input.password === undefined;
  const password = input.password ?? generatePassword();
  checkPassword(password);
  const user = await meta.users.create({ email, name: input.name ?? "", passwordHash: await hashPassword(password) });
  const account = await meta.accounts.createWithOwner(user.id, `${email}'s sites`);
  return { user, accountId: account.id, password, generated };
}

/**
 * A property in the account as `property:create` makes it: the site's address without a trailing
 * slash, named after its host unless a name is given, in UTC unless a timezone is given (the
 * caller has checked the address and the timezone).
 */
export async function addProperty(
  meta: MetaStore,
  accountId: string,
  input: { url: string; name?: string | undefined; timezone?: string | undefined },
): Promise<PropertyRow> {
  return meta.properties.create({
    accountId,
    websiteUrl: input.url.replace(/\/$/, ""),
    name: input.name || new URL(input.url).hostname,
    timezone: input.timezone ?? "UTC",
  });
}

/**
 * On an empty store, creates the owner; returns what to print and the owner's account, or null
 * when users exist.
 */
export async function ensureOwner(
  meta: MetaStore,
  env: { adminEmail?: string; adminPassword?: string },
): Promise<{ message: string; accountId: string } | null> {
  if ((await meta.users.count()) > 0) return null;
  const email = env.adminEmail ?? "admin@lookout.local";
  const created = await createUserWithAccount(meta, { email, ...(env.adminPassword ? { password: env.adminPassword } : {}) });
  const accountId = created.accountId;
  if (!created.generated) {
    return { accountId, message: `Created the owner account ${email} with the password from LOOKOUT_ADMIN_PASSWORD.` };
  }
  const message = [
    "",
    "  Lookout created your owner account. This password is shown only once:",
    `    e-mail:   ${email}`,
    `    password: ${created.password}`,
    `  Change it with: npm run lookout -- user:reset-password --email ${email}`,
    "",
  ].join("\n");
  return { accountId, message };
}
