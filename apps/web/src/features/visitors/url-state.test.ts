import { describe, expect, it } from "vitest";
import { DEFAULT_LIST, readHistoryParams, readListParams, writeHistoryParams, writeListParams } from "./url-state";

const q = (s: string) => new URLSearchParams(s);

describe("visitors list URL state", () => {
  it("reads the defaults from an empty query", () => {
    expect(readListParams(q(""))).toEqual(DEFAULT_LIST);
  });

  it("reads a search, an order and a filter, and ignores unknown values", () => {
    expect(readListParams(q("q=ada&order=visits&identified=anonymous"))).toEqual({
      search: "ada",
      order: "visits",
      identified: "anonymous",
    });
    expect(readListParams(q("order=pageviews&identified=maybe"))).toEqual(DEFAULT_LIST);
  });

  it("writes only what differs from the defaults and keeps other parameters", () => {
    const out = writeListParams(q("tab=visitors&order=events"), { search: "a b", order: "last_seen", identified: "identified" });
    expect(out.toString()).toBe("tab=visitors&q=a+b&identified=identified");
  });
});

describe("visitor history URL state", () => {
  it("reads an event and a range, drops bad dates and swaps a reversed range", () => {
    expect(readHistoryParams(q("event=%20Signup%20&from=2026-01-31&to=2026-01-01"))).toEqual({
      event: "Signup",
      from: "2026-01-01",
      to: "2026-01-31",
    });
    expect(readHistoryParams(q("from=2026-13-45&to=yesterday"))).toEqual({ event: "", from: "", to: "" });
  });

  it("round-trips and removes emptied fields", () => {
    const written = writeHistoryParams(q("event=Old&from=2026-01-01"), { event: "Buy", from: "", to: "2026-02-01" });
    expect(written.toString()).toBe("event=Buy&to=2026-02-01");
    expect(readHistoryParams(written)).toEqual({ event: "Buy", from: "", to: "2026-02-01" });
  });
});
