// The embedded mail outbox: mail kept in the metadata store when no SMTP server is configured.
import type { Kysely } from "kysely";
import type { MetaDatabase } from "../tables.js";

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export function outboxRepo(db: Kysely<MetaDatabase>) {
  return {
    async add(mail: OutboxMail): Promise<void> {
      await db
        .insertInto("mail_outbox")
        .values({ to_addr: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html ?? null })
        .execute();
    },
    list(limit = 50) {
      return db.selectFrom("mail_outbox").selectAll().orderBy("id", "desc").limit(limit).execute();
    },
  };
}
