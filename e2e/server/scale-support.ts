// Support for the scale-out tests (DESIGN.md §1, issue #22): a loopback round-robin balancer in
// front of real Lookout processes, a PostgreSQL database of the test's own, and ClickHouse reads.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import { connect } from "node:net";
import { clickHouseTestDatabase, POSTGRES_TEST_URL, requirePostgres } from "@lookout/storage/test-services";
import pg from "pg";

export const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

export interface Balancer {
  url: string;
  /** The port each request (or socket upgrade) was sent to, in order. */
  served: number[];
  close(): Promise<void>;
}

/**
 * Round robin over `ports`, as any HTTP load balancer would: requests are forwarded with the
 * client's address appended to X-Forwarded-For, and a WebSocket upgrade is spliced through to
 * the chosen server as raw bytes (node:net), so the socket lives on that one server.
 */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  let next = 0;
  const served: number[] = [];
  const pick = () => {
    const port = ports[next++ % ports.length] as number;
    served.push(port);
    return port;
  };
  const forwarded = (headers: IncomingHttpHeaders, address: string | undefined) => {
    const before = headers["x-forwarded-for"];
    return [before, address].filter(Boolean).join(", ");
  };
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, "x-forwarded-for": forwarded(req.headers, req.socket.remoteAddress) };
    const up = request({ host: "127.0.0.1", port: pick(), method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  server.on("upgrade", (req, socket, head) => {
    const headers = { ...req.headers, "x-forwarded-for": forwarded(req.headers, req.socket.remoteAddress) };
    const up = connect(pick(), "127.0.0.1", () => {
      const lines = Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`]));
      up.write(`${req.method} ${req.url} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      socket.pipe(up).pipe(socket);
    });
    up.on("error", () => socket.destroy());
    socket.on("error", () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh PostgreSQL database for one test file; drop() removes it (after the servers stopped). */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  await requirePostgres();
  const name = `lookout_scale_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: POSTGRES_TEST_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_TEST_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** A ClickHouse URL naming a database of the test's own (the servers create it). */
export function clickHouseDatabaseUrl(serverUrl: string, label: string): { url: string; database: string } {
  const database = clickHouseTestDatabase(label);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return { url: url.toString().replace(/\/$/, ""), database };
}

/** Runs a read on ClickHouse's HTTP interface and returns its rows. */
export async function clickHouseRows<T>(serverUrl: string, database: string, sql: string): Promise<T[]> {
  const url = new URL("/", serverUrl);
  url.searchParams.set("database", database);
  const r = await fetch(url, { method: "POST", body: `${sql} FORMAT JSON` });
  const text = await r.text();
  if (!r.ok) throw new Error(`ClickHouse: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T[] }).data;
}

/** Polls `check` until it returns true (or `ms` pass, then throws with `what`). */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sends one collector event and answers its status. */
export async function sendEvent(base: string, body: Record<string, unknown>, forwardedFor?: string): Promise<number> {
  const r = await fetch(`${base}/api/event`, {
    method: "POST",
    headers: {
      "content-type": "text/plain",
      "user-agent": CHROME,
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    body: JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r.status;
}
