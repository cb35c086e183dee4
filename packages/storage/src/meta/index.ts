export * from "./ids.js";
export * from "./meta-store.js";
export type { AccountMembership } from "./repos/accounts.js";
export { API_KEY_PREFIX, type ResolvedApiKey } from "./repos/api-keys.js";
export type { OutboxMail } from "./repos/outbox.js";
export { RESET_TTL_MS } from "./repos/password-resets.js";
export { DEFAULT_PROPERTY_SETTINGS } from "./repos/properties.js";
export * from "./tables.js";
