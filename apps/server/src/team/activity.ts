// The account's activity in plain words: one sentence per audit line, built from its action and
// detail (the values are whatever was stored: names and addresses are rendered as text only).
const ROLE_WORD: Record<string, string> = { owner: "owner", admin: "admin", editor: "editor", viewer: "viewer" };

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const role = (v: unknown): string => ROLE_WORD[str(v)] ?? str(v);

/** What the actor did, as the Team screen's activity list reads after the actor's name. */
export function describeActivity(action: string, detail: Record<string, unknown>): string {
  const d = detail ?? {};
  switch (action) {
    case "member.role_change":
      return `changed ${str(d.email)}'s role from ${role(d.from)} to ${role(d.to)}`;
    case "member.remove":
      return `removed ${str(d.email)} (${role(d.role)}) from the account`;
    case "member.leave":
      return "left the account";
    case "account.transfer_ownership":
      return `made ${str(d.email)} an owner and became an admin`;
    case "invitation.create":
      return `invited ${str(d.email)} as ${role(d.role)}`;
    case "invitation.resend":
      return `sent the invitation of ${str(d.email)} again`;
    case "invitation.revoke":
      return `withdrew the invitation of ${str(d.email)}`;
    case "invitation.accept":
      return `joined the account as ${role(d.role)}`;
    case "user.signup":
      return "signed up through an invitation";
    case "account.create":
      return `created the account ${str(d.name)}`;
    case "account.rename":
      return `renamed the account from ${str(d.from)} to ${str(d.to)}`;
    case "login":
      return "signed in";
    case "apikey.create":
    case "api_key.create":
      return "created an API key";
    case "api_key.revoke":
      return "revoked an API key";
    default:
      return describeGeneric(action, d);
  }
}

/** Any other line: the action's words ("property.delete" -> "property delete") and a name if any. */
function describeGeneric(action: string, d: Record<string, unknown>): string {
  const what = action.replace(/[._]/g, " ");
  const name = str(d.name) || str(d.display_name) || str(d.unique_id) || str(d.email);
  return name ? `${what}: ${name}` : what;
}
