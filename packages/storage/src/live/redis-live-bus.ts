// The LiveBus over Redis pub/sub (REDIS_URL): one publishing and one subscribing connection per
// process. Channels are prefixed so several installations can share a Redis.
import type { BusHandler, LiveBus } from "./live-bus.js";

export async function redisLiveBus(url: string, prefix = "lookout:"): Promise<LiveBus> {
  // ioredis loads only when REDIS_URL is set.
  const { Redis } = await import("ioredis");
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await Promise.all([pub.connect(), sub.connect()]);
  const channels = new Map<string, Set<BusHandler>>();
  sub.on("message", (channel: string, raw: string) => {
    const handlers = channels.get(channel.slice(prefix.length));
    if (!handlers) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    for (const h of handlers) h(message);
  });
  return {
    kind: "redis",
    async publish(channel, message) {
      await pub.publish(prefix + channel, JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      let set = channels.get(channel);
      if (!set) {
        channels.set(channel, (set = new Set()));
        await sub.subscribe(prefix + channel);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0) {
          channels.delete(channel);
          void sub.unsubscribe(prefix + channel).catch(() => {});
        }
      };
    },
    async close() {
      channels.clear();
      sub.disconnect();
      pub.disconnect();
    },
  };
}
