// @lookout/schema: the zod schemas and types that web, server and tracker share. Nothing else is shared.

export * from "./auth.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./live.js";
export * from "./property.js";
export * from "./query.js";
export * from "./tracker.js";
