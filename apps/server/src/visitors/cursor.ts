// Opaque keyset cursors of the visitors list and a visitor's history: base64url of a small JSON
// position. Clients pass them back unchanged; anything that does not decode to a valid position
// of the right kind is a 400 (never a 500, never SQL: integers are checked before they are
// printed, strings become bound parameters).
import { CLIENT_ID_RE } from "@lookout/schema";
import { z } from "zod";
import { DomainError } from "../http/domain-errors.js";

const Ms = z.number().int().min(0).max(8.64e15);
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The history: the last visit shown (its start, epoch ms, and session id). */
export const HistoryCursorSchema = z.object({ k: z.literal("h"), ts: Ms, session_id: z.string().min(1).max(128) }).strict();
/** The list: the last visitor shown (its order key's value and client id) under one order. */
export const ListCursorSchema = z
  .object({
    k: z.literal("l"),
    order: z.enum(["last_seen", "first_seen", "visits", "events"]),
    key: Count,
    client_id: z.string().regex(CLIENT_ID_RE),
  })
  .strict();

export function encodeCursor(position: z.input<typeof HistoryCursorSchema> | z.input<typeof ListCursorSchema>): string {
  return Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
}

export function decodeCursor<T extends z.ZodType>(schema: T, cursor: string): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    json = undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new DomainError("invalid_parameter", "cursor: is not a cursor this call gave out; start again without it.", {
      param: "cursor",
    });
  }
  return parsed.data;
}
