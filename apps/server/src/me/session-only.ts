// The signed-in user's own settings (profile, password, sessions) need a session of theirs: an API
// key reads its one account and nothing else (DESIGN.md §7), so it never reaches these calls.
import type { Actor } from "../http/authenticate.js";
import { DomainError } from "../http/domain-errors.js";

export function requireSession(actor: Actor): void {
  if (actor.via === "api_key") throw new DomainError("forbidden", "An API key cannot change a user's settings.");
}
