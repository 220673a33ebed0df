import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fitCourt, type NamedPoint } from "../../gpu-runner/analysis/rules/court-fit.ts";
import { basketAgainstRim, basketUnderRim, COURT_RIM_DEFAULTS, ringOffRim } from "../../gpu-runner/analysis/rules/court-rim.ts";
import { RIM_BOX_WIDTH_M } from "../../gpu-runner/analysis/rules/distance.ts";
import { composeHomographies, type H3 } from "../../gpu-runner/vision/homography.ts";

// The labelled view of a real tuning frame (chonyy_outdoor_45deg_2x_3shots at 0.5 s, 960 × 540) and
// the rim box the rim watch found on that clip (kept observations of the real-clip bench): a right
// court and the rim it hangs over.
const labels = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/court-landmarks.json"), "utf8")) as { frames: Array<{ clip: string; landmarks: NamedPoint[] }> };
const view = fitCourt("fiba", labels.frames.find((f) => f.clip === "chonyy_outdoor_45deg_2x_3shots")!.landmarks)!;
const rim = { cx: 656.5, cy: 149.6, w: 49.9, h: 14.8 };
const PICTURE = { W: 960, H: 540 };

/** The same view of a court moved by (dx, dy) m and scaled by `s` on the floor (court metres → court metres first). */
const moved = (h: H3, dx: number, dy: number, s = 1): H3 => composeHomographies(h, [s, 0, dx, 0, s, dy, 0, 0, 1]);

describe("a registered court puts its basket under the rim seen", () => {
  it("a real frame's labelled view puts the basket's floor point under the rim the detector found", () => {
    const m = basketAgainstRim(view, "fiba", rim)!;
    expect(Math.abs(m.acrossM)).toBeLessThan(0.3);
    // 3.05 m up, foreshortened by the camera's tilt; the floor's scale there is the rim box's.
    expect(m.heightM).toBeGreaterThan(2.5);
    expect(m.heightM).toBeLessThan(3.3);
    expect(m.scaleRatio).toBeGreaterThan(0.9);
    expect(m.scaleRatio).toBeLessThan(1.1);
    expect(basketUnderRim(view, "fiba", [rim], PICTURE)).toBe(true);
  });

  it("the measures do not depend on the picture's size", () => {
    const half: H3 = [...view.slice(0, 6).map((x) => x / 2), ...view.slice(6)] as H3;
    const a = basketAgainstRim(view, "fiba", rim)!, b = basketAgainstRim(half, "fiba", { cx: rim.cx / 2, cy: rim.cy / 2, w: rim.w / 2, h: rim.h / 2 })!;
    expect(b.acrossM).toBeCloseTo(a.acrossM, 6);
    expect(b.heightM).toBeCloseTo(a.heightM, 6);
    expect(b.scaleRatio).toBeCloseTo(a.scaleRatio, 6);
  });

  it("a court laid a metre or more along the baseline from the right one, or at twice or half its size, is not under the rim", () => {
    for (const dy of [-1, 1, 3]) expect(basketUnderRim(moved(view, 0, dy), "fiba", [rim], PICTURE)).toBe(false);
    // Twice the size on the floor: each metre of the template covers two of the floor (the court's scale there halves).
    expect(basketUnderRim(moved(view, -1.575, 0, 2), "fiba", [rim], PICTURE)).toBe(false);
    expect(basketUnderRim(moved(view, 0.79, 0, 0.5), "fiba", [rim], PICTURE)).toBe(false);
    // Half a metre along the court (the basket seen a little nearer or further): still under it.
    expect(basketUnderRim(moved(view, 0.3, 0), "fiba", [rim], PICTURE)).toBe(true);
  });

  it("a rim below its basket's floor point, or none at all, places no court; one of two rims is enough", () => {
    const m = basketAgainstRim(view, "fiba", rim)!;
    const pxPerM = rim.w / RIM_BOX_WIDTH_M;
    const below = { ...rim, cy: rim.cy + 2 * m.heightM * pxPerM };
    expect(basketUnderRim(view, "fiba", [below], PICTURE)).toBe(false);
    expect(basketUnderRim(view, "fiba", [], PICTURE)).toBe(false);
    const elsewhere = { ...rim, cx: rim.cx - 400 };
    expect(basketUnderRim(view, "fiba", [elsewhere, rim], PICTURE)).toBe(true);
  });

  it("each bound is a setting", () => {
    const m = basketAgainstRim(view, "fiba", rim)!;
    expect(basketUnderRim(view, "fiba", [rim], PICTURE, { ...COURT_RIM_DEFAULTS, MAX_ACROSS_M: Math.abs(m.acrossM) / 2 })).toBe(false);
    expect(basketUnderRim(view, "fiba", [rim], PICTURE, { ...COURT_RIM_DEFAULTS, MAX_SCALE_RATIO: m.scaleRatio / 2 })).toBe(false);
    expect(basketUnderRim(view, "fiba", [rim], PICTURE, { ...COURT_RIM_DEFAULTS, MIN_HEIGHT_M: m.heightM + 0.1 })).toBe(false);
    // The labelled view's ring is 0.001 m off: a bound under that refuses it.
    expect(basketUnderRim(view, "fiba", [rim], PICTURE, { ...COURT_RIM_DEFAULTS, MAX_RING_OFF_M: 0.0001 })).toBe(false);
  });

  it("the ring where the view's camera sees it tells a court of the wrong key from the right one fitted to the same lines", () => {
    // The labelled view's camera sees the ring 3.05 m over the basket where the rim watch boxed it.
    expect(Math.abs(ringOffRim(view, "fiba", rim, PICTURE)!)).toBeLessThan(0.01);
    // The same landmarks fitted as the pre-2010 trapezoid: its basket is under the rim by the three
    // measures at the box's scale, but only through another camera, which sees the ring 0.6 m above the box.
    const trapezoid = fitCourt("fiba_2008", labels.frames.find((f) => f.clip === "chonyy_outdoor_45deg_2x_3shots")!.landmarks)!;
    const m = basketAgainstRim(trapezoid, "fiba_2008", rim)!;
    expect(Math.abs(m.acrossM)).toBeLessThanOrEqual(COURT_RIM_DEFAULTS.MAX_ACROSS_M);
    expect(m.heightM).toBeGreaterThanOrEqual(COURT_RIM_DEFAULTS.MIN_HEIGHT_M);
    expect(m.heightM).toBeLessThanOrEqual(COURT_RIM_DEFAULTS.MAX_HEIGHT_M);
    expect(m.scaleRatio).toBeGreaterThanOrEqual(COURT_RIM_DEFAULTS.MIN_SCALE_RATIO);
    expect(m.scaleRatio).toBeLessThanOrEqual(COURT_RIM_DEFAULTS.MAX_SCALE_RATIO);
    expect(ringOffRim(trapezoid, "fiba_2008", rim, PICTURE)).toBeLessThan(-0.5);
    expect(basketUnderRim(trapezoid, "fiba_2008", [rim], PICTURE)).toBe(false);
    // The rectangular keys of the other books fit those landmarks about as well and see the ring
    // where it is: the ring tells keys apart, not books with one key.
    for (const type of ["nba", "ncaa", "high_school"] as const) expect(basketUnderRim(fitCourt(type, labels.frames.find((f) => f.clip === "chonyy_outdoor_45deg_2x_3shots")!.landmarks)!, type, [rim], PICTURE)).toBe(true);
    // A ring the camera cannot see (the view no camera has) is no rim's.
    expect(ringOffRim([2, 0, 0, 0, 1, 0, 0, 0, 1], "fiba", rim, PICTURE)).toBeNull();
  });
});
