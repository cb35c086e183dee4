// What every insight kind's browser test shares: a server seeded with synthetic traffic for one
// property ("Shop"), a folder for the screenshots (SHOTS_DIR, else the test's own), opening a path
// signed in with that property and a theme, and the insight API's answer to a spec, which is the
// oracle each test holds the screen to.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { login } from "../harness";
import { browserSuite, seedEvents, signIn, THEME_KEY } from "./support";

export function insightSuite(opts: { shots: string; days?: number; visitors?: number }) {
  const suite = browserSuite(
    [{ url: "https://shop.example", name: "Shop" }],
    seedEvents({ indexes: [0], days: opts.days ?? 30, visitors: opts.visitors ?? 300 }),
  );
  const dir = process.env.SHOTS_DIR ?? opts.shots;
  const shot = (name: string) => {
    mkdirSync(dir, { recursive: true });
    return join(dir, name);
  };
  const shop = () => suite.web.propertyIds[0] as string;

  async function open(page: Page, path: string, theme: "light" | "dark" = "light") {
    await signIn(page, suite.web.server);
    await page.evaluate(
      ({ id, theme, key }) => {
        localStorage.setItem("currentProperty", JSON.stringify({ unique_id: id }));
        localStorage.setItem(key, theme);
      },
      { id: shop(), theme, key: THEME_KEY },
    );
    await page.goto(`${suite.web.server.url}${path}`);
  }

  /** The whole answer of POST …/insights/query for `spec` (its `results` typed by the caller). */
  async function query<T>(spec: unknown): Promise<{ results: T }> {
    const { token } = await login(suite.web.server);
    const r = await fetch(`${suite.web.server.url}/api/v1/properties/${shop()}/insights/query`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(spec),
    });
    const body = (await r.json()) as { results: T };
    if (!r.ok) throw new Error(`query: ${r.status} ${JSON.stringify(body)}`);
    return body;
  }

  return { suite, shot, shop, open, query };
}
