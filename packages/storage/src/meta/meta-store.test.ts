// Runs the MetaStore conformance suite on embedded PGlite (on disk) and on PostgreSQL.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { requirePostgres } from "../test-services.js";
import { metaStoreConformance } from "./conformance.js";
import { openMetaStore } from "./meta-store.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

metaStoreConformance("PGlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-meta-"));
  dirs.push(dir);
  return openMetaStore({ kind: "pglite", dir });
});

const schemas: string[] = [];
metaStoreConformance("PostgreSQL", async () => {
  const url = await requirePostgres();
  const schema = `t_${randomBytes(6).toString("hex")}`;
  schemas.push(schema);
  return openMetaStore({ kind: "postgres", url, schema });
});

afterAll(async () => {
  if (!schemas.length) return;
  const client = new pg.Client({ connectionString: await requirePostgres() });
  await client.connect();
  for (const s of schemas) await client.query(`drop schema if exists ${s} cascade`);
  await client.end();
});

describe("PGlite persistence", () => {
  it("keeps data and migration state across reopen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lookout-meta-"));
    dirs.push(dir);
    const a = await openMetaStore({ kind: "pglite", dir });
    await a.users.create({ email: "keep@x.test", passwordHash: "h" });
    await a.close();
    const b = await openMetaStore({ kind: "pglite", dir });
    expect(await b.users.findByEmail("KEEP@x.test")).toBeDefined();
    await b.close();
  });
});
