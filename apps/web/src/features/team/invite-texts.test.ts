import { describe, expect, it } from "vitest";
import { closedInvitation, sameEmail } from "./invite-texts";

describe("closedInvitation", () => {
  it("says plainly why the link cannot be used", () => {
    expect(closedInvitation("expired", "Olga", "Acme").text).toBe(
      "Invitations are valid for 72 hours. Ask Olga to send you a new one.",
    );
    expect(closedInvitation("used", "Olga", "Acme").title).toBe("This invitation has already been used");
    expect(closedInvitation("revoked", "Olga", "Acme").text).toBe(
      "It no longer gives access to Acme. Ask Olga if you still need it.",
    );
  });

  it("names the account's admins when the inviter has no name", () => {
    expect(closedInvitation("expired", " ", "Acme").text).toContain("Ask an admin of Acme");
  });
});

describe("sameEmail", () => {
  it("ignores case and surrounding spaces", () => {
    expect(sameEmail(" Ann@Example.com", "ann@example.com ")).toBe(true);
    expect(sameEmail("ann@example.com", "anne@example.com")).toBe(false);
  });
});
