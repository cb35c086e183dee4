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
      const copy = jsonCopy(message);
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

/** Marks a value the direct copy leaves to JSON itself. */
const NOT_PLAIN = Symbol("not plain");
/** Deeper than any message: JSON's own walk decides (it throws on a cycle). */
const MAX_DEPTH = 64;

/**
 * JSON.parse(JSON.stringify(value)), built directly when the value is plain data (strings,
 * numbers, booleans, null, plain objects and arrays), which costs half as much as printing and
 * parsing text: the collector publishes a message for every batch it stores. Whatever JSON treats
 * specially (toJSON, dates, holes, undefined in arrays, cycles...) goes through JSON itself.
 */
export function jsonCopy(value: unknown): unknown {
  const copy = plainCopy(value, 0);
  return copy === NOT_PLAIN ? JSON.parse(JSON.stringify(value)) : copy;
}

function plainCopy(v: unknown, depth: number): unknown {
  if (typeof v === "string" || typeof v === "boolean" || v === null) return v;
  // As JSON prints them: -0 as 0, NaN and the infinities as null.
  if (typeof v === "number") return Number.isFinite(v) ? v + 0 : null;
  if (typeof v !== "object" || depth > MAX_DEPTH) return NOT_PLAIN;
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return NOT_PLAIN;
  const proto = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) return NOT_PLAIN;
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      // A hole or an undefined becomes null in JSON: not plain.
      const c = v[i] === undefined ? NOT_PLAIN : plainCopy(v[i], depth + 1);
      if (c === NOT_PLAIN) return NOT_PLAIN;
      out.push(c);
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    // Assigning "__proto__" would set the prototype where JSON.parse makes a property.
    if (key === "__proto__") return NOT_PLAIN;
    const x = (v as Record<string, unknown>)[key];
    // JSON leaves these keys out.
    if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
    const c = plainCopy(x, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    out[key] = c;
  }
  return out;
}
