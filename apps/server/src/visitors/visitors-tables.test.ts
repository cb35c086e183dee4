// The per-visitor tables against the events table, on every event engine: random traffic with
// every attribute the page shows (facets, sources and UTM tags, currencies, custom events), some
// client ids sharing an e-mail, appended in several batches (so that visits span appends and fold
// from several partial rows), then every answer of the service read through the tables
// (source "auto", visitors-plan.ts) equal to the same answer read from `events` only: the page,
// the history paged by cursor, the list in every order, searched and filtered. Then a deleted
// visitor and a deleted property leave nothing behind in the tables, and a store whose tables are
// missing (a file or database from before them) fills them from its events when opened.
//
// Timestamps are whole, distinct seconds: on ties the events path itself may pick either row
// (arg_min over equal times), so only tie-free traffic has one right answer.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { createSessionizer } from "@lookout/ingest";
import { type EventRow, eventRow, VISITOR_ORDERS, type VisitorProfile } from "@lookout/schema";
import { openClickHouseEventStore, openDuckDbEventStore } from "@lookout/storage";
import { type TestStore, testEngines } from "@lookout/storage/test-engines";
import { clickHouseTestDatabase, requireClickHouse } from "@lookout/storage/test-services";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairEventReads } from "../event-reads/fair-reads.js";
import { createVisitorService } from "./service.js";

const DAY = 86_400_000;
const TZ = "Asia/Kathmandu"; // +05:45: the calendar's days are not whole UTC hours
const NOW = Date.parse("2024-03-31T12:00:00Z");
const T0 = NOW - 40 * DAY;
const IDS = ["a", "user-42", "Zed", "x/y", "laptop-0001", "phone-0002"];
const EMAILS = ["ann@example.com", "ANN@example.com", "bo@example.com"];

const stepArb = fc.record({
  gapS: fc.oneof(fc.integer({ min: 1, max: 1799 }), fc.constantFrom(1800, 1801), fc.integer({ min: 1800, max: 3 * 86_400 })),
  name: fc.constantFrom("pageview", "pageview", "engagement", "signup", "purchase", "identify"),
  path: fc.constantFrom("/", "/a", "/b"),
  device: fc.constantFrom("desktop", "mobile", ""),
  browser: fc.constantFrom("Firefox", "Chrome"),
  os: fc.constantFrom("Linux", "iOS"),
  screen: fc.constantFrom("", "lg", "sm"),
  language: fc.constantFrom("de", "en"),
  country: fc.constantFrom("DE", "NP", ""),
  source: fc.constantFrom("", "Google", "Newsletter"),
  utm: fc.constantFrom("", "spring"),
  currency: fc.constantFrom("EUR", "USD"),
  revenue: fc.constantFrom(0, 5, 12.5),
  engagedS: fc.integer({ min: 1, max: 90 }),
});
const visitorArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 10 }),
  email: fc.option(fc.constantFrom(...EMAILS), { nil: undefined }),
});
const trafficArb = fc.record({
  visitors: fc.uniqueArray(fc.tuple(fc.constantFrom(...IDS), visitorArb), { minLength: 1, maxLength: 5, selector: ([id]) => id }),
  // Where the time-ordered rows are cut into appends.
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
});

type Traffic = typeof trafficArb extends fc.Arbitrary<infer T> ? T : never;

function build(property: string, t: Traffic) {
  const rows: EventRow[] = [];
  for (const [i, [id, v]] of t.visitors.entries()) {
    // Distinct seconds everywhere: each visitor's clock runs on its own residue modulo 7.
    let ts = T0 + i * 1000;
    for (const s of v.steps) {
      ts += Math.max(1, Math.round(s.gapS / 7)) * 7000;
      const custom = s.name === "signup" || s.name === "purchase";
      rows.push(
        eventRow({
          property,
          ts: new Date(ts),
          name: s.name,
          path: s.path,
          url: `https://shop.test${s.path}`,
          visitor_id: id,
          client_id: id,
          device: s.device,
          browser: s.browser,
          os: s.os,
          screen: s.screen,
          language: s.language,
          country: s.country,
          region: s.country ? `${s.country}-1` : "",
          city: s.country ? `City ${s.country}` : "",
          referrer_source: s.source,
          referrer: s.source ? `https://${s.source.toLowerCase()}.test/` : "",
          channel: s.source ? "Referral" : "Direct",
          utm_campaign: s.utm,
          engaged_ms: s.name === "engagement" ? s.engagedS * 1000 : 0,
          revenue: custom ? s.revenue : 0,
          revenue_currency: custom && s.revenue > 0 ? s.currency : "",
        }),
      );
    }
  }
  rows.sort((a, b) => a.ts.getTime() - b.ts.getTime());
  let n = 0;
  const sessions = createSessionizer({ newId: () => `s${String(++n).padStart(4, "0")}` });
  for (const r of rows) r.session_id = sessions.assign(property, r.visitor_id, r.ts) as string;
  const cuts = [...new Set(t.cuts.map((c) => Math.floor(c * rows.length)))].sort((a, b) => a - b);
  const batches = [0, ...cuts, rows.length].slice(1).map((end, i, all) => rows.slice(i === 0 ? 0 : all[i - 1], end));
  const profiles: VisitorProfile[] = t.visitors
    .filter(([, v]) => v.email !== undefined)
    .map(([id, v]) => ({
      property,
      client_id: id,
      email: v.email as string,
      name: `name of ${id}`,
      traits: { id },
      first_seen: new Date(T0),
      last_seen: new Date(T0),
    }));
  return { rows, batches: batches.filter((b) => b.length > 0), profiles, ids: t.visitors.map(([id]) => id) };
}

const ENGINES = await testEngines();

describe.each(ENGINES)("the per-visitor tables on $name", (engine) => {
  let store: TestStore;
  let n = 0;
  const dirs: string[] = [];
  const services = (s: TestStore) => {
    const deps = {
      events: s,
      reads: fairEventReads(s),
      meta: { audit: { record: async () => undefined } } as never,
      presence: { list: () => [] },
      now: () => NOW,
    };
    return { tables: createVisitorService(deps), events: createVisitorService({ ...deps, source: "events" }) };
  };

  /** Every answer of the service on this property through the tables and through events: equal. */
  async function expectSameAnswers(s: TestStore, property: string, ids: readonly string[]) {
    const { tables, events } = services(s);
    const site = { unique_id: property, timezone: TZ, account_id: "acc" };
    for (const id of ids) {
      const [a, b] = await Promise.all([
        tables.detail(site, id).catch((e) => String(e)),
        events.detail(site, id).catch((e) => String(e)),
      ]);
      expect(a, `detail of ${id}`).toEqual(b);
      for (const limit of [1, 3]) {
        let cursor: string | undefined;
        for (let i = 0; i < 50; i++) {
          const q = { limit, ...(cursor ? { cursor } : {}) };
          const [x, y] = await Promise.all([tables.history(site, id, q), events.history(site, id, q)]);
          expect(x, `history of ${id}`).toEqual(y);
          if (!x.next_cursor) break;
          cursor = x.next_cursor;
        }
      }
    }
    for (const order of VISITOR_ORDERS) {
      for (const extra of [
        {},
        { search: "ann" },
        { search: "-00" },
        { identified: "identified" as const },
        { identified: "anonymous" as const },
      ]) {
        let cursor: string | undefined;
        for (let i = 0; i < 50; i++) {
          const q = { order, identified: "all" as const, limit: 2, ...extra, ...(cursor ? { cursor } : {}) };
          const [x, y] = await Promise.all([tables.list(site, q), events.list(site, q)]);
          expect(x, `list by ${order} ${JSON.stringify(extra)}`).toEqual(y);
          if (!x.next_cursor) break;
          cursor = x.next_cursor;
        }
      }
    }
  }

  /** The visits and the visitors the tables hold for a property (partial rows counted once). */
  const tableRows = async (s: TestStore, property: string) => {
    const out: number[] = [];
    for (const [t, key] of [
      ["visitor_visits", "session_id"],
      ["visitor_summary", "client_id"],
    ]) {
      const p = s.dialect === "duckdb" ? "$p1" : "{p1:String}";
      const sql = `SELECT count() AS n FROM (SELECT ${key} FROM ${t} WHERE property = ${p} GROUP BY ${key})`;
      const r = await s.query<{ n: number }>({ sql, params: { p1: property } });
      out.push(Number(r[0]?.n ?? 0));
    }
    return out;
  };

  beforeAll(async () => {
    if (!engine.skip) store = await engine.open("visitor-tables");
  });
  afterAll(async () => {
    await store?.close();
    engine.cleanup();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.skipIf(engine.skip !== undefined)(
    "answer the page, the history and the list exactly as the events do",
    async () => {
      await fc.assert(
        fc.asyncProperty(trafficArb, async (traffic) => {
          const property = `tables-${++n}`;
          const t = build(property, traffic);
          for (const b of t.batches) await store.append(b);
          await store.upsertVisitors(t.profiles);
          await store.sync();
          await expectSameAnswers(store, property, t.ids);
        }),
        { numRuns: Number(process.env.VISITOR_MODEL_RUNS ?? 12), endOnFailure: true },
      );
    },
    300_000,
  );

  it.skipIf(engine.skip !== undefined)(
    "lose a deleted visitor's rows and a deleted property's, and nothing else",
    async () => {
      const [p, q] = [`tables-del-${++n}`, `tables-keep-${++n}`];
      const steps = fc.sample(stepArb, { numRuns: 6, seed: 3 });
      const traffic: Traffic = { visitors: IDS.slice(0, 3).map((id) => [id, { steps, email: undefined }]), cuts: [0.5] };
      for (const prop of [p, q]) for (const b of build(prop, traffic).batches) await store.append(b);
      await store.sync();
      const before = await tableRows(store, p);
      expect(before[1]).toBe(3);
      await store.deleteVisitor(p, "a");
      const { tables } = services(store);
      const site = { unique_id: p, timezone: TZ, account_id: "acc" };
      const listed = await tables.list(site, { order: "last_seen", identified: "all", limit: 50 });
      expect(listed.results.map((v) => v.client_id).sort()).toEqual(["Zed", "user-42"]);
      await expect(tables.detail(site, "a")).rejects.toThrow(/not found/i);
      expect((await tableRows(store, p))[1]).toBe(2);
      await expectSameAnswers(store, p, ["user-42", "Zed"]);
      await store.deleteProperty(p);
      expect(await tableRows(store, p)).toEqual([0, 0]);
      expect(await tableRows(store, q)).toEqual(before);
    },
    120_000,
  );

  it.skipIf(engine.skip !== undefined)(
    "are filled from the events already stored when a store opens without them",
    async () => {
      const property = "backfill";
      const t = build(property, fc.sample(trafficArb, { numRuns: 1, seed: 11 })[0] as Traffic);
      const fill = async (s: TestStore) => {
        for (const b of t.batches) await s.append(b);
        await s.upsertVisitors(t.profiles);
        await s.sync();
        return tableRows(s, property);
      };
      let reopened: TestStore;
      let want: number[];
      if (engine.name === "duckdb") {
        const dir = mkdtempSync(join(tmpdir(), "lookout-visitor-tables-"));
        dirs.push(dir);
        const file = join(dir, "events.duckdb");
        const s = await openDuckDbEventStore(file, { rollupDelayMs: 0 });
        want = await fill(s);
        await s.close();
        // An events file from before the tables: dropped, and their version forgotten.
        const db = await DuckDBInstance.create(file);
        const c = await db.connect();
        await c.run(
          "DROP TABLE visitor_visits; DROP TABLE visitor_summary; DELETE FROM lookout_meta WHERE key = 'visitor_tables_version'",
        );
        c.closeSync();
        db.closeSync();
        reopened = await openDuckDbEventStore(file, { rollupDelayMs: 0 });
      } else {
        const ch = await requireClickHouse();
        if (!("url" in ch)) throw new Error(ch.skip);
        const s = await openClickHouseEventStore(`${ch.url}/${clickHouseTestDatabase("visitor-backfill")}`);
        want = await fill(s);
        const db = s.database;
        await s.close();
        for (const name of ["visitor_visits_mv", "visitor_summary_mv", "visitor_visits", "visitor_summary"]) {
          const r = await fetch(ch.url, { method: "POST", body: `DROP TABLE ${db}.${name}` });
          expect(r.ok, await r.text()).toBe(true);
        }
        reopened = await openClickHouseEventStore(`${ch.url}/${db}`);
      }
      try {
        expect(await tableRows(reopened, property)).toEqual(want);
        await expectSameAnswers(reopened, property, t.ids);
        // Appends after the rebuild (on DuckDB: after the table was rewritten in visitor order) add to it.
        const later = build("backfill-later", fc.sample(trafficArb, { numRuns: 1, seed: 12 })[0] as Traffic);
        for (const b of later.batches) await reopened.append(b);
        await reopened.sync();
        await expectSameAnswers(reopened, "backfill-later", later.ids);
        await expectSameAnswers(reopened, property, t.ids);
      } finally {
        await reopened.close();
      }
    },
    120_000,
  );
});
