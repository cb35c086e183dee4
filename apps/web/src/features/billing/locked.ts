// Whether a failed call is the server saying the account is locked (402 account_locked: issue #24
// point 3). Small on purpose: the dashboard asks it on every failure, the panel loads only then.
import { ACCOUNT_LOCKED_CODE } from "@lookout/schema";
import { HttpError } from "../../lib/http";

export function isAccountLocked(err: unknown): boolean {
  return err instanceof HttpError && err.status === 402 && err.code === ACCOUNT_LOCKED_CODE;
}
