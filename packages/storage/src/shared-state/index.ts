export * from "./lru.js";
export * from "./redis-shared-state.js";
export * from "./shared-state.js";
