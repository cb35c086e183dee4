// The invite form's addresses: one box that takes a list pasted from anywhere (one a line, or
// separated by commas, semicolons or spaces, "Name <a@b>" too), each checked with the server's
// own e-mail rule, duplicates dropped (case-insensitive, as the server compares addresses).
import { INVITATION_BATCH_MAX, UserEmailSchema } from "@lookout/schema";

export type EmailList = { ok: true; emails: string[] } | { ok: false; message: string };

const ANGLED = /<([^<>]*)>/;

function addressOf(part: string): string {
  const angled = ANGLED.exec(part);
  return (angled ? angled[1] : part)?.trim() ?? "";
}

export function parseEmailList(text: string): EmailList {
  // "Ann Lee <ann@x.org>, bob@y.org": split on separators outside the angle brackets first.
  const parts = text
    .split(/[\n,;]+/)
    .flatMap((p) => (ANGLED.test(p) ? [p] : p.split(/\s+/)))
    .map(addressOf)
    .filter((p) => p !== "");
  if (parts.length === 0) return { ok: false, message: "Enter at least one e-mail address." };
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const part of parts) {
    const parsed = UserEmailSchema.safeParse(part);
    if (!parsed.success) return { ok: false, message: `Not an e-mail address: ${part}` };
    const key = parsed.data.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    emails.push(parsed.data);
  }
  if (emails.length > INVITATION_BATCH_MAX) {
    return { ok: false, message: `At most ${INVITATION_BATCH_MAX} addresses at once (${emails.length} given).` };
  }
  return { ok: true, emails };
}
