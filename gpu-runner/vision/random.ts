// One seeded random generator for everything that must repeat exactly: the homography fit's RANSAC
// (a fit is the same on every run), the detector heads' training runs (models/heads), the real-clip
// bench's intervals over clips (analysis/metrics.ts) and the invariance bench's camera motions.

/** A small seeded generator (mulberry32): the same seed gives the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
