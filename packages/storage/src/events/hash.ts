// 64-bit keys for visitor and visit ids (see ddl.ts for why). Two MurmurHash3-style 32-bit
// passes with different seeds over the UTF-16 code units. Our own function rather than the
// engine's hash(): the keys are stored, so they must not change when DuckDB is upgraded.
// Collision odds for n ids are about n^2 / 2^65: one in 10^7 for a million visitors, and a
// collision merges two visitors in counts, nothing else.

function murmur32(s: string, seed: number): number {
  let h = seed ^ s.length;
  for (let i = 0; i < s.length; i++) {
    let k = s.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A signed 64-bit key of (property, id): the property is framed in so ids of two sites never meet. */
export function idKey(property: string, id: string): bigint {
  const s = `${property}\u0000${id}`;
  const hi = murmur32(s, 0x9747b28c);
  const lo = murmur32(s, 0x1b873593);
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}
