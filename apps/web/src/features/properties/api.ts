// The properties calls: SPEC.md §7's form-encoded list for the picker, and the management API
// (DESIGN.md §5) for the Settings sections. Answers are parsed with the shared schemas.
import {
  type AdminProperty,
  AdminPropertyListSchema,
  AdminPropertySchema,
  type ClientAddress,
  ClientAddressSchema,
  type InstallStatus,
  InstallStatusSchema,
  type Property,
  PropertySchema,
  type PropertySettingsAnswer,
} from "@lookout/schema";
import { request } from "../../lib/http";

const PropertyListSchema = PropertySchema.array();

export async function getProperties(accountId: string, signal?: AbortSignal): Promise<Property[]> {
  const data = await request("POST", "/static-api/get-properties", { form: { accountId }, signal });
  return PropertyListSchema.parse(data);
}

const one = (id: string) => `/api/v1/properties/${encodeURIComponent(id)}`;

export async function listAdminProperties(accountId: string, signal?: AbortSignal): Promise<AdminProperty[]> {
  const data = await request("GET", `/api/v1/properties?accountId=${encodeURIComponent(accountId)}`, { signal });
  return AdminPropertyListSchema.parse(data);
}

export async function getAdminProperty(id: string, signal?: AbortSignal): Promise<AdminProperty> {
  return AdminPropertySchema.parse(await request("GET", one(id), { signal }));
}

export interface PropertyFields {
  name: string;
  website_url: string;
  timezone: string;
}

export async function createProperty(accountId: string, fields: PropertyFields): Promise<AdminProperty> {
  return AdminPropertySchema.parse(await request("POST", "/api/v1/properties", { json: { accountId, ...fields } }));
}

export type PropertyChange = Partial<PropertyFields> & { settings?: Partial<PropertySettingsAnswer> };

export async function updateProperty(id: string, change: PropertyChange): Promise<AdminProperty> {
  return AdminPropertySchema.parse(await request("PATCH", one(id), { json: change }));
}

export async function deleteProperty(id: string): Promise<void> {
  await request("DELETE", one(id));
}

export async function resetProperty(id: string): Promise<void> {
  await request("POST", `${one(id)}/reset`);
}

export async function getInstallStatus(id: string, signal?: AbortSignal): Promise<InstallStatus> {
  return InstallStatusSchema.parse(await request("GET", `${one(id)}/install-status`, { signal }));
}

export async function getClientAddress(id: string): Promise<ClientAddress> {
  return ClientAddressSchema.parse(await request("GET", `${one(id)}/client-address`));
}
