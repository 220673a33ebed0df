// FIBA court geometry in metres. World frame: x along the length (0 at centre), y across,
// z up. The synthetic games are half-court games played at the +x hoop.
export const COURT = {
  length: 28,
  width: 15,
  hoopFromBaseline: 1.575,
  rimHeight: 3.05,
  rimRadius: 0.225,
  backboardFromBaseline: 1.2,
  backboardWidth: 1.8,
  backboardHeight: 1.05,
  backboardBottom: 2.9,
  keyLength: 5.8,
  keyWidth: 4.9,
  threeRadius: 6.75,
  threeCornerY: 6.6,
  ftCircleRadius: 1.8,
  ballRadius: 0.12,
} as const;

export const HOOP_X = COURT.length / 2 - COURT.hoopFromBaseline;
export const BASELINE_X = COURT.length / 2;
export const FT_LINE_X = BASELINE_X - COURT.keyLength;

/** World (x, y) of the free-throw spot of the +x hoop. */
export const FT_SPOT: [number, number] = [FT_LINE_X, 0];

export function isThreePoint(x: number, y: number): boolean {
  if (Math.abs(y) >= COURT.threeCornerY) return true;
  return Math.hypot(x - HOOP_X, y) > COURT.threeRadius;
}
