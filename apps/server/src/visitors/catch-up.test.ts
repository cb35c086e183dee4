// A visitor opened from the Live View may not be readable yet: presence knows them as soon as
// their events are accepted, the store a moment later. The page of a visitor online now waits for
// the store (sync()) and answers them; an id nobody sees online stays "not found" at once, and a
// store that does not catch up in time leaves the answer "not found" rather than hanging.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventRow, type LiveVisitor } from "@lookout/schema";
import { type EventStore, openDuckDbEventStore } from "@lookout/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { DomainError } from "../http/domain-errors.js";
import { CATCH_UP_MS, createVisitorService } from "./service.js";

const P = "catchup.example";
const SITE = { unique_id: P, timezone: "UTC", account_id: "acct" };
const NOW = Date.UTC(2024, 5, 1);

const row = (clientId: string, i: number) =>
  eventRow({
    property: P,
    ts: new Date(NOW - 60_000 + i * 1000),
    name: "pageview",
    path: `/p${i}`,
    url: `https://catchup.example/p${i}`,
    visitor_id: clientId,
    client_id: clientId,
    session_id: `${clientId}-s`,
  });

describe("a visitor online now but not yet readable", () => {
  let dir: string;
  let store: EventStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lookout-catchup-"));
    store = await openDuckDbEventStore(join(dir, "events.duckdb"), { rollupDelayMs: 0 });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The service over the real store; sync() first runs `pending` (the accepted, unapplied write). */
  function service(online: string[], pending: () => Promise<void>, catchUpMs = CATCH_UP_MS) {
    let syncs = 0;
    const events = {
      deleteVisitor: store.deleteVisitor.bind(store),
      sync: async () => {
        syncs++;
        await pending();
        await store.sync();
      },
    };
    const s = createVisitorService({
      events,
      reads: fairEventReads(store),
      meta: { audit: { record: async () => undefined } } as never,
      presence: { list: () => online.map((clientid) => ({ clientid, propertyId: P }) as LiveVisitor) },
      now: () => NOW,
      catchUpMs,
    });
    return { s, syncs: () => syncs };
  }

  it("waits for the store and answers their page and history", async () => {
    const { s, syncs } = service(["newcomer"], () => store.append([row("newcomer", 0), row("newcomer", 1)]));
    const detail = await s.detail(SITE, "newcomer");
    expect(detail).toMatchObject({ client_id: "newcomer", visits: 1, pageviews: 2, online: true });
    expect(syncs()).toBe(1);
    const history = await s.history(SITE, "newcomer", { limit: 5 });
    expect(history.results[0]?.events.map((e) => e.path).sort()).toEqual(["/p0", "/p1"]);
    // Readable now: no second wait.
    expect(syncs()).toBe(1);
  });

  it("answers not found at once for an id nobody sees online", async () => {
    const { s, syncs } = service([], async () => undefined);
    await expect(s.detail(SITE, "stranger")).rejects.toMatchObject({ code: "not_found" });
    await expect(s.history(SITE, "stranger", { limit: 5 })).rejects.toMatchObject({ code: "not_found" });
    expect(syncs()).toBe(0);
  });

  it("answers not found when the online visitor is still unknown after the wait", async () => {
    const { s, syncs } = service(["ghost"], async () => undefined);
    const err = await s.detail(SITE, "ghost").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("not_found");
    expect(syncs()).toBe(1);
  });

  it("gives up waiting after catchUpMs with not found, not a hang", async () => {
    const { s, syncs } = service(["stuck"], () => new Promise<void>(() => {}), 50);
    await expect(s.detail(SITE, "stuck")).rejects.toMatchObject({ code: "not_found" });
    expect(syncs()).toBe(1);
  });
});
