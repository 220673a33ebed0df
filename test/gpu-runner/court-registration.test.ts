import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fitCourt, type NamedPoint } from "../../gpu-runner/analysis/rules/court-fit.ts";
import { cameraCanSee, COURT_REGISTRATION_DEFAULTS, keyAreaPx, linesBelowRims, keySeenUpright, plausibleView, refineRegistration, registerCourt, registerPicture } from "../../gpu-runner/analysis/observe/court-registration.ts";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLandmarks, courtLines, type CourtTypeId } from "../../gpu-runner/analysis/rules/court-template.ts";
import { applyHomography, invertHomography, viewInPicture, type H3 } from "../../gpu-runner/vision/homography.ts";
import { seededRandom } from "../../gpu-runner/vision/random.ts";
import { RIM_BOX_WIDTH_M } from "../../gpu-runner/analysis/rules/distance.ts";
import { halvePicture, houghLines, intersect, LINE_DEFAULTS, lineMask, ridgeMask } from "../../gpu-runner/vision/lines.ts";
import { REALCLIPS_DIR } from "../../bench/realclips-manifest.ts";
import { camera } from "./camera-view.ts";
import { courtLineModelPath, loadCourtLineModel } from "../../gpu-runner/vision/court-lines.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { runTool } from "../../gpu-runner/media/run.ts";

const W = 480, H = 270;

// A real camera's view: the court → image homography of a labelled tuning frame (960×540), at
// half the size, so the synthetic pictures have the perspective of real footage.
const labels = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/court-landmarks.json"), "utf8")) as { frames: Array<{ clip: string; landmarks: NamedPoint[] }> };
const frame = labels.frames.find((f) => f.clip === "chonyy_outdoor_45deg_2x_3shots")!;
const half = frame.landmarks.map((p) => ({ ...p, x: p.x / 2, y: p.y / 2 }));

/** How a court is painted: picture size, the floor's grey (and the spread of its noise), the lines' grey. */
interface Paint { width: number; height: number; floor: number; noise: number; line: number; worn?: number }

/**
 * A grey floor with light noise and the court type's lines painted through h, one pixel wide, 230 on
 * ~90 (or as `paint` says); the lines named in `hidden` are left out (a player stands on them, or
 * they are worn off), and with `paint.worn` that share of every metre of line is worn off.
 */
function drawCourt(type: CourtTypeId, h: H3, seed = 1, hidden: readonly string[] = [], template = COURT_TEMPLATES[type], paint: Paint = { width: W, height: H, floor: 85, noise: 10, line: 230 }): Uint8Array {
  const random = seededRandom(seed);
  const img = Uint8Array.from({ length: paint.width * paint.height }, () => paint.floor + Math.floor(random() * paint.noise));
  const put = (x: number, y: number) => {
    const X = Math.round(x), Y = Math.round(y);
    if (X >= 0 && Y >= 0 && X < paint.width && Y < paint.height) img[Y * paint.width + X] = paint.line;
  };
  for (const l of courtLines(template)) {
    if (hidden.includes(l.name)) continue;
    const pts: Array<[number, number]> = [];
    if (l.kind === "segment") {
      const len = Math.hypot(l.b[0] - l.a[0], l.b[1] - l.a[1]);
      for (let d = 0; d <= len; d += 0.01) if (d % 1 >= (paint.worn ?? 0)) pts.push([l.a[0] + ((l.b[0] - l.a[0]) * d) / len, l.a[1] + ((l.b[1] - l.a[1]) * d) / len]);
    } else {
      for (let a = l.from; a <= l.to; a += 0.002) if ((l.radius * (a - l.from)) % 1 >= (paint.worn ?? 0)) pts.push([l.centre[0] + l.radius * Math.cos(a), l.centre[1] + l.radius * Math.sin(a)]);
    }
    for (const p of pts) {
      const w = h[6] * p[0] + h[7] * p[1] + h[8];
      if (w <= 0) continue;
      const [x, y] = applyHomography(h, p);
      put(x, y);
    }
  }
  return img;
}

function landmarkErrorM(type: CourtTypeId, truth: H3, found: H3): number {
  const inv = invertHomography(found)!;
  const lm = courtLandmarks(COURT_TEMPLATES[type]);
  const names = ["baseline_lane_left", "baseline_lane_right", "ft_lane_left", "ft_lane_right", "ft_circle_top", "three_corner_left"];
  return Math.max(...names.map((n) => {
    const back = applyHomography(inv, applyHomography(truth, lm[n]));
    return Math.hypot(back[0] - lm[n][0], back[1] - lm[n][1]);
  }));
}

describe("lines on a floor", () => {
  it("a thin bright stripe is a ridge; a wide bright area is not", () => {
    const img = new Uint8Array(60 * 40).fill(80);
    for (let y = 0; y < 40; y++) { img[y * 60 + 10] = 220; img[y * 60 + 11] = 220; }
    for (let y = 0; y < 40; y++) for (let x = 30; x < 50; x++) img[y * 60 + x] = 220;
    const mask = ridgeMask(img, 60, 40);
    expect(mask[20 * 60 + 10]).toBe(1);
    expect(mask[20 * 60 + 40]).toBe(0);
    const lines = houghLines(mask, 60, 40, { minVotes: 20 });
    expect(lines).toHaveLength(1);
    // The stripe x = 10.5 (columns 10 and 11): a vertical line, normal along x.
    const t = lines[0].theta > Math.PI / 2 ? lines[0].theta - Math.PI : lines[0].theta;
    expect(Math.abs(t)).toBeLessThan(0.02);
    expect(Math.abs(Math.abs(lines[0].rho) - 10.5)).toBeLessThan(0.6);
  });

  it("thin bright lines in a textured patch (a fence against leaves) are not floor lines", () => {
    const W0 = 120, H0 = 60;
    const random = seededRandom(9);
    const img = new Uint8Array(W0 * H0).fill(80);
    // Left half: a fence, wires every 4 px over a speckled background; right half: one court line on a flat floor.
    for (let y = 0; y < H0; y++) for (let x = 0; x < 60; x++) img[y * W0 + x] = 60 + Math.floor(random() * 60);
    for (let y = 0; y < H0; y++) for (let x = 0; x < 60; x += 4) img[y * W0 + x] = 230;
    for (let y = 0; y < H0; y++) img[y * W0 + 90] = 230;
    const mask = ridgeMask(img, W0, H0);
    let fence = 0;
    for (let y = 0; y < H0; y++) for (let x = 0; x < 60; x++) fence += mask[y * W0 + x];
    expect(fence).toBeLessThan(0.02 * 60 * H0);
    expect(mask[30 * W0 + 90]).toBe(1);
  });

  it("a thin dark stripe on a lighter floor is a line (dark lines edging a painted key)", () => {
    const W0 = 80, H0 = 60;
    const random = seededRandom(3);
    const img = Uint8Array.from({ length: W0 * H0 }, () => 170 + Math.floor(random() * 4));
    for (let y = 0; y < H0; y++) { img[y * W0 + 40] = 120; img[y * W0 + 41] = 120; }
    const mask = ridgeMask(img, W0, H0, { darkStripes: true });
    expect(mask[30 * W0 + 40]).toBe(1);
    const lines = houghLines(mask, W0, H0, { minVotes: 30 });
    expect(lines).toHaveLength(1);
    expect(Math.abs(Math.abs(lines[0].rho) - 40.5)).toBeLessThan(0.6);
  });

  it("a step between two flat areas of the same luma and different colour is a line (a painted key on wood)", () => {
    const W0 = 80, H0 = 60;
    // Left: red paint (200, 80, 80); right: a blue-grey floor of the same BT.601 luma (≈ 117).
    const rgb = new Uint8Array(W0 * H0 * 3);
    for (let y = 0; y < H0; y++)
      for (let x = 0; x < W0; x++) rgb.set(x < 40 ? [200, 80, 80] : [80, 118, 200], (y * W0 + x) * 3);
    const luma = (i: number) => (77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2]) >> 8;
    expect(Math.abs(luma(0) - luma(W0 - 1))).toBeLessThanOrEqual(2);
    const mask = lineMask(rgb, W0, H0, { minColour: 16 });
    // One pixel thin, at the step (between columns 39 and 40).
    let onStep = 0, elsewhere = 0;
    for (let y = 10; y < 50; y++) for (let x = 0; x < W0; x++) (x === 39 || x === 40 ? (onStep += mask[y * W0 + x]) : (elsewhere += mask[y * W0 + x]));
    expect(onStep).toBeGreaterThanOrEqual(40);
    expect(elsewhere).toBe(0);
    expect(houghLines(mask, W0, H0, { minVotes: 30 })).toHaveLength(1);
    // Colour steps off (the setting at 0): the same picture shows no line.
    expect(lineMask(rgb, W0, H0, { minColour: 0 }).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it("a faint line on a smooth floor is found, and a grainy floor's noise of the same contrast is not", () => {
    const W0 = 120, H0 = 80;
    const random = seededRandom(5);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    // Left half: a smooth floor (σ 1) with a line 12 grey levels above it; right half: a grainy floor (σ 3.5, so ±12 is common) without a line.
    const img = new Uint8Array(W0 * H0);
    for (let y = 0; y < H0; y++)
      for (let x = 0; x < W0; x++) img[y * W0 + x] = Math.round(100 + (x < 64 ? 1 : 3.5) * gauss()) + (x === 30 ? 12 : 0);
    const mask = ridgeMask(img, W0, H0, { minContrast: 8, noiseMultiple: 5 });
    let line = 0, grain = 0;
    for (let y = 6; y < H0 - 6; y++) { line += mask[y * W0 + 30]; for (let x = 70; x < W0 - 6; x++) grain += mask[y * W0 + x]; }
    expect(line).toBeGreaterThan(0.8 * (H0 - 12));
    expect(grain).toBeLessThan(0.002 * 44 * (H0 - 12));
    const lines = houghLines(mask, W0, H0, { minVotes: 40 });
    expect(lines).toHaveLength(1);
    expect(Math.abs(Math.abs(lines[0].rho) - 30)).toBeLessThan(0.6);
  });

  it("a fence of level lines does not fill the line budget: at most MAX_LINES_PER_DIRECTION lines run in one direction", () => {
    const W0 = 200, H0 = 120;
    const mask = new Uint8Array(W0 * H0);
    // Six long level lines (a fence's wires), stronger than two short slanted ones (lane lines seen in perspective).
    for (let k = 0; k < 6; k++) for (let x = 0; x < W0; x++) mask[(10 + 6 * k) * W0 + x] = 1;
    for (let y = 50; y < 120; y++) { mask[y * W0 + Math.round(60 - 0.4 * (y - 50))] = 1; mask[y * W0 + Math.round(140 + 0.4 * (y - 50))] = 1; }
    const level = (l: { theta: number }) => Math.abs(Math.cos(l.theta)) < Math.sin((5 * Math.PI) / 180);
    // Without the limit the five lines kept are all the fence's.
    const unlimited = houghLines(mask, W0, H0, { maxLines: 5, minVotes: 40, perDirection: 0 });
    expect(unlimited.filter(level)).toHaveLength(5);
    // With it (the default, 3), three of the fence and both slanted lines.
    expect(LINE_DEFAULTS.MAX_LINES_PER_DIRECTION).toBe(3);
    const limited = houghLines(mask, W0, H0, { maxLines: 5, minVotes: 40 });
    expect(limited.filter(level)).toHaveLength(3);
    const slanted = limited.filter((l) => !level(l));
    expect(slanted).toHaveLength(2);
    // Each slanted line where it was drawn: through (60, 50) or (140, 50).
    for (const l of slanted) expect(Math.min(...[[60, 50], [140, 50]].map(([x, y]) => Math.abs(x * Math.cos(l.theta) + y * Math.sin(l.theta) - l.rho)))).toBeLessThan(1);
  });

  it("two drawn lines are found and cross where they were drawn", () => {
    const img = new Uint8Array(100 * 80).fill(60);
    for (let x = 0; x < 100; x++) img[30 * 100 + x] = 200; // y = 30
    for (let y = 0; y < 80; y++) img[y * 100 + Math.round(20 + 0.5 * y)] = 200; // x = 20 + y/2
    const lines = houghLines(ridgeMask(img, 100, 80), 100, 80, { minVotes: 30 });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const p = intersect(lines[0], lines[1])!;
    expect(Math.hypot(p[0] - 35, p[1] - 30)).toBeLessThan(1.5);
  });
});

describe("registering a court drawn through a known homography", () => {
  for (const type of ["fiba", "fiba_2008", "high_school"] as CourtTypeId[]) {
    it(`recovers the view and the court type (${type})`, () => {
      const truth = fitCourt(type, half)!;
      const img = drawCourt(type, truth);
      const mask = ridgeMask(img, W, H, { sidePx: 2 });
      const lines = houghLines(mask, W, H);
      const r = registerCourt(mask, W, H, lines)!;
      expect(r).not.toBeNull();
      expect(r.type).toBe(type);
      expect(landmarkErrorM(type, truth, r.h)).toBeLessThan(0.3);
    });
  }

  // The rim watch's box on the real clip this view comes from (chonyy_outdoor_45deg_2x_3shots, at
  // half its 960 px): the court must put its basket under a rim seen in the picture (rules/court-rim.ts).
  it("with the picture's rims, the court registers where its basket is under one, and not where none is", () => {
    const truth = fitCourt("fiba", half)!;
    const mask = ridgeMask(drawCourt("fiba", truth), W, H, { sidePx: 2 });
    const lines = houghLines(mask, W, H);
    const rim = { cx: 656.5 / 2, cy: 149.6 / 2, w: 49.9 / 2, h: 14.8 / 2 };
    const free = registerCourt(mask, W, H, lines)!;
    const checked = registerCourt(mask, W, H, lines, { rims: [rim] })!;
    expect(checked.type).toBe("fiba");
    expect(landmarkErrorM("fiba", truth, checked.h)).toBeLessThan(0.3);
    expect(checked.score).toBeCloseTo(free.score, 6);
    // A rim 3 m to the side of the court's basket across the picture (a hoop the lines do not belong to), or none in view.
    expect(registerCourt(mask, W, H, lines, { rims: [{ ...rim, cx: rim.cx + 3 * (rim.w / RIM_BOX_WIDTH_M) }] })).toBeNull();
    expect(registerCourt(mask, W, H, lines, { rims: [] })).toBeNull();
  });

  it("a worn court registers with a rim over its basket, where the rim check lets it ask less of the paint, and not without one", () => {
    // 45 % of every metre of line worn off: 0.64 of the exact view's drawn lines land on stripes,
    // under the 0.7 asked of a picture whose rims are not checked.
    const truth = fitCourt("fiba", half)!;
    const mask = ridgeMask(drawCourt("fiba", truth, 1, [], COURT_TEMPLATES.fiba, { width: W, height: H, floor: 85, noise: 10, line: 230, worn: 0.45 }), W, H, { sidePx: 2 });
    const lines = houghLines(mask, W, H);
    const rim = { cx: 656.5 / 2, cy: 149.6 / 2, w: 49.9 / 2, h: 14.8 / 2 };
    expect(registerCourt(mask, W, H, lines)).toBeNull();
    const r = registerCourt(mask, W, H, lines, { rims: [rim] })!;
    expect(r.type).toBe("fiba");
    expect(landmarkErrorM("fiba", truth, r.h)).toBeLessThan(0.3);
    expect(r.hits / r.inPicture).toBeGreaterThanOrEqual(COURT_REGISTRATION_DEFAULTS.MIN_HIT_SHARE_UNDER_RIM);
    expect(r.hits / r.inPicture).toBeLessThan(COURT_REGISTRATION_DEFAULTS.MIN_HIT_SHARE);
    // A rim 3 m aside still refuses it.
    expect(registerCourt(mask, W, H, lines, { rims: [{ ...rim, cx: rim.cx + 3 * (rim.w / RIM_BOX_WIDTH_M) }] })).toBeNull();
  });

  it("with rims, the straight lines are looked for below the highest rim's top, and the court registers on a mask handed in", () => {
    // Above the rim (the stands, a scoreboard, window frames): 18 bright segments in six directions.
    const truth = fitCourt("fiba", half)!;
    const working = ridgeMask(drawCourt("fiba", truth), W, H, { sidePx: 2 });
    const rim = { cx: 656.5 / 2, cy: 149.6 / 2, w: 49.9 / 2, h: 14.8 / 2 };
    const top = Math.floor(rim.cy - rim.h / 2);
    const courtOnly = working.slice();
    for (const [k, deg] of [-15, -9, -3, 3, 9, 15].entries()) {
      for (const dy of [-20, 0, 20]) {
        const a = (deg * Math.PI) / 180, x0 = 90 + 60 * k, y0 = top / 2 + dy;
        for (let t = -80; t < 80; t++) {
          const x = Math.round(x0 + t * Math.cos(a)), y = Math.round(y0 + t * Math.sin(a));
          if (y >= 0 && y < top) working[y * W + x] = 1;
        }
      }
    }
    // The searched mask: nothing above the highest rim's top (the lower of two rims does not bring it back), all of it below.
    const searched = linesBelowRims(working, W, H, [rim, { ...rim, cy: rim.cy + 40 }]);
    expect(searched.subarray(0, top * W).some((v) => v > 0)).toBe(false);
    expect(working.subarray(0, top * W).some((v) => v > 0)).toBe(true);
    expect(Array.from(searched.subarray(top * W))).toEqual(Array.from(working.subarray(top * W)));
    expect(Array.from(courtOnly.subarray(top * W))).toEqual(Array.from(searched.subarray(top * W)));
    // Without rims (a picture handed in alone) the whole mask is searched.
    expect(linesBelowRims(working, W, H)).toBe(working);
    // The mask handed to registerPicture in place of the stripe test's (as the learned mask is, at
    // twice the size each working pixel's 2 × 2): the court and its view.
    const fine = new Uint8Array(4 * W * H);
    for (let i = 0; i < W * H; i++) if (working[i]) { const x = i % W, y = (i - x) / W; for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) fine[(2 * y + dy) * 2 * W + 2 * x + dx] = 1; }
    const r = registerPicture(new Uint8Array(0), W, H, { rims: [rim], lines: { working, fine } })!;
    expect(r.type).toBe("fiba");
    expect(landmarkErrorM("fiba", truth, r.h)).toBeLessThan(0.3);
  });

  it("a court whose key fits a rule book but whose arcs are painted elsewhere is refused", () => {
    // Painted to no rule book (as senatopal_outdoor_behind_slowmo's court): a FIBA key with a
    // circle of 1.2 m and an arc of 5.6 m. Its 2 or 3 would be called against the wrong arc.
    const truth = fitCourt("fiba", half)!;
    const img = drawCourt("fiba", truth, 1, [], { ...COURT_TEMPLATES.fiba, freeThrowCircleRadius: 1.2, threeRadius: 5.6 });
    const mask = ridgeMask(img, W, H, { sidePx: 2 });
    expect(registerCourt(mask, W, H, houghLines(mask, W, H))).toBeNull();
  });

  // A key line hidden (a player on it, paint worn off): the key's other three lines and a line
  // parallel to the hidden one (the three-point line's straight part, a sideline) still fix the
  // view. The hidden lane's own corners are found from lines metres away, so within 0.5 m (the
  // issue's target), not 0.3. (With high school lines and the left lane hidden, the pre-2010 FIBA
  // court fits the same stripes better: not registered right, docs/analysis.md.)
  for (const [type, hidden] of [["fiba", "lane_left"], ["fiba", "lane_right"], ["nba", "lane_left"], ["fiba_2008", "lane_right"], ["high_school", "lane_right"]] as Array<[CourtTypeId, string]>) {
    it(`recovers the view with the key's ${hidden} hidden (${type})`, () => {
      const truth = fitCourt(type, half)!;
      const img = drawCourt(type, truth, 1, [hidden]);
      const mask = ridgeMask(img, W, H, { sidePx: 2 });
      const r = registerCourt(mask, W, H, houghLines(mask, W, H))!;
      expect(r).not.toBeNull();
      expect(r.type).toBe(type);
      expect(landmarkErrorM(type, truth, r.h)).toBeLessThan(0.5);
    });
  }

  // With the baseline hidden (out of frame) no four lines of the guesses enclose a quadrilateral
  // of the court: the picture is refused, not fitted to a wrong court (before, a wrong court with
  // landmarks metres off won on the NCAA and high school pictures).
  for (const type of COURT_TYPE_IDS) {
    it(`a view without the baseline is refused or right (${type})`, () => {
      const truth = fitCourt(type, half)!;
      const mask = ridgeMask(drawCourt(type, truth, 1, ["baseline"]), W, H, { sidePx: 2 });
      const r = registerCourt(mask, W, H, houghLines(mask, W, H));
      if (r) {
        expect(r.type).toBe(type);
        expect(landmarkErrorM(type, truth, r.h)).toBeLessThan(0.5);
      }
    });
  }

  it("a view whose key comes out mirrored or behind the camera is no view of the court", () => {
    const truth = fitCourt("fiba", half)!;
    expect(keySeenUpright(truth, "fiba")).toBe(true);
    // The picture mirrored (x' = W − x): the key's winding flips.
    const mirrored: H3 = [-truth[0] + W * truth[6], -truth[1] + W * truth[7], -truth[2] + W * truth[8], truth[3], truth[4], truth[5], truth[6], truth[7], truth[8]];
    expect(keySeenUpright(mirrored, "fiba")).toBe(false);
    // The camera turned round (every point's w negated): the key is behind it.
    expect(keySeenUpright(truth.map((v) => -v) as H3, "fiba")).toBe(false);
  });

  it("refinement pulls a guess that is a little off onto the painted lines", () => {
    const truth = fitCourt("fiba", half)!;
    const img = drawCourt("fiba", truth);
    const mask = ridgeMask(img, W, H, { sidePx: 2 });
    // The guess: the true view shifted 3 px right and 2 px down, and slightly turned.
    const c = Math.cos(0.01), s = Math.sin(0.01);
    const off: H3 = [c * truth[0] - s * truth[3] + 3 * truth[6], c * truth[1] - s * truth[4] + 3 * truth[7], c * truth[2] - s * truth[5] + 3 * truth[8],
      s * truth[0] + c * truth[3] + 2 * truth[6], s * truth[1] + c * truth[4] + 2 * truth[7], s * truth[2] + c * truth[5] + 2 * truth[8], truth[6], truth[7], truth[8]];
    const before = landmarkErrorM("fiba", truth, off);
    const refined = refineRegistration(off, "fiba", mask, W, H)!;
    expect(before).toBeGreaterThan(0.3);
    expect(landmarkErrorM("fiba", truth, refined)).toBeLessThan(before / 3);
  });

  it("a view that lays the court on a wall, or above the horizon, is no view of a floor", () => {
    const truth = fitCourt("fiba", half)!;
    const keyCentre = applyHomography(truth, [2.9, 0]);
    expect(plausibleView(truth, keyCentre)).toBe(true);
    // The same picture turned a quarter (x' = y, y' = W − x): the horizon stands upright.
    const turned: H3 = [truth[3], truth[4], truth[5], -truth[0] + W * truth[6], -truth[1] + W * truth[7], -truth[2] + W * truth[8], truth[6], truth[7], truth[8]];
    expect(plausibleView(turned, applyHomography(turned, [2.9, 0]))).toBe(false);
    // Upside down (y' = H − y): the court lies above its horizon.
    const flipped: H3 = [-truth[0] + W * truth[6], -truth[1] + W * truth[7], -truth[2] + W * truth[8], -truth[3] + H * truth[6], -truth[4] + H * truth[7], -truth[5] + H * truth[8], truth[6], truth[7], truth[8]];
    expect(plausibleView(flipped, applyHomography(flipped, [2.9, 0]))).toBe(false);
  });

  // A real picture (chonyy_outdoor_handheld_1shot at 0.5 s, a tuning clip) with fainter stripes
  // counted than the default (contrast 14, not 18): the best guess squeezed the whole court onto
  // the edge of the free-throw circle, seen edge-on (its key 27 px², landmarks 22–26 m off), and
  // every line drawn on that one stripe passed the stripe share. A key that small is no view.
  it("a view that squeezes the court onto one stripe is refused (a real picture, fainter stripes counted)", async () => {
    const clip = path.join(REALCLIPS_DIR, "clips", "chonyy_outdoor_handheld_1shot.mp4");
    expect(existsSync(clip), `no real clips at ${REALCLIPS_DIR}`).toBe(true);
    const buf = await runTool(FFMPEG, ["-v", "error", "-ss", "0.5", "-i", clip, "-frames:v", "1", "-vf", `scale=${W}:${H}`, "-f", "rawvideo", "-pix_fmt", "gray", "-"]);
    const mask = ridgeMask(new Uint8Array(buf.buffer, buf.byteOffset, W * H), W, H, { minContrast: 14 });
    const r = registerCourt(mask, W, H, houghLines(mask, W, H));
    if (r) {
      // Right or nothing: the labelled key corners (960×540) within 0.5 m of the found view's.
      const labelled = labels.frames.find((f) => f.clip === "chonyy_outdoor_handheld_1shot")!;
      const inv = invertHomography(r.h)!;
      const lm = courtLandmarks(COURT_TEMPLATES[r.type]);
      for (const p of labelled.landmarks) {
        const at = applyHomography(inv, [p.x / 2, p.y / 2]);
        expect(Math.hypot(at[0] - lm[p.name][0], at[1] - lm[p.name][1])).toBeLessThan(0.5);
      }
    }
  });

  it("the key of a view seen edge-on covers almost nothing; of a real view, several per cent of the picture", () => {
    const truth = fitCourt("fiba", half)!;
    expect(keyAreaPx(truth, "fiba")).toBeGreaterThan(0.03 * W * H);
    // The same view squashed onto the line y = 200 (every court point lands on one row but 1 % of its height).
    const squashed: H3 = [truth[0], truth[1], truth[2], 0.01 * truth[3] + 198 * truth[6], 0.01 * truth[4] + 198 * truth[7], 0.01 * truth[5] + 198 * truth[8], truth[6], truth[7], truth[8]];
    expect(keyAreaPx(squashed, "fiba")).toBeLessThan(COURT_REGISTRATION_DEFAULTS.MIN_KEY_AREA_SHARE * W * H);
  });

  // The view registered on the fast pan copy of chonyy_outdoor_45deg_2x_3shots (bench:invariance
  // --strong; a tuning clip's crop, 480×270) at 6 s before the camera rule: a high school court
  // folded onto the baseline stripe, its key corners along one line, its circle's and arc's tops on
  // one pixel. Its key covers 0.4 % of the picture, so the key-area rule let it through.
  const FOLDED: H3 = [43.304, -212.818, 361.31, 25.0805, -92.688, 240.296, 0.101031, -0.320636, 1];
  it("a view no camera can have is refused; the labelled real views are a camera's", () => {
    expect(keyAreaPx(FOLDED, "high_school")).toBeGreaterThan(COURT_REGISTRATION_DEFAULTS.MIN_KEY_AREA_SHARE * W * H);
    expect(cameraCanSee(FOLDED, W, H)).toBe(false);
    // Every labelled frame's view (fitted on its landmarks, at its own size) is one a camera has (the
    // lens comes out 29–33 mm, a phone's main camera), but chonyy_outdoor_45deg_2x_3shots at 7.42 s,
    // three of whose four landmarks lie on the baseline: they fix no view, and the fit is folded too.
    const frames = labels.frames as Array<{ clip: string; time_s: number; width: number; height: number; landmarks: NamedPoint[] }>;
    for (const f of frames) {
      const view = fitCourt("fiba", f.landmarks)!;
      expect(cameraCanSee(view, f.width, f.height), `${f.clip} at ${f.time_s} s`).toBe(!(f.clip === "chonyy_outdoor_45deg_2x_3shots" && f.time_s === 7.42));
    }
    expect(cameraCanSee(fitCourt("fiba", half)!, W, H)).toBe(true);
  });

  it("a camera lying on the floor, or behind a lens longer than a phone's zoom, is refused; one in a hand, on a tripod or in the stands is not", () => {
    // Looking at the basket from the wing, 8 m away, at each height and through each lens (35 mm equivalent).
    const at = (z: number, lensMm = 33) => camera((lensMm * Math.hypot(W, H)) / Math.hypot(36, 24), W / 2, H / 2, [7, 5, z], [1.6, 0, 0]);
    expect(COURT_REGISTRATION_DEFAULTS.MIN_CAMERA_HEIGHT_M).toBe(0.5);
    expect(COURT_REGISTRATION_DEFAULTS.MAX_LENS_MM).toBe(200);
    for (const z of [0.1, 0.2, 0.45]) expect(cameraCanSee(at(z), W, H), `${z} m`).toBe(false);
    for (const z of [0.55, 1.2, 1.7, 6]) expect(cameraCanSee(at(z), W, H), `${z} m`).toBe(true);
    for (const lens of [13, 26, 120, 190]) expect(cameraCanSee(at(1.5, lens), W, H), `${lens} mm`).toBe(true);
    for (const lens of [210, 400, 800]) expect(cameraCanSee(at(1.5, lens), W, H), `${lens} mm`).toBe(false);
  });

  it("faint lines one pixel wide at twice the working size are registered from that picture, and not from the working picture alone", () => {
    // A far court's lines: one pixel wide and 32 grey levels above the floor in the picture decoded
    // at twice the working size. Halved, each is spread over a working pixel and its neighbour at
    // half the contrast, under the stripe contrast (MIN_CONTRAST 18): chonyy_outdoor_handheld_1shot's
    // lane line at 480 px.
    for (const type of ["fiba", "high_school"] as CourtTypeId[]) {
      const truth = fitCourt(type, half)!;
      const grey = drawCourt(type, viewInPicture(truth, 0.5, 0, 0), 3, [], COURT_TEMPLATES[type], { width: 2 * W, height: 2 * H, floor: 100, noise: 3, line: 132 });
      const fine = Uint8Array.from({ length: grey.length * 3 }, (_, i) => grey[Math.floor(i / 3)]);
      const working = lineMask(halvePicture(fine, 2 * W, 2 * H), W, H);
      expect(registerCourt(working, W, H, houghLines(working, W, H))).toBeNull();
      const r = registerPicture(fine, W, H)!;
      expect(r).not.toBeNull();
      expect(r.type).toBe(type);
      expect(landmarkErrorM(type, truth, r.h)).toBeLessThan(0.3);
    }
  });

  it("a court behind ten stronger level lines (a fence) is still among the lines searched", () => {
    // chonyy_outdoor_handheld_1shot: a fence's bars behind the court give a dozen level lines, each
    // with more votes than the short free-throw line, which was then not among the 12 lines kept.
    // The bars here run across the whole picture above the court, one per texture window (16 px
    // apart), so they are ridges as a real fence's bars against the sky are.
    const truth = fitCourt("fiba", half)!;
    const img = drawCourt("fiba", truth, 4);
    for (let bar = 0; bar < 10; bar++) img.fill(230, (6 + 16 * bar) * W, (7 + 16 * bar) * W);
    const mask = ridgeMask(img, W, H, { sidePx: 2 });
    const bar = (l: { theta: number }) => Math.abs(l.theta - Math.PI / 2) < 0.01;
    // With no limit on one direction, the budget of 16 holds all ten bars and the court's lines; with
    // the limit (MAX_LINES_PER_DIRECTION), three bars.
    const unlimited = houghLines(mask, W, H, { perDirection: 0 });
    expect(unlimited.filter(bar).length).toBe(10);
    const lines = houghLines(mask, W, H);
    expect(lines.filter(bar).length).toBe(LINE_DEFAULTS.MAX_LINES_PER_DIRECTION);
    for (const found of [unlimited, lines]) {
      const r = registerCourt(mask, W, H, found)!;
      expect(r).not.toBeNull();
      expect(r.type).toBe("fiba");
      expect(landmarkErrorM("fiba", truth, r.h)).toBeLessThan(0.3);
    }
  });

  it("a floor without lines is not registered", () => {
    const random = seededRandom(5);
    const img = Uint8Array.from({ length: W * H }, () => 80 + Math.floor(random() * 30));
    const mask = ridgeMask(img, W, H, { sidePx: 2 });
    expect(registerCourt(mask, W, H, houghLines(mask, W, H))).toBeNull();
  });
});

describe("the learned line mask (models/court-lines/linenet.onnx)", () => {
  const rim = { cx: 656.5 / 2, cy: 149.6 / 2, w: 49.9 / 2, h: 14.8 / 2 };
  /** The drawn court's line pixels within `px` of each pixel (a small dilation), for matching a mask against them. */
  const near = (drawn: Uint8Array, px: number) => {
    const out = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      if (!drawn[y * W + x]) continue;
      for (let dy = -px; dy <= px; dy++) for (let dx = -px; dx <= px; dx++) {
        const X = x + dx, Y = y + dy;
        if (X >= 0 && Y >= 0 && X < W && Y < H) out[Y * W + X] = 1;
      }
    }
    return out;
  };

  /**
   * A wood floor seen from the side, at twice the working size (RGB): every row of pixels its own
   * shade of the grain, streaked along it, and the court's lines painted over it two pixels wide.
   */
  const woodFloor = (h: H3, seed: number): Uint8Array => {
    const w = 2 * W, hh = 2 * H, random = seededRandom(seed);
    const img = new Uint8Array(w * hh * 3);
    for (let y = 0; y < hh; y++) {
      const shade = (random() - 0.5) * 50;
      let streak = 0;
      for (let x = 0; x < w; x++) {
        streak = 0.97 * streak + (random() - 0.5) * 6;
        const v = shade + streak, i = 3 * (y * w + x);
        [img[i], img[i + 1], img[i + 2]] = [190 + v, 135 + 0.8 * v, 80 + 0.5 * v];
      }
    }
    const grey = drawCourt("fiba", h, seed, [], COURT_TEMPLATES.fiba, { width: w, height: hh, floor: 0, noise: 1, line: 255 });
    for (let i = 0; i < w * hh; i++) {
      if (grey[i] !== 255) continue;
      for (const j of [i, i + w]) if (j < w * hh) [img[3 * j], img[3 * j + 1], img[3 * j + 2]] = [235, 235, 225];
    }
    return img;
  };

  it("on a wood floor's grain the stripe test registers no court, and the learned mask registers it", async () => {
    const model = await loadCourtLineModel(courtLineModelPath());
    const truth = fitCourt("fiba", half)!;
    for (const seed of [1, 2, 3]) {
      const fine = woodFloor(viewInPicture(truth, 0.5, 0, 0), seed);
      expect(registerPicture(fine, W, H, { rims: [rim] }), `seed ${seed}`).toBeNull();
      const lines = await model.masks(halvePicture(fine, 2 * W, 2 * H), W, H);
      const r = registerPicture(fine, W, H, { rims: [rim], lines })!;
      expect(r?.type, `seed ${seed}`).toBe("fiba");
      expect(landmarkErrorM("fiba", truth, r.h)).toBeLessThan(0.3);
    }
  });

  it("a models folder with its own court-lines/linenet.onnx (HOOPS_MODEL_DIR) replaces the committed mask; one without keeps it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "court-lines-"));
    const committed = courtLineModelPath();
    expect(existsSync(committed)).toBe(true);
    expect(courtLineModelPath(dir)).toBe(committed);
    mkdirSync(path.join(dir, "court-lines"));
    writeFileSync(path.join(dir, "court-lines", "linenet.onnx"), "");
    expect(courtLineModelPath(dir)).toBe(path.join(dir, "court-lines", "linenet.onnx"));
    rmSync(dir, { recursive: true });
  });

  it("finds a drawn court's painted lines and little else, and the court registers on them", async () => {
    const model = await loadCourtLineModel(courtLineModelPath());
    const truth = fitCourt("fiba", half)!;
    const grey = drawCourt("fiba", truth, 5, [], COURT_TEMPLATES.fiba, { width: W, height: H, floor: 85, noise: 10, line: 230 });
    const drawn = grey.map((v) => (v === 230 ? 1 : 0));
    const rgb = Uint8Array.from({ length: W * H * 3 }, (_, i) => grey[Math.floor(i / 3)]);
    const { working, fine } = await model.masks(rgb, W, H);
    const drawnNear = near(drawn, 1), maskNear = near(working, 1);
    let drawnPx = 0, drawnFound = 0, maskPx = 0, maskOnLines = 0;
    for (let i = 0; i < W * H; i++) {
      if (drawn[i]) { drawnPx++; if (maskNear[i]) drawnFound++; }
      if (working[i]) { maskPx++; if (drawnNear[i]) maskOnLines++; }
    }
    expect(drawnFound / drawnPx).toBeGreaterThan(0.8);
    expect(maskOnLines / maskPx).toBeGreaterThan(0.9);
    // At twice the size each working pixel's 2 × 2.
    for (const [x, y] of [[100, 100], [240, 200], [300, 50]]) for (const [dx, dy] of [[0, 0], [1, 1]]) expect(fine[(2 * y + dy) * 2 * W + 2 * x + dx]).toBe(working[y * W + x]);
    const r = registerPicture(rgb, W, H, { rims: [rim], lines: { working, fine } })!;
    expect(r.type).toBe("fiba");
    expect(landmarkErrorM("fiba", truth, r.h)).toBeLessThan(0.3);
    // A bare floor has no lines.
    const bare = Uint8Array.from({ length: W * H * 3 }, (_, i) => 85 + (Math.floor(i / 3) * 7919) % 10);
    const none = (await model.masks(bare, W, H)).working.reduce((a, v) => a + v, 0);
    expect(none).toBeLessThan(0.002 * W * H);
  });
});
