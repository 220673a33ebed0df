// How well found shots agree with labelled ones: the matching rule and the scores that the real-clip
// bench, the real-footage tests and the invariance tests all use (supervision keeps its metrics
// beside its tools for the same reason: one definition of "right").
//
// Matching: a found attempt matches a labelled one when its release (`start_seconds`) is within
// MATCH_WINDOW_S of the labelled release; a label without a visible release (rim close-ups, a
// driveway clip filmed from under the rim) is matched on the time the ball reaches the rim instead
// (the `rim` time of the found shot against the label's `result_s`). Each label matches at most one
// attempt and each attempt at most one label, nearest pairs first.

import { median } from "../vision/boxes.ts";
import { seededRandom } from "../vision/random.ts";

export const SHOT_METRICS_DEFAULTS = {
  /** Largest release (or rim-arrival) time difference of a matched pair, seconds. */
  MATCH_WINDOW_S: 1.5,
  /** Largest release difference between two analyses of the same footage (another size, encoding or surrounding video) that still counts as the same shot, seconds. */
  SAME_RELEASE_S: 0.2,
  /** Clip resamples of a bootstrap interval (clipBootstrapIntervals). */
  BOOTSTRAP_RESAMPLES: 2000,
  /** Share of the resampled scores an interval holds (the middle 95 %). */
  INTERVAL_LEVEL: 0.95,
};
export const MATCH_WINDOW_S = SHOT_METRICS_DEFAULTS.MATCH_WINDOW_S;
/** Below a millisecond, the rounding of times in a result: a difference of exactly a tolerance is within it. */
const TIME_EPSILON_S = 1e-6;

/** A labelled attempt (the realclips manifest's `shots` rows). */
export interface LabelledShot {
  release_s: number | null;
  result_s: number;
  made: boolean;
}

/** A found attempt: its release, when the ball reached the rim (null: unknown), made or missed. */
export interface FoundShot {
  release: number;
  rim: number | null;
  made: boolean;
}

export interface ShotMatch {
  truth: number;
  found: number;
}

/** One-to-one matching by time, nearest pairs first (see the header). */
export function matchShots(truth: LabelledShot[], found: FoundShot[], windowS = MATCH_WINDOW_S): ShotMatch[] {
  const pairs: Array<ShotMatch & { d: number }> = [];
  truth.forEach((t, i) =>
    found.forEach((f, j) => {
      const d = t.release_s !== null ? Math.abs(f.release - t.release_s) : f.rim !== null ? Math.abs(f.rim - t.result_s) : Infinity;
      if (d <= windowS) pairs.push({ truth: i, found: j, d });
    }),
  );
  pairs.sort((a, b) => a.d - b.d);
  const usedT = new Set<number>(), usedF = new Set<number>();
  const out: ShotMatch[] = [];
  for (const p of pairs) {
    if (usedT.has(p.truth) || usedF.has(p.found)) continue;
    usedT.add(p.truth);
    usedF.add(p.found);
    out.push({ truth: p.truth, found: p.found });
  }
  return out;
}

/** The counts of one clip that every summary is built from. */
export interface ClipShotCounts {
  truthAttempts: number;
  truthMakes: number;
  attempts: number;
  makes: number;
  matched: number;
  /** Matched pairs whose made/missed call agrees with the label. */
  madeCorrect: number;
  /** |found − labelled| release of each matched pair whose label has a visible release, seconds. */
  releaseErrorsS: number[];
}

export function clipShotCounts(truth: LabelledShot[], found: FoundShot[], windowS = MATCH_WINDOW_S): ClipShotCounts {
  const matches = matchShots(truth, found, windowS);
  return {
    truthAttempts: truth.length,
    truthMakes: truth.filter((t) => t.made).length,
    attempts: found.length,
    makes: found.filter((f) => f.made).length,
    matched: matches.length,
    madeCorrect: matches.filter((m) => found[m.found].made === truth[m.truth].made).length,
    releaseErrorsS: matches.flatMap((m) => (truth[m.truth].release_s === null ? [] : [Math.abs(found[m.found].release - truth[m.truth].release_s!)])),
  };
}

/** Every labelled attempt found, nothing extra, every made/missed call right (a clip without an attempt: nothing found). */
export function exactlyRight(c: ClipShotCounts): boolean {
  return c.matched === c.truthAttempts && c.attempts === c.truthAttempts && c.madeCorrect === c.matched;
}

export interface ShotScores {
  clips: number;
  truthAttempts: number;
  attempts: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
  /** Share of matched attempts called made/missed right (null: nothing matched). */
  madeAccuracy: number | null;
  exactlyRight: number;
  /** Clips whose attempt and make counts are each within one of the labels. */
  withinOne: number;
  clipsWithoutAttempt: number;
  /** Attempts found on clips labelled without any. */
  attemptsOnClipsWithoutAttempt: number;
  /** Median release error of the matched attempts with a labelled release, seconds (null: none). */
  medianReleaseErrorS: number | null;
  /** Share of those released within SAME_RELEASE_S of the label (null: none). */
  releasesWithinSameS: number | null;
}

/** Precision, recall, F1 and made/missed accuracy pooled over clips (micro-averaged, as the figures). */
export function scoreShots(clips: ClipShotCounts[]): ShotScores {
  const sum = (f: (c: ClipShotCounts) => number) => clips.reduce((a, c) => a + f(c), 0);
  const truthAttempts = sum((c) => c.truthAttempts), attempts = sum((c) => c.attempts), matched = sum((c) => c.matched);
  // With nothing to find and nothing found, nothing was missed or invented.
  const precision = attempts ? matched / attempts : 1;
  const recall = truthAttempts ? matched / truthAttempts : 1;
  const noAttempt = clips.filter((c) => c.truthAttempts === 0);
  const releaseErrors = clips.flatMap((c) => c.releaseErrorsS);
  return {
    clips: clips.length,
    truthAttempts,
    attempts,
    matched,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    madeAccuracy: matched ? sum((c) => c.madeCorrect) / matched : null,
    exactlyRight: clips.filter(exactlyRight).length,
    withinOne: clips.filter((c) => Math.abs(c.attempts - c.truthAttempts) <= 1 && Math.abs(c.makes - c.truthMakes) <= 1).length,
    clipsWithoutAttempt: noAttempt.length,
    attemptsOnClipsWithoutAttempt: noAttempt.reduce((a, c) => a + c.attempts, 0),
    medianReleaseErrorS: releaseErrors.length ? median(releaseErrors) : null,
    releasesWithinSameS: releaseErrors.length ? releaseErrors.filter((e) => e <= SHOT_METRICS_DEFAULTS.SAME_RELEASE_S + TIME_EPSILON_S).length / releaseErrors.length : null,
  };
}

/** A shot as two analyses of the same footage are compared: its release and its call. */
export interface ReleasedShot {
  start: number;
  made: boolean;
}

/**
 * Two analyses of the same footage agree: as many shots, in order, each released within
 * SAME_RELEASE_S of its counterpart and called the same. `offsetS` moves `b` onto `a`'s timeline
 * (a segment analysed alone against the same segment inside a longer video).
 */
export function sameShots(a: ReleasedShot[], b: ReleasedShot[], offsetS = 0, toleranceS = SHOT_METRICS_DEFAULTS.SAME_RELEASE_S): boolean {
  // Times are whole analysed frames rounded to milliseconds: 2.6 − 2.4 is 0.2000000000000002, three frames at 15 fps, within 0.2 s.
  return a.length === b.length && a.every((s, i) => s.made === b[i].made && Math.abs(s.start - (b[i].start + offsetS)) <= toleranceS + TIME_EPSILON_S);
}

/** A score's interval over clips (see clipBootstrapIntervals); null where no resample defines it. */
export type ScoreInterval = [number, number] | null;

/**
 * How far the pooled F1 and made/missed accuracy could move on other clips of the same kind: a
 * percentile bootstrap that draws the clips with replacement (BOOTSTRAP_RESAMPLES times, the middle
 * INTERVAL_LEVEL of the scores). On 19 held-out clips one clip holds about a twentieth of the
 * attempts, so a few points of difference between two runs is within what the choice of clips
 * alone moves; the interval says how much. A fixed seed gives the same interval on every run.
 */
export function clipBootstrapIntervals(clips: ClipShotCounts[], o: Pick<typeof SHOT_METRICS_DEFAULTS, "BOOTSTRAP_RESAMPLES" | "INTERVAL_LEVEL"> = SHOT_METRICS_DEFAULTS, seed = 1): { f1: ScoreInterval; madeAccuracy: ScoreInterval } {
  if (!clips.length) return { f1: null, madeAccuracy: null };
  const random = seededRandom(seed);
  const f1s: number[] = [], made: number[] = [];
  for (let r = 0; r < o.BOOTSTRAP_RESAMPLES; r++) {
    const drawn = Array.from({ length: clips.length }, () => clips[Math.floor(random() * clips.length)]);
    const s = scoreShots(drawn);
    f1s.push(s.f1);
    if (s.madeAccuracy !== null) made.push(s.madeAccuracy);
  }
  return { f1: percentileInterval(f1s, o.INTERVAL_LEVEL), madeAccuracy: percentileInterval(made, o.INTERVAL_LEVEL) };
}

function percentileInterval(xs: number[], level: number): ScoreInterval {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
  return [at((1 - level) / 2), at((1 + level) / 2)];
}
