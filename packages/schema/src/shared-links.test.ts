// The shared-link schemas: the API body's rules (name, password length, a future expiry) and the
// web form's, whose empty fields mean "none" and whose last day ends at local midnight.
import { describe, expect, it } from "vitest";
import { CreateSharedLinkBodySchema, SharedLinkFormSchema, ShareSlugSchema, sharedLinkBody } from "./shared-links.js";

describe("shared link schemas", () => {
  it("takes a name with an optional password and a future expiry", () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(CreateSharedLinkBodySchema.parse({ name: "  Public  " })).toEqual({ name: "Public" });
    expect(CreateSharedLinkBodySchema.parse({ name: "Team", password: "sesame", expires_at: future })).toEqual({
      name: "Team",
      password: "sesame",
      expires_at: future,
    });
    for (const bad of [
      {},
      { name: "" },
      { name: "x".repeat(101) },
      { name: "a\u0000b" },
      { name: "T", password: "12345" },
      { name: "T", expires_at: "2001-01-01T00:00:00Z" },
      { name: "T", expires_at: "next week" },
    ]) {
      expect(CreateSharedLinkBodySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("reads slugs of url-safe characters only", () => {
    expect(ShareSlugSchema.safeParse("AbCdEfGhIjKlMnOpQrSt_-").success).toBe(true);
    for (const bad of ["short", "has space in it 1234567", "../../etc/passwd/aaaaaa", "é".repeat(22)]) {
      expect(ShareSlugSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("turns the form's fields into the API body: empty means none, a day ends at local midnight", () => {
    expect(sharedLinkBody({ name: " Public ", password: "", expires: "" })).toEqual({ name: "Public" });
    const body = sharedLinkBody({ name: "Team", password: "sesame-1", expires: "2099-03-04" });
    expect(body.password).toBe("sesame-1");
    const end = new Date(body.expires_at ?? "");
    expect([end.getFullYear(), end.getMonth() + 1, end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2099, 3, 4, 23, 59,
    ]);
    expect(SharedLinkFormSchema.safeParse({ name: "T", password: "123", expires: "" }).success).toBe(false);
    expect(SharedLinkFormSchema.safeParse({ name: "T", password: "", expires: "2000-01-01" }).success).toBe(false);
    expect(SharedLinkFormSchema.safeParse({ name: "T", password: "", expires: "2099-01-01" }).success).toBe(true);
  });
});
