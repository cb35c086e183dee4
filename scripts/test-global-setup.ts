// Vitest global setup: the browser and integration tests need the built web app and tracker, and
// the ClickHouse suites one clickhouse-server for the whole run (each test file then works in a
// database of its own). Rebuilds only what is stale, so `npx vitest run <file>` works straight
// from a checkout. Also makes the run's empty metadata database: every test server, CLI run and
// test app starts from a copy of it (LOOKOUT_PGLITE_TEMPLATE) instead of running initdb.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMetaTemplate } from "@lookout/storage";
import { startClickHouse } from "@lookout/storage/test-services";
// @ts-expect-error plain ESM script without types
import { ensureBuilds } from "./bootstrap.mjs";

export default async function setup(): Promise<() => Promise<void>> {
  ensureBuilds();
  let stop = async () => {};
  // Made while ClickHouse starts; worker processes are forked after this and inherit the variable.
  const templateRoot = mkdtempSync(join(tmpdir(), "lookout-meta-template-"));
  const template = createMetaTemplate(join(templateRoot, "meta"));
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
  await template;
  process.env.LOOKOUT_PGLITE_TEMPLATE = join(templateRoot, "meta");
  return async () => {
    await stop();
    rmSync(templateRoot, { recursive: true, force: true });
  };
}
