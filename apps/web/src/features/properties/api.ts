// The properties call of SPEC.md §7: form-encoded accountId with the stored bearer token; the
// answer is checked against the shared Property schema.
import { type Property, PropertySchema } from "@lookout/schema";
import { request } from "../../lib/http";

const PropertyListSchema = PropertySchema.array();

export async function getProperties(accountId: string, signal?: AbortSignal): Promise<Property[]> {
  const data = await request("POST", "/static-api/get-properties", { form: { accountId }, signal });
  return PropertyListSchema.parse(data);
}
