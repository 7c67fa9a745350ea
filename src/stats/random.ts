// Pure: a small seeded generator for A/B pair orders, so that a run's order can be reproduced from
// the seed in its results file (mulberry32: 32-bit state, plenty for coin flips).

/** A seed for a new run: 32 random bits from the platform's generator. */
export function newSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 2 ** 32) >>> 0;
}

/** A seed as a user writes it (CLI `--seed`, Action input `seed`): an integer from 0 to 2^32 − 1;
 * undefined for anything else. */
export function parseSeed(text: string): number | undefined {
  return /^\d{1,10}$/.test(text) && Number(text) < 2 ** 32 ? Number(text) : undefined;
}

/** Uniform numbers in [0, 1) from `seed`; the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** One pair's order, drawn afresh: `AB` runs base (A) first, `BA` head (B) first. */
export type PairOrder = 'AB' | 'BA';

export function drawOrder(random: () => number): PairOrder {
  return random() < 0.5 ? 'AB' : 'BA';
}

/** A seed for one part of a run (an A/B phase), from the run's seed and the part's names (FNV-1a):
 * each phase's orders depend on the seed and the pair's index only, never on how many pairs an
 * earlier phase ran. */
export function derivedSeed(seed: number, ...parts: string[]): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of parts.join('\u0000')) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * An interleaving of several sequences, drawn uniformly from all of them: unit i appears `counts[i]`
 * times, each draw picking a unit with probability proportional to what it has left. The units'
 * own order is kept by the caller (the k-th appearance of a unit is its k-th item).
 */
export function interleave(counts: readonly number[], random: () => number): number[] {
  const left = [...counts];
  let total = left.reduce((a, b) => a + b, 0);
  const out: number[] = [];
  while (total > 0) {
    let r = Math.floor(random() * total);
    let i = 0;
    while (r >= (left[i] as number)) r -= left[i++] as number;
    out.push(i);
    left[i] = (left[i] as number) - 1;
    total--;
  }
  return out;
}
