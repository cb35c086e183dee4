// Generators of hostile input for the tests that send it to every public input (every route of
// the app, every socket message): strings the stores cannot hold, injection and markup, huge and
// empty values, numbers at the edges, wrong types, prototype keys, deep nesting. Test code only.
import fc from "fast-check";

const BIG = 100_000;

/** Strings chosen by hand: each once broke something somewhere. */
const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\ud83d\ude00",
  "\u202egnp.exe",
  "' OR 1=1 --",
  "'); DROP TABLE users; --",
  "\\",
  "%00",
  "%ZZ",
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "javascript:alert(1)",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, meant literally
  "${7*7}",
  "__proto__",
  "constructor",
  "-1",
  "0",
  "1e309",
  "NaN",
  "null",
  "[]",
  "{}",
  "9".repeat(400),
  "a".repeat(5_000),
] as const;

/** Any UTF-16 code units, lone surrogates and NUL included. */
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: codeUnits },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant("x".repeat(BIG)) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** A JSON value of any type, nested. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: hostileString },
    { weight: 2, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor")), tie("value"), {
        maxKeys: 4,
      }),
    },
  ),
})).value;

/** An object nested `depth` levels deep. */
export const deeplyNested = (depth: number): unknown => {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};

/**
 * Socket messages: malformed JSON, wrong shapes, and agentInfo with hostile customer ids. Kept
 * under the socket's payload cap (a larger frame closes the socket by design, see socket.ts).
 */
export const hostileSocketMessage: fc.Arbitrary<string> = fc
  .oneof(
    hostileValue.map((v) => JSON.stringify(v) ?? "null"),
    hostileValue.map((customerId) => JSON.stringify({ type: "agentInfo", data: { customerId } })),
    hostileValue.map((data) => JSON.stringify({ type: "agentInfo", data })),
    hostileValue.map((type) => JSON.stringify({ type, data: {} })),
    hostileString,
  )
  .filter((m) => Buffer.byteLength(m) < 4000);
