// The auth domain's services: sign-in, recovery, reset and logout live in auth-service.ts (built
// by the composition root as `deps.auth`); this file holds what the signed-in user reads about
// themselves.
import type { MeAnswer } from "@lookout/schema";
import type { MetaStore } from "@lookout/storage";

export function createSessionService({ meta }: { meta: MetaStore }) {
  return {
    /** The user behind a credential and the accounts they belong to, with their role in each. */
    async me(userId: string, accountScope?: string): Promise<MeAnswer> {
      const user = await meta.users.findById(userId);
      // An API key reads its one account and nothing else: the user's other accounts stay unnamed.
      const accounts = (await meta.accounts.listForUser(userId)).filter(
        (a) => accountScope === undefined || a.id === accountScope,
      );
      return { user: { id: userId, email: user?.email ?? "", name: user?.name ?? "" }, accounts };
    },
  };
}
