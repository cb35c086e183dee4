// One-click unsubscribe tokens: `<schedule id>.<recipient, base64url>.<HMAC-SHA256 of both>` under
// a server secret kept in the metadata store's `settings` table (created once, shared by every
// server on one database). A token names exactly one recipient of one schedule; no sign-in needed.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { MetaStore } from "@lookout/storage";

const SECRET_KEY = "report_unsubscribe_secret";
type SettingsTables = { settings: { key: string; value: string } };

export interface UnsubscribeTokens {
  sign(scheduleId: string, recipient: string): Promise<string>;
  /** The (schedule, recipient) a genuine token names; null for anything else. */
  verify(token: string): Promise<{ scheduleId: string; recipient: string } | null>;
}

export function unsubscribeTokens(meta: MetaStore): UnsubscribeTokens {
  const settings = meta.db.withTables<SettingsTables>();
  let secret: Promise<Buffer> | undefined;
  const load = () => {
    secret ??= (async () => {
      await settings
        .insertInto("settings")
        .values({ key: SECRET_KEY, value: randomBytes(32).toString("base64url") })
        .onConflict((oc) => oc.column("key").doNothing())
        .execute();
      const r = await settings.selectFrom("settings").select("value").where("key", "=", SECRET_KEY).executeTakeFirstOrThrow();
      return Buffer.from(r.value, "base64url");
    })().catch((err) => {
      secret = undefined;
      throw err;
    });
    return secret;
  };
  const mac = async (scheduleId: string, recipient: string) =>
    createHmac("sha256", await load())
      .update(`${scheduleId}\n${recipient.toLowerCase()}`)
      .digest();

  return {
    async sign(scheduleId, recipient) {
      const who = Buffer.from(recipient.toLowerCase(), "utf8").toString("base64url");
      return `${scheduleId}.${who}.${(await mac(scheduleId, recipient)).toString("base64url")}`;
    },
    async verify(token) {
      const parts = token.split(".");
      if (parts.length !== 3) return null;
      const [scheduleId, who, sig] = parts as [string, string, string];
      if (!scheduleId || !who || !sig || !/^[A-Za-z0-9_-]+$/.test(`${scheduleId}${who}${sig}`)) return null;
      const recipient = Buffer.from(who, "base64url").toString("utf8");
      const expected = await mac(scheduleId, recipient);
      const given = Buffer.from(sig, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { scheduleId, recipient };
    },
  };
}
