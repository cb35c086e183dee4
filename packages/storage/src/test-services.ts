// Test access to the real services this machine runs. Under CI=true a missing service is a loud
// failure, never a silent skip.
import pg from "pg";

export const POSTGRES_TEST_URL = process.env.LOOKOUT_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function requirePostgres(): Promise<string> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return POSTGRES_TEST_URL;
  } catch (err) {
    throw new Error(
      `PostgreSQL is required for this test at ${POSTGRES_TEST_URL} (start it with: pg_ctlcluster $(ls /etc/postgresql) main start): ${String(err)}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export const REDIS_TEST_URL = process.env.LOOKOUT_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function requireRedis(): Promise<string> {
  const { Redis } = await import("ioredis");
  const r = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    await r.ping();
    return REDIS_TEST_URL;
  } catch (err) {
    throw new Error(`Redis is required for this test at ${REDIS_TEST_URL}: ${String(err)}`);
  } finally {
    r.disconnect();
  }
}
