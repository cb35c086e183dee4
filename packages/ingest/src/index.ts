// @lookout/ingest: collector-side processing (DESIGN.md §2). Validated tracker bodies are enriched
// (UA, bot, geo, referrer/channel, URL), given a visitor and a session, and returned as EventRows
// for the server to buffer and store.

export * from "./buffer/group-commit.js";
export * from "./enrich/bot.js";
export * from "./enrich/channel.js";
export * from "./enrich/geo.js";
export * from "./enrich/glob.js";
export * from "./enrich/index.js";
export * from "./enrich/ip.js";
export * from "./enrich/referrer.js";
export * from "./enrich/rules.js";
export * from "./enrich/sources.js";
export * from "./enrich/ua.js";
export * from "./enrich/url.js";
export * from "./identity/salts.js";
export * from "./identity/sessionizer.js";
export * from "./identity/visitor-id.js";
export * from "./lru.js";
