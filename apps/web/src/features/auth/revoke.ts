// Revokes the stored bearer token on the server (/logout). Apart from api.ts so the first page
// does not load the response schemas.
import { request } from "../../lib/http";

export async function revokeToken(): Promise<void> {
  await request("POST", "/api/auth/logout");
}
