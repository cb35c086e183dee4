// Sends the browser to a page the server answered (the provider's checkout or portal), once it
// passes isFollowableUrl; a separate module so browser tests can watch the navigation itself.
import { isFollowableUrl } from "./billing-format";

/** Navigates to `url`, or answers false (and stays) when it is not an address to follow. */
export function goTo(url: string): boolean {
  if (!isFollowableUrl(url, window.location.origin)) return false;
  window.location.assign(url);
  return true;
}
