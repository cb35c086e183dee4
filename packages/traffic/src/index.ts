// @lookout/traffic: synthetic traffic with realistic skew, for the demo property, the `generate`
// CLI command, tests and benchmarks (DESIGN.md §8).
export * from "./history.js";
export * from "./live.js";
