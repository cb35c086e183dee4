// @lookout/schema: the zod schemas and types that web, server and tracker share. Nothing else is shared.

export * from "./account-admin.js";
export * from "./api-answers.js";
export * from "./auth.js";
export * from "./auth-forms.js";
export * from "./batch.js";
export * from "./billing.js";
export * from "./csv.js";
export * from "./date-presets.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./filter-grammar.js";
export * from "./goals.js";
export * from "./insights/index.js";
export * from "./intervals.js";
export * from "./live.js";
export * from "./property.js";
export * from "./property-admin.js";
export * from "./query.js";
export * from "./reports.js";
export * from "./roles.js";
export * from "./shared-links.js";
export * from "./stats-answers.js";
export * from "./strings.js";
export * from "./team.js";
export * from "./tracker.js";
export * from "./visitors.js";
