/**
 * excitement_score in 0..1 (documented in docs/analysis.md):
 *   base: made three 0.70, made two 0.55, made free throw 0.25, missed field goal 0.20, missed free throw 0.05
 *   +0.10 assisted, +0.15 and-one (made and fouled),
 *   +0.05 per metre beyond 7 m for threes (deep shots), at most +0.10.
 */
export function excitementScore(s: { made: boolean; is_free_throw: boolean; is_three_point: boolean; is_fouled: boolean; assisted: boolean; distance_m: number | null }): number {
  let score = s.is_free_throw ? (s.made ? 0.25 : 0.05) : s.made ? (s.is_three_point ? 0.7 : 0.55) : 0.2;
  if (s.made && s.assisted) score += 0.1;
  if (s.made && s.is_fouled) score += 0.15;
  if (s.is_three_point && s.distance_m !== null) score += Math.min(0.1, Math.max(0, (s.distance_m - 7) * 0.05));
  return Math.round(Math.min(1, score) * 1000) / 1000;
}

/** A clip of a missed shot is a lowlight. */
export const isLowlight = (made: boolean) => !made;

/** Clip window around a shot: from 3 s before release to 2.5 s after the ball reached the rim. */
export const CLIP_BEFORE_RELEASE_S = 3;
export const CLIP_AFTER_RIM_S = 2.5;
