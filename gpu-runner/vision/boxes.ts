// Box maths shared by the detectors' decoding and the basketball rules: pure, no model, so the
// rules that use it stay testable on small arrays (test/lint/analysis-roles.test.ts).

/** Intersection over union of two centre-size boxes (0 when they do not overlap). */
export function boxIou(a: { cx: number; cy: number; w: number; h: number }, b: { cx: number; cy: number; w: number; h: number }): number {
  const ix = Math.max(0, Math.min(a.cx + a.w / 2, b.cx + b.w / 2) - Math.max(a.cx - a.w / 2, b.cx - b.w / 2));
  const iy = Math.max(0, Math.min(a.cy + a.h / 2, b.cy + b.h / 2) - Math.max(a.cy - a.h / 2, b.cy - b.h / 2));
  const inter = ix * iy;
  return inter / (a.w * a.h + b.w * b.h - inter || 1);
}

/** The middle value (the higher middle for an even count, an element of `xs`); 0 for none. */
export function median(xs: readonly number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** A box whose centre and size are each the median of the boxes'. */
export function medianBox(boxes: ReadonlyArray<{ cx: number; cy: number; w: number; h: number }>): { cx: number; cy: number; w: number; h: number } {
  return { cx: median(boxes.map((b) => b.cx)), cy: median(boxes.map((b) => b.cy)), w: median(boxes.map((b) => b.w)), h: median(boxes.map((b) => b.h)) };
}

/**
 * A box of picture B as seen in picture A of the same camera, where A is B scaled and moved:
 * p_A = p_B × scale + (padX, padY) (as viewInPicture takes a view the other way, vision/homography.ts).
 */
export function boxInPicture<B extends { cx: number; cy: number; w: number; h: number }>(b: B, scale: number, padX: number, padY: number): B {
  return { ...b, cx: b.cx * scale + padX, cy: b.cy * scale + padY, w: b.w * scale, h: b.h * scale };
}
