import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requireRedis } from "../test-services.js";
import { liveBusConformance } from "./conformance.js";
import { jsonCopy, memoryLiveBus } from "./live-bus.js";
import { redisLiveBus } from "./redis-live-bus.js";

liveBusConformance("memory", async () => memoryLiveBus(), false);

const prefix = `lookout-test-${process.pid}-${Date.now()}:`;
liveBusConformance("redis", async () => redisLiveBus(await requireRedis(), prefix), true);

describe("jsonCopy", () => {
  const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v));
  const outcome = (copy: (v: unknown) => unknown, v: unknown) => {
    try {
      const value = copy(v);
      return { value, text: JSON.stringify(value) };
    } catch (err) {
      return { error: (err as Error).constructor.name };
    }
  };
  const odd = fc.constantFrom(
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    undefined,
    "__proto__",
    "\ud800",
    () => 1,
    new Date(0),
    {
      toJSON: () => "x",
    },
    Object.assign(new Array(3), { 0: 1, 2: 3 }),
    [undefined],
    JSON.parse('{"__proto__":{"a":1}}'),
    1n,
    new Map([[1, 2]]),
    Object.assign([1], { extra: 1 }),
  );
  const value = fc.oneof(
    fc.anything({
      withBoxedValues: true,
      withMap: true,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withSparseArray: true,
    }),
    fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        odd,
        fc.jsonValue(),
        fc.array(tie("v"), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("__proto__", "toJSON", "0", "1")), tie("v"), { maxKeys: 4 }),
      ),
    })).v,
  );

  it("returns what a JSON round trip returns, key order and failures included", () => {
    fc.assert(
      fc.property(value, (v) => {
        const want = outcome(viaJson, v);
        const got = outcome(jsonCopy, v);
        expect(got.error).toBe(want.error);
        expect(got.text).toBe(want.text);
        expect(isDeepStrictEqual(got.value, want.value)).toBe(true);
      }),
      { numRuns: 5000 },
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => jsonCopy(cycle)).toThrow(TypeError);
  });
});
