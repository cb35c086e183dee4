// Domain errors: what a service or the policy throws when a call cannot be done, named by a code,
// with no knowledge of HTTP. The one registry below maps each code to its status; the error
// handler (errors.ts) answers `{message, code, details?}` with it. A new code is one line here.
export const DOMAIN_ERROR_STATUS = {
  /** A Stats API parameter (or a spec built from it) is invalid; `details.param` names it. */
  invalid_parameter: 400,
  /** The query compiler refused a spec that parsed (packages/query QueryError); `details.param`. */
  interval_too_fine: 400,
  invalid_regex: 400,
  /** A reset link's token that is invalid, expired or used. */
  invalid_token: 400,
  /** Wrong e-mail or password (the same for both). */
  invalid_credentials: 401,
  /** The actor may not act on the account (unknown and foreign ids alike). */
  forbidden: 403,
  /** No such property, or not one the actor may act on (unknown and foreign ids alike). */
  property_not_found: 404,
  not_found: 404,
  /** The current password given to change the e-mail or the password is wrong; `details` names the field. */
  wrong_password: 400,
  /** A typed confirmation (the account's name) that does not match. */
  confirmation_mismatch: 400,
  /** The e-mail belongs to another user already. */
  email_taken: 409,
  /** A goal the property has already (the same kind and match, or the same display name). */
  goal_exists: 409,
  /** The property has as many goals as it may (GOAL_LIMITS.maxGoals). */
  goal_limit: 409,
  /** A shared link's name the property uses already. */
  shared_link_name_taken: 409,
  /** A shared link that is unknown, expired or revoked (the same answer for each). */
  share_not_found: 404,
  /** A shared link with a password, called without the cookie its password form sets. */
  share_password_required: 403,
  /** A wrong password on a shared link's password form. */
  invalid_share_password: 401,
  /** An invitation link whose token matches no invitation. */
  invitation_not_found: 404,
  /** An invitation link past its 72 hours. */
  invitation_expired: 410,
  /** An invitation link accepted already (single use). */
  invitation_used: 410,
  /** An invitation link the account revoked (or replaced by a newer one). */
  invitation_revoked: 410,
  /** Signed in as another e-mail than the invitation's. */
  invitation_email_mismatch: 403,
  /** Accepting needs a session of the invited address, or a name and password. */
  invitation_sign_in_required: 401,
  /** The change would leave the account without an owner. */
  last_owner: 409,
  /** An e-mailed link needs an address: LOOKOUT_PUBLIC_URL unset and no owner signed in yet. */
  public_url_missing: 409,
  /** The mail server refused or could not be reached: nothing was sent (an invitation is withdrawn). */
  mail_failed: 502,
  rate_limited: 429,
  /** The shared state (Redis, with several servers) a throttle needs is unreachable. */
  service_unavailable: 503,
  /** Billing (issue #24): the account is locked (two periods over the plan, grace over): reads answer this. */
  account_locked: 402,
  /** The plan's property or member limit is reached: the create is refused. */
  property_limit: 402,
  member_limit: 402,
  /** A billing call while LOOKOUT_BILLING=off (self-hosted). */
  billing_off: 409,
  /** No such plan to buy (unknown, hidden, or no price for that interval). */
  unknown_plan: 400,
  /** The portal of an account that never subscribed. */
  no_customer: 409,
  /** A webhook whose signature does not verify. */
  invalid_signature: 400,
  /** The payment provider could not be reached or refused the call. */
  payment_provider_failed: 502,
  /** The event store cancelled a query at its time limit. */
  query_timeout: 503,
} as const satisfies Record<string, number>;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: unknown,
    /** For `rate_limited`: when to try again (answered as Retry-After, in whole seconds). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** The HTTP status of a domain error: its code's entry in the registry, 400 for a code it lacks. */
export function statusOf(err: DomainError): number {
  return (DOMAIN_ERROR_STATUS as Record<string, number>)[err.code] ?? 400;
}

/** A domain error's HTTP headers (Retry-After for rate limits). */
export function headersOf(err: DomainError): Record<string, string> | undefined {
  return err.retryAfterMs === undefined ? undefined : { "retry-after": String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))) };
}
