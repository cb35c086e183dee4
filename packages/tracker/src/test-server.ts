// Test harness for the tracker's browser tests: one node:http server that plays every host. The
// browser context uses it as its HTTP proxy, so fixtures can live on realistic hostnames
// (shop.example, cdn.lookout.test) that are not localhost, while direct 127.0.0.1/localhost loads
// exercise the localhost rules. It serves fixtures and dist/script.js and records every POST.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, OUTFILE } from "../build.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const SHOP = "http://shop.example";
export const CDN = "http://cdn.lookout.test";

export interface Hit {
  host: string;
  path: string;
  contentType: string;
  body: Record<string, unknown>;
}

export interface FixtureOptions {
  /** Extra attributes on the tracker's script tag. */
  attrs?: string;
  head?: string;
  body?: string;
  src?: string;
  /** The data-property value; null leaves the attribute out. Default: a fresh id per fixture. */
  property?: string | null;
}

/** Builds dist/script.js when it is missing or older than its sources. */
export async function ensureBuilt(): Promise<void> {
  const sources = [join(here, "script.ts"), join(here, "..", "build.mjs")];
  const stale = !existsSync(OUTFILE) || sources.some((s) => statSync(s).mtimeMs > statSync(OUTFILE).mtimeMs);
  if (stale) await build({ quiet: true });
}

export class FixtureServer {
  readonly hits: Hit[] = [];
  port = 0;
  readonly #pages = new Map<string, string>();
  #seq = 0;
  #server: Server | undefined;

  start(): Promise<void> {
    const server = createServer((req, res) => {
      // Proxied requests carry an absolute URL; direct ones a path.
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      if (req.method === "POST") {
        let text = "";
        req.on("data", (c) => {
          text += c;
        });
        req.on("end", () => {
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text);
          } catch {}
          this.hits.push({ host: url.host, path: url.pathname, contentType: req.headers["content-type"] ?? "", body });
          res.writeHead(202, { "access-control-allow-origin": "*" }).end();
        });
        return;
      }
      if (url.pathname === "/js/script.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(OUTFILE));
        return;
      }
      const html = this.#pages.get(url.pathname) ?? "<!doctype html><title>elsewhere</title><p>elsewhere</p>";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
    this.#server = server;
    return new Promise((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }

  /** Registers a fixture page; returns its path and the property id unique to it. */
  fixture(opts: FixtureOptions = {}): { id: string; path: string } {
    const id = `prop${++this.#seq}`;
    const path = `/f/${id}/index.html`;
    const property = opts.property === null ? "" : `data-property="${opts.property ?? id}"`;
    this.#pages.set(
      path,
      `<!doctype html><html><head><title>Fixture ${id}</title>${opts.head ?? ""}
<script defer src="${opts.src ?? `${CDN}/js/script.js`}" ${property} ${opts.attrs ?? ""}></script>
</head><body>${opts.body ?? "<p>hello</p>"}</body></html>`,
    );
    return { id, path };
  }

  sent(property: string, name?: string): Hit[] {
    return this.hits.filter((h) => h.body.p === property && (name === undefined || h.body.n === name));
  }

  async waitFor<T>(fn: () => T | undefined | false, what: string, timeoutMs = 5000): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(this.hits.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Resolves with the events once at least `n` named `name` arrived for `property`. */
  waitForCount(property: string, name: string, n: number): Promise<Hit[]> {
    return this.waitFor(
      () => this.sent(property, name).length >= n && this.sent(property, name),
      `${n} x ${name} for ${property}`,
    );
  }
}
