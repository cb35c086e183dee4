// The accounts of the signed-in user (DESIGN.md §5 "accounts"): create one, tell the server which
// one is in use (login answers with it next time), and the account's own settings: rename, and
// delete with its name typed to confirm.
import {
  type AccountCreateBody,
  type AccountInfo,
  AccountInfoSchema,
  type AccountListItem,
  AccountListItemSchema,
} from "@lookout/schema";
import { request } from "../../lib/http";

const one = (accountId: string) => `/api/v1/accounts/${encodeURIComponent(accountId)}`;

export async function renameAccount(accountId: string, name: string): Promise<AccountInfo> {
  return AccountInfoSchema.parse(await request("PATCH", one(accountId), { json: { name } }));
}

export async function deleteAccount(accountId: string, confirm: string): Promise<void> {
  await request("DELETE", one(accountId), { json: { confirm } });
}

/** A new account, the caller its owner. */
export async function createAccount(body: AccountCreateBody): Promise<AccountListItem> {
  return AccountListItemSchema.parse(await request("POST", "/api/v1/accounts", { json: body }));
}

/** Records the account as the user's current one; refused when they are not a member (any more). */
export async function switchAccount(accountId: string): Promise<void> {
  await request("POST", `${one(accountId)}/switch`);
}
