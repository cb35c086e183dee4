// The demo site's one lookup: the property its pages track.
import { PROPERTY_ID_RE } from "@lookout/schema";
import type { MetaStore, PropertyRow } from "@lookout/storage";

export function createDemoService({ meta }: { meta: MetaStore }) {
  return {
    /** The property named by `id`, or without one the install's demo property. */
    async property(id?: string): Promise<PropertyRow | undefined> {
      // An id of any other shape names no property: not found, without asking the store.
      if (id !== undefined && !PROPERTY_ID_RE.test(id)) return undefined;
      if (id) return meta.properties.findByUniqueId(id);
      const all = await meta.properties.listAll();
      return all.find((p) => p.is_demo);
    },
  };
}
