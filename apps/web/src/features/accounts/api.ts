// The account's own settings (DESIGN.md §5): rename, and delete with its name typed to confirm.
import { type AccountInfo, AccountInfoSchema } from "@lookout/schema";
import { request } from "../../lib/http";

const one = (accountId: string) => `/api/v1/accounts/${encodeURIComponent(accountId)}`;

export async function renameAccount(accountId: string, name: string): Promise<AccountInfo> {
  return AccountInfoSchema.parse(await request("PATCH", one(accountId), { json: { name } }));
}

export async function deleteAccount(accountId: string, confirm: string): Promise<void> {
  await request("DELETE", one(accountId), { json: { confirm } });
}
