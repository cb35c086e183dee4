// The LiveBus: fan-out of small JSON messages between the collector and the dashboard sockets.
// In-process for the embedded mode; Redis pub/sub when several servers share the work.
export type BusHandler = (message: unknown) => void;

export interface LiveBus {
  readonly kind: "memory" | "redis";
  /** Delivers `message` to every subscriber of `channel`, in every process on the bus. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is active; returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): Promise<() => void>;
  close(): Promise<void>;
}

/** One process: handlers called synchronously-after-a-tick, messages cloned as JSON would. */
export function memoryLiveBus(): LiveBus {
  const channels = new Map<string, Set<BusHandler>>();
  return {
    kind: "memory",
    async publish(channel, message) {
      const handlers = channels.get(channel);
      if (!handlers?.size) return;
      const copy = JSON.parse(JSON.stringify(message)) as unknown;
      for (const h of handlers) queueMicrotask(() => h(copy));
    },
    async subscribe(channel, handler) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    async close() {
      channels.clear();
    },
  };
}
