import { describe, expect, it } from "vitest";
import { gravatarUrl } from "./gravatar";

describe("gravatarUrl", () => {
  it("hashes the trimmed, lower-cased address (Gravatar's documented example)", () => {
    expect(gravatarUrl("  MyEmailAddress@example.com ")).toBe(
      "https://www.gravatar.com/avatar/0bc83cb571cd1c50ba6f3e8a78ef1346?s=200&d=mp",
    );
  });

  it("takes another size", () => {
    expect(gravatarUrl("a@b.c", 80)).toMatch(/\?s=80&d=mp$/);
  });
});
