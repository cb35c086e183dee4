// The Mailer interface, with its two adapters: SMTP (nodemailer, when SMTP_URL is set) and the
// embedded outbox (kept in the metadata store and printed to the log).
import type { MetaStore, OutboxMail } from "@lookout/storage";
import nodemailer from "nodemailer";

export type Mail = OutboxMail;

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    },
    async close() {
      transport.close();
    },
  };
}

export function outboxMailer(meta: MetaStore, print: (line: string) => void): Mailer {
  return {
    async send(mail) {
      await meta.outbox.add(mail);
      print(`[mail outbox] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}\n`);
    },
    async close() {},
  };
}
