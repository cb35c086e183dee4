// The CLI's commands: each parses its own flags strictly and runs against the opened Services.
import { parseArgs } from "node:util";
import { isValidTimezone } from "@lookout/schema";
import { addProperty, checkPassword, createUserWithAccount, ProvisionError } from "../accounts/provision.js";
import { generatePassword, hashPassword } from "../auth/passwords.js";
import { checkAccount } from "../billing/usage-job.js";
import type { Config } from "../config/config.js";
import { generateHistory } from "../demo/demo-site.js";
import type { Services } from "../services.js";
import { runLiveTraffic } from "./live-traffic.js";

export class UsageError extends Error {}

type Flags = Record<string, string | undefined>;
type Print = (line: string) => void;

export interface Command {
  usage: string;
  summary: string;
  parse(argv: string[]): Flags;
  run(rt: Services, flags: Flags, print: Print): Promise<void>;
  /** Commands that talk to a running server instead of the stores (the data dir stays free). */
  withoutStore?(flags: Flags, config: Config, print: Print): Promise<void> | null;
}

function flags(argv: string[], names: string[], required: string[], usage: string, booleans: string[] = []): Flags {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options: Record<string, { type: "string" | "boolean" }> = {};
    for (const n of names) options[n] = { type: "string" };
    for (const n of booleans) options[n] = { type: "boolean" };
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nusage: ${usage}`);
  }
  for (const r of required) {
    if (typeof values[r] !== "string" || values[r] === "") throw new UsageError(`--${r} is required\nusage: ${usage}`);
  }
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === true ? "true" : v])) as Flags;
}

function command(spec: {
  usage: string;
  summary: string;
  options: string[];
  booleans?: string[];
  required: string[];
  run: Command["run"];
  withoutStore?: Command["withoutStore"];
}): Command {
  return {
    usage: spec.usage,
    summary: spec.summary,
    parse: (argv) => flags(argv, spec.options, spec.required, spec.usage, spec.booleans),
    run: spec.run,
    ...(spec.withoutStore ? { withoutStore: spec.withoutStore } : {}),
  };
}

function count(f: Flags, name: string, fallback: number, max: number): number {
  const v = f[name];
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
  return Number(v);
}

/** The metadata store's `settings` table (migration 0002): install-wide values by key. */
type SettingsTables = { settings: { key: string; value: string } };

/**
 * Where the server is reached, for the snippet: LOOKOUT_PUBLIC_URL, else the address the owner
 * first signed in from (recorded as e-mailed links use it), else this configuration's local port.
 */
export async function serverAddress(rt: Pick<Services, "config" | "meta">): Promise<string> {
  if (rt.config.publicUrl) return rt.config.publicUrl;
  const recorded = await rt.meta.db
    .withTables<SettingsTables>()
    .selectFrom("settings")
    .select("value")
    .where("key", "=", "public_url")
    .executeTakeFirst();
  return recorded?.value.replace(/\/+$/, "") ?? `http://localhost:${rt.config.port}`;
}

export const COMMANDS: Record<string, Command> = {
  "user:create": command({
    usage: "user:create --email E [--password P] [--name N]",
    summary: "Creates a user with an account of their own; prints a generated password when none is given.",
    options: ["email", "password", "name"],
    required: ["email"],
    async run(rt, f, print) {
      const created = await createUserWithAccount(rt.meta, {
        email: f.email ?? "",
        ...(f.password !== undefined ? { password: f.password } : {}),
        ...(f.name !== undefined ? { name: f.name } : {}),
      });
      print(`Created user ${created.user.email} (account ${created.accountId}).`);
      if (created.generated) print(`Password (shown once): ${created.password}`);
    },
  }),
  "user:reset-password": command({
    usage: "user:reset-password --email E [--password P]",
    summary: "Sets a user's password (generated and printed when none is given) and signs them out everywhere.",
    options: ["email", "password"],
    required: ["email"],
    async run(rt, f, print) {
      const user = await rt.meta.users.findByEmail(f.email ?? "");
      if (!user) throw new ProvisionError(`no user with the e-mail ${f.email}`);
      const password = f.password ?? generatePassword();
      checkPassword(password);
      await rt.meta.users.setPasswordHash(user.id, await hashPassword(password));
      await rt.meta.tokens.revokeAllForUser(user.id);
      await rt.meta.audit.record({ action: "password.reset_cli", userId: user.id });
      print(`Password of ${user.email} changed; their sessions were signed out.`);
      if (f.password === undefined) print(`New password (shown once): ${password}`);
    },
  }),
  "property:create": command({
    usage: "property:create --email E --url URL [--name N] [--timezone TZ]",
    summary: "Adds a property to the user's first account and prints its unique_id for the tracker snippet.",
    options: ["email", "url", "name", "timezone"],
    required: ["email", "url"],
    async run(rt, f, print) {
      const url = f.url ?? "";
      try {
        const u = new URL(url);
        if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
      } catch {
        throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
      }
      const timezone = f.timezone ?? "UTC";
      if (!isValidTimezone(timezone))
        throw new UsageError(`--timezone must be an IANA timezone such as Europe/Berlin, got "${timezone}"`);
      const user = await rt.meta.users.findByEmail(f.email ?? "");
      if (!user) throw new ProvisionError(`no user with the e-mail ${f.email}`);
      const account = (await rt.meta.accounts.listForUser(user.id))[0];
      if (!account) throw new ProvisionError(`${user.email} belongs to no account`);
      const p = await addProperty(rt.meta, account.id, { url, name: f.name, timezone });
      print(p.unique_id);
      process.stderr.write(
        `Created property "${p.name}" in ${account.name}. Add to your pages:\n  <script defer src="${await serverAddress(rt)}/js/script.js" data-property="${p.unique_id}"></script>\n`,
      );
    },
  }),
  "apikey:create": command({
    usage: "apikey:create --email E [--name N]",
    summary: "Creates a read-only Stats API key for the user's first account and prints it once.",
    options: ["email", "name"],
    required: ["email"],
    async run(rt, f, print) {
      const user = await rt.meta.users.findByEmail(f.email ?? "");
      if (!user) throw new ProvisionError(`no user with the e-mail ${f.email}`);
      const account = (await rt.meta.accounts.listForUser(user.id))[0];
      if (!account) throw new ProvisionError(`${user.email} belongs to no account`);
      const { key } = await rt.meta.apiKeys.create({ userId: user.id, accountId: account.id, name: f.name ?? "Stats API" });
      await rt.meta.audit.record({ action: "apikey.create", userId: user.id, accountId: account.id });
      print(key);
      process.stderr.write(`Read-only API key for ${account.name}; shown once. Use it as "Authorization: Bearer <key>".\n`);
    },
  }),
  "billing:plan": command({
    usage: "billing:plan --email E --plan P [--anchor YYYY-MM-DD]",
    summary:
      "Puts the user's first account on a plan of the plans file without the payment provider (a custom or manual plan), with its billing anchor (periods start on that day at 00:00 UTC).",
    options: ["email", "plan", "anchor"],
    required: ["email", "plan"],
    async run(rt, f, print) {
      const plan = rt.config.billing.plans.plans.find((p) => p.id === f.plan);
      if (!plan) {
        throw new UsageError(
          `--plan must be one of ${rt.config.billing.plans.plans.map((p) => p.id).join(", ")}, got "${f.plan}"`,
        );
      }
      const anchor = f.anchor === undefined ? undefined : new Date(`${f.anchor}T00:00:00Z`);
      if (anchor && (!/^\d{4}-\d{2}-\d{2}$/.test(f.anchor ?? "") || Number.isNaN(anchor.getTime()))) {
        throw new UsageError(`--anchor must be a date YYYY-MM-DD, got "${f.anchor}"`);
      }
      const user = await rt.meta.users.findByEmail(f.email ?? "");
      if (!user) throw new ProvisionError(`no user with the e-mail ${f.email}`);
      const account = (await rt.meta.accounts.listForUser(user.id))[0];
      if (!account) throw new ProvisionError(`${user.email} belongs to no account`);
      await rt.meta.billing.upsertSubscription(account.id, plan.id, { plan: plan.id, ...(anchor ? { anchor } : {}) });
      await rt.meta.audit.record({
        action: "billing.plan_set_cli",
        accountId: account.id,
        detail: { plan: plan.id, anchor: f.anchor ?? null },
      });
      print(`${account.name} is on the ${plan.name} plan${anchor ? ` (periods from ${f.anchor})` : ""}.`);
    },
  }),
  "billing:check": command({
    usage: "billing:check [--email E] [--now ISO-INSTANT]",
    summary:
      "Runs the billing usage check now (or as of --now) for the user's first account or every account: grace periods, locks and the threshold e-mails, as the server's hourly job does.",
    options: ["email", "now"],
    required: [],
    async run(rt, f, print) {
      const now = f.now === undefined ? new Date() : new Date(f.now);
      if (Number.isNaN(now.getTime())) throw new UsageError(`--now must be an ISO 8601 instant, got "${f.now}"`);
      let ids: string[];
      if (f.email !== undefined) {
        const user = await rt.meta.users.findByEmail(f.email);
        if (!user) throw new ProvisionError(`no user with the e-mail ${f.email}`);
        ids = (await rt.meta.accounts.listForUser(user.id)).slice(0, 1).map((a) => a.id);
      } else ids = await rt.meta.billing.accountIds();
      for (const id of ids) {
        const sent = await checkAccount(rt, id, now);
        const s = await rt.billing.state(id, now);
        print(
          `${id}: ${rt.billing.mode === "off" ? "self_hosted" : s.ladder.status}, ${s.usage.current.events} billable events this period${sent.length ? `, e-mailed ${sent.join(", ")}` : ""}`,
        );
      }
    },
  }),
  "property:delete": command({
    usage: "property:delete --property ID",
    summary: "Deletes a property (the demo site, say) with all its events and visitor profiles.",
    options: ["property"],
    required: ["property"],
    async run(rt, f, print) {
      const property = await rt.meta.properties.findByUniqueId(f.property ?? "");
      if (!property) throw new ProvisionError(`no property with the unique_id ${f.property}`);
      await rt.meta.properties.delete(property.unique_id);
      await rt.events.deleteProperty(property.unique_id);
      await rt.meta.audit.record({
        action: "property.delete_cli",
        accountId: property.account_id,
        detail: { unique_id: property.unique_id },
      });
      print(`Deleted ${property.name} (${property.unique_id}) and its data.`);
    },
  }),
  generate: command({
    usage:
      "generate --property ID [--days 90] [--visitors 5000] [--seed 1] | generate --property ID --live [--url URL] [--concurrent 10]",
    summary:
      "Writes realistic generated history for a property straight into the store, or with --live keeps simulated visitors browsing a running server through its collector.",
    options: ["property", "days", "visitors", "seed", "url", "concurrent"],
    booleans: ["live"],
    required: ["property"],
    async run(rt, f, print) {
      const days = count(f, "days", 90, 3650);
      const visitors = count(f, "visitors", 5000, 10_000_000);
      const property = await rt.meta.properties.findByUniqueId(f.property ?? "");
      if (!property) throw new ProvisionError(`no property with the unique_id ${f.property}`);
      const started = Date.now();
      const n = await generateHistory(rt.events, {
        property: property.unique_id,
        days,
        visitors,
        seed: count(f, "seed", 1, 2 ** 31),
        hostname: new URL(property.website_url).hostname,
      });
      print(
        `Wrote ${n} events over ${days} days for ${property.name} (${property.unique_id}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    },
    withoutStore(f, config, print) {
      if (f.live !== "true") return null;
      const url = f.url ?? config.publicUrl ?? `http://localhost:${config.port}`;
      return runLiveTraffic({ url, property: f.property ?? "", concurrent: count(f, "concurrent", 10, 10_000), print });
    },
  }),
};
