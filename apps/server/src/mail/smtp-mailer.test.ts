// The SMTP path against a real in-process SMTP server (smtp-server): the Mailer adapter alone,
// and a password recovery whose link arrives by SMTP.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test-support.js";
import { smtpMailer } from "./mailer.js";

interface Received {
  from: string;
  to: string[];
  data: string;
}

let server: SMTPServer;
let url: string;
const inbox: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString("utf8")));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe("SMTP mailer", () => {
  it("delivers a message with sender, recipient, subject and body", async () => {
    const mailer = smtpMailer(url, "Lookout <no-reply@lookout.test>");
    await mailer.send({ to: "someone@example.com", subject: "Hello there", text: "Body line" });
    await mailer.close();
    const m = inbox.at(-1)!;
    expect(m.from).toBe("no-reply@lookout.test");
    expect(m.to).toEqual(["someone@example.com"]);
    expect(m.data).toContain("Subject: Hello there");
    expect(m.data).toContain("Body line");
  });

  it("sends the password recovery link over SMTP when SMTP_URL is configured", async () => {
    const mailer = smtpMailer(url, "Lookout <no-reply@lookout.test>");
    const t = await createTestApp("pglite", { mailer, env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" } });
    try {
      await t.user("smtp-user@example.com");
      const r = await t.app.inject({
        method: "POST",
        url: "/wp-json/custom/v1/recover-password",
        payload: { user_email: "smtp-user@example.com" },
      });
      expect(r.statusCode).toBe(200);
      const m = inbox.at(-1)!;
      expect(m.to).toEqual(["smtp-user@example.com"]);
      expect(m.data.replace(/=\r\n/g, "")).toMatch(/https:\/\/stats\.example\.com\/reset-password\?token=[\w-]{40,}/);
      expect(await t.meta.outbox.list()).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
