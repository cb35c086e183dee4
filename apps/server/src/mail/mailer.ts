// The Mailer interface, with its two adapters: SMTP (nodemailer, when SMTP_URL is set) and the
// embedded outbox (kept in the metadata store and printed to the log).
import type { MetaStore, OutboxMail } from "@lookout/storage";
import type { Transporter } from "nodemailer";

/** A file sent with the mail; `cid` makes it an inline part (`<img src="cid:...">`). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

/** The outbox keeps subject and bodies only: attachments and headers go by SMTP alone. */
export type Mail = OutboxMail & { attachments?: MailAttachment[]; headers?: Record<string, string> };

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

export function smtpMailer(url: string, from: string): Mailer {
  // nodemailer loads with the first mail, not with the server (the embedded outbox needs none of it).
  let transport: Promise<Transporter> | undefined;
  const open = () => (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  return {
    async send(mail) {
      await (await open()).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.attachments ? { attachments: mail.attachments } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    },
    async close() {
      (await transport)?.close();
    },
  };
}

export function outboxMailer(meta: MetaStore, print: (line: string) => void): Mailer {
  return {
    async send(mail) {
      await meta.outbox.add({ to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
      print(`[mail outbox] to=${mail.to} subject=${JSON.stringify(mail.subject)}\n${mail.text}\n`);
    },
    async close() {},
  };
}
