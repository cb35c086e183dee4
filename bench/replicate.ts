// Bench support: turns a generated database's events into `copies` times as many in SQL, for the
// opt-in 100M runs (generating 100M events through the store's append takes over an hour and more
// than 4 GB; this takes minutes). Used by the dashboard and visitors benchmarks.
import type { DuckDbEventStore } from "@lookout/storage";

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Copy k (k >= 1) of each row gets the ids `<id>~k` and keys mixed with k, so its visitors and
 * visits are new ones. Written day by day in time order, since queries lean on the ts zone maps.
 * Rollups and per-visitor tables are left to the caller (a rebuild).
 */
export async function replicate(store: DuckDbEventStore, copies: number): Promise<void> {
  // No time limit: a statement here rewrites millions of rows (the store's default is 10 s).
  const sql = async (q: string) => void (await store.query({ sql: q, params: {} }, { timeoutMs: 0 }));
  const t0 = performance.now();
  await sql("CREATE TABLE bench_base AS SELECT * FROM events ORDER BY ts");
  await sql("DELETE FROM events");
  // Copy k's keys: xor with a per-copy 64-bit mask (0 for the original rows).
  const masks = Array.from({ length: copies }, (_, k) => `(${k}, ${BigInt.asIntN(64, BigInt(k) * 0x9e3779b97f4a7c15n)})`);
  const mix = (col: string) => `xor(${col}, m::BIGINT)`;
  const id = (col: string) => `CASE WHEN k = 0 THEN ${col} ELSE ${col} || '~' || k END`;
  const days = await store.query<{ day: string }>(
    {
      sql: "SELECT DISTINCT strftime(ts, '%Y-%m-%d') AS day FROM bench_base ORDER BY day",
      params: {},
    },
    { timeoutMs: 0 },
  );
  for (const [i, { day }] of days.entries()) {
    await sql(
      "INSERT INTO events SELECT b.* REPLACE (" +
        `${id("visitor_id")} AS visitor_id, ${id("session_id")} AS session_id, ${id("client_id")} AS client_id, ` +
        `${mix("vkey")} AS vkey, ${mix("skey")} AS skey) ` +
        `FROM bench_base b, (VALUES ${masks.join(", ")}) c(k, m) ` +
        `WHERE ts >= DATE '${day}' AND ts < DATE '${day}' + INTERVAL 1 DAY ORDER BY ts`,
    );
    process.stdout.write(`  replicated ${i + 1}/${days.length} days\r`);
  }
  await sql("DROP TABLE bench_base");
  await store.checkpoint();
  process.stdout.write(`\n  ${copies} copies in ${r1((performance.now() - t0) / 1000)} s\n`);
}
