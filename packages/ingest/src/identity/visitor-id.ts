// Who a visitor is. With storage, the tracker's random client id is the visitor. In cookieless
// mode (or when the browser could not store an id) the visitor is a keyed hash of the day's salt,
// the property, the IP and the user agent: stable for one day on one site, unlinkable across
// days (the salt rotates and is deleted) and across sites (the property is hashed in). The raw IP
// goes into the hash and nowhere else.
import { createHmac } from "node:crypto";
import type { DailySalts } from "./salts.js";

export interface VisitorIdentity {
  visitor_id: string;
  /** The stored client id: the tracker's id, or the hash when there is none (live views count it). */
  client_id: string;
}

export interface VisitorInput {
  property: string;
  /** The tracker's stored id, if it sent one. */
  clientId: string | undefined;
  /** The property promises visitors no stored identifiers: any client id sent is ignored. */
  cookieless: boolean;
  ip: string;
  userAgent: string;
  now: Date;
}

/** 128 bits of HMAC-SHA256, hex. JSON framing keeps field boundaries unambiguous. */
export function cookielessHash(salt: string, property: string, ip: string, userAgent: string): string {
  return createHmac("sha256", salt)
    .update(JSON.stringify([property, ip, userAgent]))
    .digest("hex")
    .slice(0, 32);
}

export class VisitorIds {
  constructor(private readonly salts: DailySalts) {}

  async resolve(input: VisitorInput): Promise<VisitorIdentity> {
    if (!input.cookieless && input.clientId) return { visitor_id: input.clientId, client_id: input.clientId };
    const salt = await this.salts.salt(input.now);
    const id = cookielessHash(salt, input.property, input.ip, input.userAgent);
    return { visitor_id: id, client_id: id };
  }
}
