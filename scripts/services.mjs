// Makes sure the services the integration tests talk to are running: PostgreSQL and Redis on this
// machine. Starts them when stopped; under CI=true a service that cannot be had is a hard error.
import { execSync } from "node:child_process";
import { createConnection } from "node:net";

const reachable = (port) =>
  new Promise((res) => {
    const s = createConnection({ host: "127.0.0.1", port }, () => {
      s.end();
      res(true);
    });
    s.on("error", () => res(false));
    s.setTimeout(2000, () => {
      s.destroy();
      res(false);
    });
  });

const STARTERS = {
  PostgreSQL: { port: 5432, cmd: "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start" },
  Redis: { port: 6379, cmd: 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no' },
};

export async function ensureServices(names = Object.keys(STARTERS)) {
  const missing = [];
  for (const name of names) {
    const s = STARTERS[name];
    if (await reachable(s.port)) continue;
    try {
      execSync(s.cmd, { stdio: "ignore", shell: "/bin/bash" });
    } catch {}
    for (let i = 0; i < 20 && !(await reachable(s.port)); i++) await new Promise((r) => setTimeout(r, 250));
    if (!(await reachable(s.port))) missing.push(`${name} (127.0.0.1:${s.port})`);
  }
  if (missing.length) {
    const msg = `services not reachable and could not be started: ${missing.join(", ")}`;
    if (process.env.CI === "true") throw new Error(msg);
    process.stderr.write(`[services] ${msg}; the tests that need them will fail\n`);
  }
}
