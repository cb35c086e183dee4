// The ingest log on its own (records, torn tails, rotation) and under the DuckDB store: rows a
// process acknowledged from the log and then died with kill -9 before committing to DuckDB are in
// the store on the next open, exactly once, whether or not part of them had been committed.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openDuckDbEventStore } from "./duckdb-store.js";
import { at, event } from "./fixtures.js";
import { deleteBefore, encodeRows, IngestLog, readIngestLog } from "./ingest-log.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-ingest-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const P = "log.example";
const row = (i: number) =>
  event({ property: P, ts: at("2024-05-09 10:00:00"), visitor_id: `v${i}`, session_id: `s${i}`, props: { i: String(i) } });

describe("ingest log", () => {
  it("reads back every record after a mark, with Dates and maps intact, and skips a torn tail", async () => {
    const dir = tempDir();
    const log = await IngestLog.create(dir, 1);
    const first = await log.append(encodeRows([row(1), row(2)]));
    await log.append(encodeRows([row(3)]));
    await log.close();
    appendFileSync(join(dir, "0000000001.log"), Buffer.from([200, 0, 0, 0, 1, 2, 3])); // cut short by a crash

    const all = await readIngestLog(dir, null);
    expect(all.records.map((r) => r.rows.map((x) => x.props.i))).toEqual([["1", "2"], ["3"]]);
    expect(all.records[0]?.rows[0]?.ts).toEqual(at("2024-05-09 10:00:00"));
    expect(all.nextGen).toBe(2);
    const after = await readIngestLog(dir, first);
    expect(after.records.map((r) => r.rows.length)).toEqual([1]);
  });

  it("skips a record whose bytes were damaged", async () => {
    const dir = tempDir();
    const log = await IngestLog.create(dir, 1);
    await log.append(encodeRows([row(1)]));
    const { offset } = await log.append(encodeRows([row(2)]));
    await log.close();
    const file = join(dir, "0000000001.log");
    const bytes = (await import("node:fs")).readFileSync(file);
    bytes[offset - 3] = (bytes[offset - 3] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    expect((await readIngestLog(dir, null)).records).toHaveLength(1);
  });

  it("starts a new file past its size and deletes files once a later mark is applied", async () => {
    const dir = tempDir();
    const log = await IngestLog.create(dir, 5, 1);
    await log.append(encodeRows([row(1)]));
    const second = await log.append(encodeRows([row(2)]));
    expect(second.gen).toBe(6);
    await log.close();
    // The next file is made ready ahead of time (empty until written to).
    expect(readdirSync(dir).sort()).toEqual(["0000000005.log", "0000000006.log", "0000000007.log"]);
    await deleteBefore(dir, second.gen);
    expect(readdirSync(dir).sort()).toEqual(["0000000006.log", "0000000007.log"]);
    expect((await readIngestLog(dir, null)).records.map((r) => r.rows[0]?.props.i)).toEqual(["2"]);
  });
});

/** Runs `lines` in a child that opens the store at `path` as `s` and dies by SIGKILL at the end. */
function crashAfter(path: string, opts: string, lines: string[]): void {
  const self = dirname(fileURLToPath(import.meta.url));
  const script = join(dirname(path), "crash.mts");
  writeFileSync(
    script,
    [
      `import { openDuckDbEventStore } from ${JSON.stringify(join(self, "duckdb-store.ts"))};`,
      `import { event, at } from ${JSON.stringify(join(self, "fixtures.ts"))};`,
      `const row = (i) => event({ property: ${JSON.stringify(P)}, ts: at("2024-05-09 10:00:00"), visitor_id: "v" + i, session_id: "s" + i });`,
      `const s = await openDuckDbEventStore(${JSON.stringify(path)}, ${opts});`,
      ...lines,
      `process.kill(process.pid, "SIGKILL");`,
    ].join("\n"),
  );
  const r = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 60_000 });
  expect(r.signal, r.stderr).toBe("SIGKILL");
}

describe("DuckDB appends through the ingest log", () => {
  it("applies on open what a killed process had only in the log", async () => {
    const path = join(tempDir(), "events.duckdb");
    crashAfter(path, "{ staging: { flushMs: 600000 } }", ["await s.append([row(1), row(2)]);", "await s.append([row(3)]);"]);
    // Opened without staging (as the CLI does): the log is applied all the same.
    const s = await openDuckDbEventStore(path);
    expect(await s.events(P)).toHaveLength(3);
    await s.sync();
    const [n] = await s.query<{ visits: number }>({ sql: "SELECT count(*)::INTEGER AS visits FROM sessions", params: {} });
    expect(n?.visits).toBe(3);
    await s.close();
    expect(readdirSync(`${path}.ingest`)).toEqual([]);
  });

  it("applies each acknowledged row exactly once when part of them had been committed", async () => {
    const path = join(tempDir(), "events.duckdb");
    crashAfter(path, "{ staging: { flushMs: 600000 }, rollupDelayMs: 600000 }", [
      "await s.append([row(1), row(2)]);",
      "await s.sync();", // committed to DuckDB, with the log mark
      "await s.append([row(3)]);",
      "await s.append([row(4)]);",
    ]);
    const s = await openDuckDbEventStore(path, { staging: {} });
    expect((await s.events(P)).map((e) => e.visitor_id).sort()).toEqual(["v1", "v2", "v3", "v4"]);
    // And the store carries on appending through a new log file.
    await s.append([row(5)]);
    expect(await s.events(P)).toHaveLength(5);
    await s.close();
    const again = await openDuckDbEventStore(path);
    expect(await again.events(P)).toHaveLength(5);
    await again.close();
  });
});
