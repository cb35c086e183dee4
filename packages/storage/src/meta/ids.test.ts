import { describe, expect, it } from "vitest";
import { newUniqueId } from "./ids.js";

describe("newUniqueId", () => {
  it("is 16 url-safe characters that never start like a command-line option", () => {
    const ids = Array.from({ length: 5000 }, newUniqueId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][\w-]{15}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
