/**
 * Seeded randomness for the public demo: the same seed and keys always give the same numbers, so
 * the demo is reproducible and testable (never Math.random).
 */

/** mulberry32: a small, fast 32-bit generator with a good spread for simulation noise. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Mixes a seed with integer keys (32-bit; murmur3's finaliser per key) into one 32-bit seed. */
export function mixSeed(seed: number, ...keys: number[]): number {
  let h = seed >>> 0;
  for (const key of keys) {
    h = (h ^ Math.imul(key | 0, 0x9e3779b1)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h;
}

/** One number in [0, 1) for a seed and keys: a pure function, so it can be recomputed anywhere. */
export function unitAt(seed: number, ...keys: number[]): number {
  return mulberry32(mixSeed(seed, ...keys))();
}
