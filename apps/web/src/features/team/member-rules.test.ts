import { describe, expect, it } from "vitest";
import { canLeave, canManage, grantableRoles, ownerCount, withArticle } from "./member-rules";

describe("grantableRoles", () => {
  it("lets owners give every role and admins every role below owner", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "editor", "viewer"]);
    expect(grantableRoles("admin")).toEqual(["admin", "editor", "viewer"]);
  });

  it("lets editors, viewers and non-members give none", () => {
    expect(grantableRoles("editor")).toEqual([]);
    expect(grantableRoles("viewer")).toEqual([]);
    expect(grantableRoles(null)).toEqual([]);
    expect(grantableRoles(undefined)).toEqual([]);
  });
});

describe("canManage", () => {
  it("keeps owners out of an admin's reach", () => {
    expect(canManage("admin", "owner", false)).toBe(false);
    expect(canManage("admin", "admin", false)).toBe(true);
    expect(canManage("admin", "viewer", false)).toBe(true);
  });

  it("lets owners manage owners", () => {
    expect(canManage("owner", "owner", false)).toBe(true);
  });

  it("refuses editors and viewers, and everyone on themselves", () => {
    expect(canManage("editor", "viewer", false)).toBe(false);
    expect(canManage("viewer", "viewer", false)).toBe(false);
    expect(canManage("owner", "owner", true)).toBe(false);
    expect(canManage("admin", "admin", true)).toBe(false);
  });
});

describe("canLeave", () => {
  it("keeps the last owner in", () => {
    expect(canLeave("owner", 1)).toBe(false);
    expect(canLeave("owner", 2)).toBe(true);
  });

  it("lets every other member leave", () => {
    expect(canLeave("viewer", 1)).toBe(true);
    expect(canLeave("admin", 1)).toBe(true);
    expect(canLeave(null, 1)).toBe(false);
  });
});

describe("ownerCount", () => {
  it("counts the owners", () => {
    expect(ownerCount([{ role: "owner" }, { role: "admin" }, { role: "owner" }])).toBe(2);
    expect(ownerCount([])).toBe(0);
  });
});

describe("withArticle", () => {
  it("puts the right article before each role", () => {
    expect(["owner", "admin", "editor", "viewer"].map((r) => withArticle(r as never))).toEqual([
      "an owner",
      "an admin",
      "an editor",
      "a viewer",
    ]);
  });
});
