// Invitation e-mails through a real in-process SMTP server (smtp-server): the link in the mail is
// `${LOOKOUT_PUBLIC_URL}/invite/{token}`, names the account and the inviter, and opening it (the
// public preview, then accept) joins the invited address with the role. A resend mails a new link.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpMailer } from "../mail/mailer.js";
import { createTestApp, type TestApp } from "../test-support.js";

interface Received {
  to: string[];
  data: string;
}

describe("invitation e-mails over SMTP", () => {
  let server: SMTPServer;
  let t: TestApp;
  const inbox: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, done) {
        let data = "";
        stream.on("data", (c: Buffer) => (data += c.toString("utf8")));
        stream.on("end", () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          done();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    t = await createTestApp("pglite", {
      mailer: smtpMailer(url, "Lookout <no-reply@lookout.test>"),
      env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  /** The invitation link of the newest mail to `to` (quoted-printable soft breaks undone). */
  const linkTo = (to: string) => {
    const m = [...inbox].reverse().find((x) => x.to.includes(to));
    const body = m?.data.replace(/=\r\n/g, "") ?? "";
    return { body, token: /https:\/\/stats\.example\.com\/invite\/([\w-]{40,})/.exec(body)?.[1] };
  };

  it("mails the link, which joins the invited address with the role", async () => {
    const owner = await t.user("smtp-owner@example.com");
    await t.meta.users.setName(owner.id, "Olga Owner");
    const { token: session } = await t.login(owner.email, owner.password);
    const auth = { authorization: `Bearer ${session}` };
    const invited = "smtp-invitee@example.com";
    const r = await t.app.inject({
      method: "POST",
      url: `/api/v1/accounts/${owner.accountId}/invitations`,
      headers: auth,
      payload: { emails: [invited], role: "editor" },
    });
    expect(r.statusCode, r.body).toBe(201);
    const { body, token } = linkTo(invited);
    expect(token).toBeDefined();
    expect(body).toMatch(/Subject: Olga Owner invited you to/);
    expect(body).toContain("72 hours");
    expect(await t.meta.outbox.list()).toHaveLength(0);

    const preview = await t.app.inject({ url: `/api/v1/invitations/${token}` });
    expect(preview.json()).toMatchObject({ email: invited, inviter_name: "Olga Owner", role: "editor", state: "valid" });

    // A resend mails a new link; the first stops working.
    const id = r.json()[0].id;
    const again = await t.app.inject({
      method: "POST",
      url: `/api/v1/accounts/${owner.accountId}/invitations/${id}/resend`,
      headers: auth,
    });
    expect(again.statusCode).toBe(200);
    const second = linkTo(invited).token;
    expect(second).not.toBe(token);
    expect((await t.app.inject({ url: `/api/v1/invitations/${token}` })).statusCode).toBe(404);

    const accept = await t.app.inject({
      method: "POST",
      url: "/api/v1/invitations/accept",
      payload: { token: second, name: "Ivy Invitee", password: "a-long-password-2" },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json()).toMatchObject({ accountId: owner.accountId, role: "editor", email: invited });
  });

  it("answers 502 when the mail server is unreachable, and leaves no pending invitation", async () => {
    // A port that was just free: nothing listens there.
    const probe = new SMTPServer({ authOptional: true });
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    const port = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const down = await createTestApp("pglite", {
      mailer: smtpMailer(`smtp://127.0.0.1:${port}`, "Lookout <no-reply@lookout.test>"),
      env: { LOOKOUT_PUBLIC_URL: "https://stats.example.com" },
    });
    try {
      const owner = await down.user("down-owner@example.com");
      const { token } = await down.login(owner.email, owner.password);
      const r = await down.app.inject({
        method: "POST",
        url: `/api/v1/accounts/${owner.accountId}/invitations`,
        headers: { authorization: `Bearer ${token}` },
        payload: { email: "nobody-gets-this@example.com", role: "viewer" },
      });
      expect(r.statusCode, r.body).toBe(502);
      expect(r.json()).toMatchObject({ code: "mail_failed" });
      expect(await down.meta.invitations.listPending(owner.accountId)).toEqual([]);
    } finally {
      await down.close();
    }
  });
});
