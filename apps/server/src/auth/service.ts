// The auth domain's services: sign-in, recovery, reset and logout live in auth-service.ts (built
// by the composition root as `deps.auth`); this file holds what the signed-in user reads about
// themselves.
import type { MeAnswer } from "@lookout/schema";
import type { MetaStore } from "@lookout/storage";

export function createSessionService({ meta }: { meta: MetaStore }) {
  return {
    /** The user behind a credential and the accounts they belong to, with their role in each. */
    async me(userId: string): Promise<MeAnswer> {
      const user = await meta.users.findById(userId);
      const accounts = await meta.accounts.listForUser(userId);
      return { user: { id: userId, email: user?.email ?? "", name: user?.name ?? "" }, accounts };
    },
  };
}
