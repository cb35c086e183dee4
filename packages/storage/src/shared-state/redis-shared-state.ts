// SharedState over Redis (REDIS_URL): every server of an installation reads and writes the same
// throttles, buckets, marks and visits. Each rule is one Lua script, so a read-decide-write is
// atomic however many servers race on a key (two servers seeing a visitor's events at once agree
// on its visit; parallel sign-in guesses on N servers count against one window). Every key has a
// TTL, so Redis holds only what is live: a window's length, a bucket's refill time, a mark's life,
// twice a visit's time-out.
//
// Offline queueing is off: with Redis down a call fails at once rather than waiting, and the
// caller decides (the collector keeps collecting; see the README, "Running at scale").
import { createHash, randomBytes } from "node:crypto";
import type { SharedState } from "./shared-state.js";

/** KEYS[1] a sorted set of hit times; ARGV now, windowMs, limit, member. */
const HIT = `
local now = tonumber(ARGV[1]); local win = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(first[2]) + win - now
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], win)
return 0`;

/** KEYS[1] a hash {tokens, at}; ARGV now, perSecond, burst. Answers the wait in ms. */
const TAKE = `
local now = tonumber(ARGV[1]); local rate = tonumber(ARGV[2]); local burst = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + (math.max(0, now - at) / 1000) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil(((1 - tokens) / rate) * 1000) end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', math.max(at, now)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return wait`;

/** KEYS[1] a hash {id, last}; ARGV ts, timeoutMs, candidate id, ttl. Answers the visit id. */
const VISIT = `
local ts = tonumber(ARGV[1]); local timeout = tonumber(ARGV[2])
local prev = redis.call('HMGET', KEYS[1], 'id', 'last')
local last = tonumber(prev[2])
if prev[1] and math.abs(ts - last) < timeout then
  if ts > last then redis.call('HSET', KEYS[1], 'last', ARGV[1]) end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return prev[1]
end
if (not prev[1]) or ts > last then
  redis.call('HSET', KEYS[1], 'id', ARGV[3], 'last', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return ARGV[3]`;

/** KEYS[1] as VISIT; ARGV id, ts, ttl: set unless a newer visit is known. */
const SEED = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last'))
if (not last) or last < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'id', ARGV[1], 'last', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 0`;

type Script = { text: string; sha: string };
const script = (text: string): Script => ({ text, sha: createHash("sha1").update(text).digest("hex") });
const SCRIPTS = { hit: script(HIT), take: script(TAKE), visit: script(VISIT), seed: script(SEED) };

/** `prefix` keeps installations (and test runs) sharing one Redis apart. */
export async function redisSharedState(url: string, prefix = "lookout:"): Promise<SharedState> {
  // ioredis loads only when REDIS_URL is set.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  await redis.connect();
  let seq = 0;
  // Tells this process's window entries from another server's at the same millisecond: from crypto, as every generated name.
  const tag = randomBytes(6).toString("base64url");

  /** EVALSHA, loading the script on a server that does not know it yet (first use, a restart). */
  async function run(s: Script, key: string, ...args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(s.sha, 1, key, ...args);
    } catch (err) {
      if (!String((err as Error).message).startsWith("NOSCRIPT")) throw err;
      return redis.eval(s.text, 1, key, ...args);
    }
  }
  const k = (kind: string, key: string) => `${prefix}${kind}:${key}`;

  return {
    kind: "redis",
    async hit(key, rule, now) {
      // Members are unique per hit: two hits in one millisecond are two hits.
      const member = `${now}:${tag}:${seq++}`;
      return Number(await run(SCRIPTS.hit, k("w", key), now, rule.windowMs, rule.limit, member));
    },
    async count(key, rule, now) {
      return redis.zcount(k("w", key), `(${now - rule.windowMs}`, "+inf");
    },
    async undo(key) {
      await redis.zpopmax(k("w", key));
    },
    async reset(key) {
      await redis.del(k("w", key));
    },
    async take(key, rule, now) {
      return Number(await run(SCRIPTS.take, k("b", key), now, rule.perSecond, rule.burst));
    },
    async mark(key, ttlMs) {
      await redis.set(k("m", key), "1", "PX", Math.max(1, Math.ceil(ttlMs)));
    },
    async marked(key) {
      return (await redis.exists(k("m", key))) === 1;
    },
    async visit(key, ts, timeoutMs, newId) {
      return String(await run(SCRIPTS.visit, k("v", key), ts, timeoutMs, newId(), timeoutMs * 2));
    },
    async seedVisit(key, visitId, ts, timeoutMs) {
      await run(SCRIPTS.seed, k("v", key), visitId, ts, timeoutMs * 2);
    },
    async close() {
      redis.disconnect();
    },
  };
}
