// What /invite/{token} says for a link that cannot be used, in plain words (issue #20: expired,
// used and revoked links say so), and the one rule for "is this the invited address".
import { INVITATION_TTL_HOURS, type InvitationState } from "@lookout/schema";

export const INVITE_NOT_FOUND = {
  title: "This invitation link does not work",
  text: "The link is not valid. Check that you opened the whole link from the e-mail, or ask for a new invitation.",
};

export function closedInvitation(state: Exclude<InvitationState, "valid">, inviter: string, account: string) {
  const who = inviter.trim() || `an admin of ${account}`;
  switch (state) {
    case "expired":
      return {
        title: "This invitation has expired",
        text: `Invitations are valid for ${INVITATION_TTL_HOURS} hours. Ask ${who} to send you a new one.`,
      };
    case "used":
      return {
        title: "This invitation has already been used",
        text: `It can be used once. If you accepted it, log in to open ${account}.`,
      };
    case "revoked":
      return {
        title: "This invitation was revoked",
        text: `It no longer gives access to ${account}. Ask ${who} if you still need it.`,
      };
  }
}

/** Addresses compare as the server compares them: trimmed, case-insensitive. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
