import { INVITATION_BATCH_MAX } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { parseEmailList } from "./email-list";

describe("parseEmailList", () => {
  it("takes addresses one a line or separated by commas, semicolons and spaces", () => {
    expect(parseEmailList("ann@example.com\nbob@example.com, cy@example.org; dee@example.net eve@example.io")).toEqual({
      ok: true,
      emails: ["ann@example.com", "bob@example.com", "cy@example.org", "dee@example.net", "eve@example.io"],
    });
  });

  it("reads the address out of 'Name <address>'", () => {
    expect(parseEmailList("Ann Lee <ann@example.com>, Bob <bob@example.com>")).toEqual({
      ok: true,
      emails: ["ann@example.com", "bob@example.com"],
    });
  });

  it("drops repeats whatever their case", () => {
    expect(parseEmailList("Ann@Example.com\nann@example.com")).toEqual({ ok: true, emails: ["Ann@Example.com"] });
  });

  it("names the first bad address", () => {
    expect(parseEmailList("ann@example.com, not-an-address")).toEqual({
      ok: false,
      message: "Not an e-mail address: not-an-address",
    });
  });

  it("asks for an address when there is none", () => {
    expect(parseEmailList(" \n , ")).toEqual({ ok: false, message: "Enter at least one e-mail address." });
  });

  it("refuses more than a batch", () => {
    const many = Array.from({ length: INVITATION_BATCH_MAX + 1 }, (_, i) => `u${i}@example.com`).join("\n");
    expect(parseEmailList(many)).toEqual({
      ok: false,
      message: `At most ${INVITATION_BATCH_MAX} addresses at once (${INVITATION_BATCH_MAX + 1} given).`,
    });
  });
});
