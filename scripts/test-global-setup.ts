// Vitest global setup: the browser and integration tests need the built web app and tracker, and
// the ClickHouse suites one clickhouse-server for the whole run (each test file then works in a
// database of its own). Rebuilds only what is stale, so `npx vitest run <file>` works straight
// from a checkout.
import { startClickHouse } from "@lookout/storage/test-services";
// @ts-expect-error plain ESM script without types
import { ensureBuilds } from "./bootstrap.mjs";

export default async function setup(): Promise<() => Promise<void>> {
  ensureBuilds();
  let stop = async () => {};
  if (!process.env.LOOKOUT_TEST_CLICKHOUSE_URL) {
    try {
      const server = await startClickHouse();
      // Test files (in worker processes forked after this) read it from the environment.
      process.env.LOOKOUT_TEST_CLICKHOUSE_URL = server.url;
      stop = server.stop;
    } catch (err) {
      if (process.env.CI === "true") throw err;
      // Without it the ClickHouse suites skip, each saying why (test-services.ts requireClickHouse).
      process.env.LOOKOUT_TEST_CLICKHOUSE_UNAVAILABLE = err instanceof Error ? err.message : String(err);
      process.stderr.write(
        `[test setup] ClickHouse unavailable, its suites will skip: ${process.env.LOOKOUT_TEST_CLICKHOUSE_UNAVAILABLE}\n`,
      );
    }
  }
  return () => stop();
}
