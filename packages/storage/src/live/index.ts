export * from "./live-bus.js";
export * from "./redis-live-bus.js";
