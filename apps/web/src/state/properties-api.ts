// The properties call of SPEC.md §7: form-encoded accountId with the stored bearer token.
import { type Property, PropertySchema } from "@lookout/schema";
import { request } from "../lib/http";

const PropertyListSchema = PropertySchema.array();

export async function getProperties(accountId: string): Promise<Property[]> {
  const data = await request("POST", "/static-api/get-properties", { form: { accountId } });
  return PropertyListSchema.parse(data);
}
