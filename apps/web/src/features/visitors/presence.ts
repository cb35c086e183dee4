// "Online now" for a visitor page: the live socket's list (add_customer / remove_customer, SPEC.md
// §4) once it is open, as it is news by the second; the profile's own `online` (from the server's
// presence at load, refreshed every minute) while the socket is not open. A person counts as
// online when any of their client ids is active on this property.
import { useMemo } from "react";
import { useLiveConnection, useLiveVisitors } from "../live/LiveProvider";

export function isOnline(
  entries: readonly { clientid: string; propertyId: string; active: boolean }[],
  propertyId: string,
  clientIds: readonly string[],
): boolean {
  return entries.some((e) => e.active && e.propertyId === propertyId && clientIds.includes(e.clientid));
}

export function useOnline(propertyId: string, clientIds: readonly string[], fromProfile: boolean): boolean {
  const { connection } = useLiveConnection();
  const entries = useLiveVisitors();
  const online = useMemo(() => isOnline(entries, propertyId, clientIds), [entries, propertyId, clientIds]);
  return connection.kind === "open" ? online : fromProfile;
}
