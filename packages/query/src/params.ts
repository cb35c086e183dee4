// Bound parameters: the only way a value reaches SQL text. Each distinct (type, value) gets one
// name (p1, p2, ...) so that the property predicate repeated in every subquery binds once.
import type { Dialect, ParamType } from "./dialects.js";
import { formatTimestamp } from "./tz.js";

export class Params {
  readonly values: Record<string, string> = {};
  /** The parameters of type "propertyKey": their value is a property, bound as its integer key. */
  readonly keyNames = new Set<string>();
  readonly #names = new Map<string, string>();

  constructor(private readonly dialect: Dialect) {}

  add(value: string, type: ParamType = "string"): string {
    const key = `${type}\u0000${value}`;
    let name = this.#names.get(key);
    if (!name) {
      name = `p${this.#names.size + 1}`;
      this.#names.set(key, name);
      this.values[name] = value;
      if (type === "propertyKey") this.keyNames.add(name);
    }
    return this.dialect.placeholder(name, type);
  }

  /** The parameters the final text uses (a helper may register one that a branch then drops). */
  usedIn(sql: string): Record<string, string> {
    const used: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.values)) {
      if (new RegExp(`[$]${name}\\b|[{]${name}:`).test(sql)) used[name] = value;
    }
    return used;
  }

  /** A UTC instant (whole seconds). */
  ts(ms: number): string {
    return this.add(formatTimestamp(ms), "timestamp");
  }
}

/** Integers are the one thing printed into SQL; they are checked first. */
export function int(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return n;
}
