// The billing CLI and the recipe BILLING_CONTRACT.md gives the browser tests, as an operator runs
// it: real processes on a real data directory. Events stored in the two periods before the current
// one, `billing:plan` with an anchor, `billing:check --now` eight days back: the server then answers
// the dashboard's first call with 402 account_locked, and the billing call says locked.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eventRow } from "@lookout/schema";
import { openDuckDbEventStore } from "@lookout/storage";
import { afterAll, describe, expect, it } from "vitest";
import { login, startServer } from "../../../../e2e/harness.js";
import { periodsAround } from "./periods.js";
import { TEST_PLANS } from "./test-plans.js";

const MAIN = resolve(import.meta.dirname, "../../dist/cli.mjs");
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "lookout-billing-cli-"));
const plansFile = join(dir, "plans.json");
writeFileSync(plansFile, JSON.stringify(TEST_PLANS));
const ENV = {
  LOOKOUT_BILLING: "stripe",
  LOOKOUT_BILLING_PLANS: plansFile,
  STRIPE_SECRET_KEY: "sk_test_cli",
  STRIPE_WEBHOOK_SECRET: "whsec_cli",
};
const dataDir = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, LOOKOUT_DATA_DIR: dataDir, LOOKOUT_LOG_LEVEL: "warn", ...ENV },
    encoding: "utf8",
    timeout: 170_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("billing CLI", { timeout: 900_000 }, () => {
  it("puts an account on a plan with an anchor, and the check locks it over real events", async () => {
    expect(cli(["user:create", "--email", "owner@example.com", "--password", "correct-horse-battery-staple"]).code).toBe(0);
    const site = cli(["property:create", "--email", "owner@example.com", "--url", "https://shop.test"]).out.trim();
    const bad = cli(["billing:plan", "--email", "owner@example.com", "--plan", "gold"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/--plan must be one of free, pro, max/)]);
    const now = new Date();
    const tenAgo = new Date(now.getTime() - 10 * DAY);
    const anchor = `${tenAgo.getUTCFullYear() - 1}-${String(tenAgo.getUTCMonth() + 1).padStart(2, "0")}-${String(Math.min(tenAgo.getUTCDate(), 28)).padStart(2, "0")}`;
    const set = cli(["billing:plan", "--email", "owner@example.com", "--plan", "free", "--anchor", anchor]);
    expect([set.code, set.out]).toEqual([0, expect.stringMatching(/on the Free plan \(periods from/)]);

    const [pen, last] = periodsAround(new Date(`${anchor}T00:00:00Z`), now, 2).boundaries as [number, number];
    const store = await openDuckDbEventStore(join(dataDir, "events.duckdb"));
    await store.migrate();
    await store.append(
      [pen, last].flatMap((from) =>
        Array.from({ length: 120 }, (_, i) => eventRow({ property: site, ts: new Date(from + i * 60_000), name: "pageview" })),
      ),
    );
    await store.close();

    const check = cli([
      "billing:check",
      "--email",
      "owner@example.com",
      "--now",
      new Date(now.getTime() - 8 * DAY).toISOString(),
    ]);
    expect([check.code, check.out]).toEqual([
      0,
      expect.stringMatching(/: grace, \d+ billable events this period, e-mailed grace_usage/),
    ]);

    const server = await startServer({ dataDir, env: ENV });
    try {
      const session = await login(server, "owner@example.com", "correct-horse-battery-staple");
      const headers = { authorization: `Bearer ${session.token}` };
      const agg = await fetch(`${server.url}/api/v1/stats/aggregate?property_id=${site}&metrics=pageviews`, { headers });
      expect(agg.status).toBe(402);
      expect(await agg.json()).toMatchObject({ code: "account_locked" });
      const b = await (await fetch(`${server.url}/api/v1/accounts/${session.accountId}/billing`, { headers })).json();
      expect(b).toMatchObject({ status: "locked", plan: "free", notice: { kind: "locked" } });
    } finally {
      await server.stop({ keepData: true });
    }
  });
});
