// Runs the MetaStore conformance suite on embedded PGlite (on disk) and on PostgreSQL.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { pgliteTemplate, requirePostgres } from "../test-services.js";
import { metaStoreConformance } from "./conformance.js";
import { createMetaTemplate, openMetaStore } from "./meta-store.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

metaStoreConformance("PGlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lookout-meta-"));
  dirs.push(dir);
  // The suite's empty database copied (pgliteTemplate); the tests below create one.
  return openMetaStore({ kind: "pglite", dir, ...pgliteTemplate() });
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

// These create databases (PostgreSQL's initdb in WebAssembly): tens of seconds on a loaded machine.
describe("PGlite persistence", { timeout: 120_000 }, () => {
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

describe("PGlite template", { timeout: 120_000 }, () => {
  it("starts a new directory as a copy of the template, which later writes leave as it was", async () => {
    const root = mkdtempSync(join(tmpdir(), "lookout-meta-"));
    dirs.push(root);
    // The suite's template (built by createMetaTemplate in the global setup), which every other
    // PGlite test copies, so this also shows the copies leave it empty; run alone, one of its own.
    let template = pgliteTemplate().template;
    if (!template) {
      template = join(root, "template");
      await createMetaTemplate(template);
    }
    const a = await openMetaStore({ kind: "pglite", dir: join(root, "a"), template });
    await a.users.create({ email: "copy@x.test", passwordHash: "h" });
    await a.close();
    const b = await openMetaStore({ kind: "pglite", dir: join(root, "b"), template });
    expect(await b.users.findByEmail("copy@x.test")).toBeUndefined();
    await b.users.create({ email: "other@x.test", passwordHash: "h" });
    await b.close();
    // An existing directory is opened as it is: the template is only for a new one.
    const again = await openMetaStore({ kind: "pglite", dir: join(root, "a"), template });
    expect(await again.users.findByEmail("copy@x.test")).toBeDefined();
    await again.close();
  });

  it("refuses a template directory that holds no database", async () => {
    const root = mkdtempSync(join(tmpdir(), "lookout-meta-"));
    dirs.push(root);
    await expect(openMetaStore({ kind: "pglite", dir: join(root, "a"), template: join(root, "none") })).rejects.toThrow(
      /holds no PGlite database/,
    );
  });
});
