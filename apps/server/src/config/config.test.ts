// The scale-out variables (README "Running at scale"): validated at start, with the variable named.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

const CH = "http://default:secret@ch:8123/lookout";

describe("scale-out configuration", () => {
  it("prefixes Redis keys with lookout: unless told, and refuses a prefix Redis patterns would misread", () => {
    expect(loadConfig({}).redisPrefix).toBe("lookout:");
    expect(loadConfig({ LOOKOUT_REDIS_PREFIX: "site-b:" }).redisPrefix).toBe("site-b:");
    expect(() => loadConfig({ LOOKOUT_REDIS_PREFIX: "a*b" })).toThrow(/LOOKOUT_REDIS_PREFIX/);
  });

  it("reads a ClickHouse cluster from CLICKHOUSE_CLUSTER and CLICKHOUSE_SHARDS", () => {
    expect(loadConfig({ CLICKHOUSE_URL: CH }).clickhouseCluster).toBeUndefined();
    const c = loadConfig({
      CLICKHOUSE_URL: CH,
      CLICKHOUSE_CLUSTER: "lookout",
      CLICKHOUSE_SHARDS: "http://default:secret@ch1:8123, http://default:secret@ch2:8123",
    });
    expect(c.clickhouseCluster).toEqual({
      name: "lookout",
      shards: ["http://default:secret@ch1:8123", "http://default:secret@ch2:8123"],
    });
  });

  it("refuses half a cluster, a cluster without CLICKHOUSE_URL, and bad names or URLs", () => {
    expect(() => loadConfig({ CLICKHOUSE_URL: CH, CLICKHOUSE_CLUSTER: "lookout" })).toThrow(ConfigError);
    expect(() => loadConfig({ CLICKHOUSE_URL: CH, CLICKHOUSE_SHARDS: "http://ch1:8123" })).toThrow(ConfigError);
    expect(() => loadConfig({ CLICKHOUSE_CLUSTER: "lookout", CLICKHOUSE_SHARDS: "http://ch1:8123" })).toThrow(ConfigError);
    expect(() => loadConfig({ CLICKHOUSE_URL: CH, CLICKHOUSE_CLUSTER: "a-b", CLICKHOUSE_SHARDS: "http://ch1:8123" })).toThrow(
      /CLICKHOUSE_CLUSTER/,
    );
    expect(() => loadConfig({ CLICKHOUSE_URL: CH, CLICKHOUSE_CLUSTER: "c", CLICKHOUSE_SHARDS: "tcp://ch1:9000" })).toThrow(
      /CLICKHOUSE_SHARDS/,
    );
  });
});
