import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, REALCLIPS_DIR } from "../../bench/realclips-manifest.ts";
import { cameraPath, COURT_CAMERA_DEFAULTS, COURT_VIEW_MATCH_DEFAULTS, courtViewAt, planCourtViews, viewDisagreementM, viewForFrame, type CourtView, type PictureMotion, type PictureStep } from "../../gpu-runner/analysis/rules/court-view.ts";
import { COURT_VIEW_DEFAULTS, observeCourtViews } from "../../gpu-runner/analysis/observe/court-views.ts";
import { fitCourt, type NamedPoint } from "../../gpu-runner/analysis/rules/court-fit.ts";
import { COURT_TEMPLATES, courtLines } from "../../gpu-runner/analysis/rules/court-template.ts";
import { framesInMemory } from "../../gpu-runner/media/frames.ts";
import { pictureShift } from "../../gpu-runner/vision/motion.ts";
import { seededRandom } from "../../gpu-runner/vision/random.ts";
import { analyzeGame } from "../../gpu-runner/analysis/pipeline.ts";
import { letterboxFor } from "../../gpu-runner/media/frames.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { applyHomography, viewInPicture, type H3 } from "../../gpu-runner/vision/homography.ts";
import { CACHE_DIR } from "./fixtures.ts";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const H0: H3 = [38, -22, 480, 6, 9, 300, 0.004, -0.028, 1];

describe("court views", () => {
  it("a shot takes the view nearest its release, none older than MAX_AGE_S", () => {
    const fps = 15;
    const views: CourtView[] = [0, 30, 60].map((frame) => ({ frame, type: "fiba", h: H0 }));
    expect(courtViewAt(views, 40, fps)!.frame).toBe(30);
    expect(courtViewAt(views, 60 + COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S * fps, fps)!.frame).toBe(60);
    expect(courtViewAt(views, 61 + COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S * fps, fps)).toBeNull();
    expect(courtViewAt([], 0, fps)).toBeNull();
  });

  it("a view found on a letterboxed working picture maps court points to the same source pixels", () => {
    // Court → source pixels of a 1280×720 frame; the working picture is 480×360 with bars.
    const lb = letterboxFor(1280, 720, 480, 360);
    const toWork = (p: [number, number]): [number, number] => [p[0] * lb.scale + lb.padX, p[1] * lb.scale + lb.padY];
    // The working picture's homography: the source homography followed by the letterbox.
    const work: H3 = [H0[0] * lb.scale + lb.padX * H0[6], H0[1] * lb.scale + lb.padX * H0[7], H0[2] * lb.scale + lb.padX * H0[8], H0[3] * lb.scale + lb.padY * H0[6], H0[4] * lb.scale + lb.padY * H0[7], H0[5] * lb.scale + lb.padY * H0[8], H0[6], H0[7], H0[8]];
    for (const p of [[2, 1], [5.8, -2.45], [0, 6.6]] as Array<[number, number]>) {
      const viaWork = applyHomography(work, p), src = applyHomography(H0, p);
      expect(Math.hypot(viaWork[0] - toWork(src)[0], viaWork[1] - toWork(src)[1])).toBeLessThan(1e-6);
      const back = applyHomography(viewInPicture(work, lb.scale, lb.padX, lb.padY), p);
      expect(Math.hypot(back[0] - src[0], back[1] - src[1])).toBeLessThan(1e-6);
    }
  });
});

/** H0 followed by a shift of the picture by (dx, dy) pixels: the same court seen by a camera that moved. */
const shifted = (h: H3, dx: number, dy: number): H3 => [h[0] + dx * h[6], h[1] + dx * h[7], h[2] + dx * h[8], h[3] + dy * h[6], h[4] + dy * h[7], h[5] + dy * h[8], h[6], h[7], h[8]];
const STILL: PictureMotion = { pictures: 5, maxShiftShare: 0, maxChangedShare: 0.05 };

describe("camera_setup: one view for a fixed camera, the nearest for a moving one", () => {
  const fps = 15;
  // Three pictures of a fixed camera, the middle one registered 2 px off (a player on a line).
  const steady: CourtView[] = [{ frame: 0, type: "fiba", h: H0 }, { frame: 30, type: "fiba", h: shifted(H0, 2, 0) }, { frame: 60, type: "fiba", h: shifted(H0, 4, 0) }];

  it("fixed, pictures still, views in agreement: the central view places every shot, however far from its picture", () => {
    const plan = planCourtViews(steady, "fixed", STILL);
    expect(plan.why).toBe("one_view");
    expect(plan.oneView!.frame).toBe(30);
    expect(plan.viewSpreadM).toBeLessThan(COURT_CAMERA_DEFAULTS.MAX_VIEW_SPREAD_M);
    // A shot two minutes in still has the court (the nearest-view rule gives none past MAX_AGE_S), and one near the first picture takes the same view.
    const late = 60 + 120 * fps;
    expect(courtViewAt(steady, late, fps)).toBeNull();
    expect(viewForFrame(plan, late, fps)!.frame).toBe(30);
    expect(viewForFrame(plan, 0, fps)!.frame).toBe(30);
  });

  it("panning or handheld: each shot takes the view nearest its release, as before", () => {
    for (const setup of ["panning", "handheld"] as const) {
      const plan = planCourtViews(steady, setup, STILL);
      expect(plan).toMatchObject({ why: "camera_moves", oneView: null });
      expect(viewForFrame(plan, 5, fps)!.frame).toBe(0);
      expect(viewForFrame(plan, 60 + 120 * fps, fps)).toBeNull();
    }
  });

  it("a fixed hint on pictures that moved, on views that disagree or without a measurement falls back to the nearest view", () => {
    const moved = planCourtViews(steady, "fixed", { ...STILL, maxShiftShare: 0.05 });
    expect(moved).toMatchObject({ why: "picture_moved", oneView: null });
    expect(viewForFrame(moved, 58, fps)!.frame).toBe(60);
    // A zoom or a cut changes most of the picture without a shift.
    expect(planCourtViews(steady, "fixed", { ...STILL, maxChangedShare: 0.8 }).why).toBe("picture_moved");
    // Pictures still by their shift, but the last view 40 px off (a slow drift between pictures, or a wrong registration).
    const drift = [...steady.slice(0, 2), { frame: 60, type: "fiba" as const, h: shifted(H0, 40, 0) }];
    expect(viewDisagreementM(drift[0], drift[2])).toBeGreaterThan(COURT_CAMERA_DEFAULTS.MAX_VIEW_SPREAD_M);
    expect(planCourtViews(drift, "fixed", STILL)).toMatchObject({ why: "views_disagree", oneView: null });
    // Two rule books fitted to one video: no one view.
    expect(planCourtViews([steady[0], { ...steady[1], type: "nba" }], "fixed", STILL).why).toBe("views_disagree");
    // Observations kept before the pass measured motion.
    expect(planCourtViews(steady, "fixed", undefined).why).toBe("motion_unknown");
    expect(planCourtViews([], "fixed", STILL)).toMatchObject({ why: "no_views", oneView: null });
  });

  it("a moving camera is followed picture by picture: a cut, a zoom or a pan past the search begins a new stretch", () => {
    const step = (frame: number, dx: number, dy: number, changedShare = 0.1, atLimit = false): PictureStep => ({ frame, fromPrevious: { dx, dy, changedShare, atLimit } });
    const steps: PictureStep[] = [
      { frame: 0, fromPrevious: null },
      step(30, 8, -2),
      step(60, 10, 0),
      step(90, 4, 4, COURT_CAMERA_DEFAULTS.MAX_CHANGED_SHARE + 0.1), // a cut
      step(120, -6, 0),
      step(150, 60, 0, 0.2, true), // a pan faster than the search
      step(180, 2, 2),
    ];
    expect(cameraPath(steps)).toEqual([
      { frame: 0, stretch: 0, offset: [0, 0] },
      { frame: 30, stretch: 0, offset: [8, -2] },
      { frame: 60, stretch: 0, offset: [18, -2] },
      { frame: 90, stretch: 1, offset: [0, 0] },
      { frame: 120, stretch: 1, offset: [-6, 0] },
      { frame: 150, stretch: 2, offset: [0, 0] },
      { frame: 180, stretch: 2, offset: [2, 2] },
    ]);
    // The setting is the fixed camera's: a looser one keeps the cut's picture in the stretch.
    expect(cameraPath(steps, { MAX_CHANGED_SHARE: 0.9 })[3]).toEqual({ frame: 90, stretch: 0, offset: [22, 2] });

    const fps = 15;
    const plan = planCourtViews([{ frame: 0, type: "fiba", h: H0 }, { frame: 120, type: "fiba", h: shifted(H0, 40, 0) }], "handheld", { ...STILL, steps });
    expect(plan.path).toHaveLength(steps.length);
    // A shot by the picture at 2 s takes the view of 0 s moved by the camera's 18 px right, 2 up since.
    const carried = viewForFrame(plan, 62, fps)!;
    expect(carried.frame).toBe(0);
    expect(carried.h).toEqual(shifted(H0, 18, -2));
    // After the cut the view of 0 s no longer places shots, though it is within MAX_AGE_S: the view of 8 s does, moved back to the picture of 6 s.
    expect(viewForFrame(plan, 88, fps)).toMatchObject({ frame: 120, h: shifted(shifted(H0, 40, 0), 6, 0) });
    // After the fast pan nothing registered: no court, where the nearest view would have been 2 s and a swing away.
    expect(courtViewAt(plan.views, 150, fps)!.frame).toBe(120);
    expect(viewForFrame(plan, 150, fps)).toBeNull();
    expect(viewForFrame(plan, 180, fps)).toBeNull();
    // Between two pictures of one stretch the camera is where it would be moving steadily from one
    // to the other: at 40, a third of the way from the picture at 30 to the one at 60, the 0 s view
    // moved 8 + 10 / 3 px right and 2 up (the nearest picture's place would be 8 px, 2 up).
    const between = viewForFrame(plan, 40, fps)!;
    expect(between.frame).toBe(0);
    shifted(H0, 8 + 10 / 3, -2).forEach((x, i) => expect(between.h[i]).toBeCloseTo(x, 9));
    // Observations kept before the steps were measured: the nearest view as registered, across the
    // cut and the camera's movement (as before the camera was followed).
    const old = planCourtViews(plan.views, "handheld", STILL);
    expect(old.path).toBeNull();
    expect(viewForFrame(old, 40, fps)).toEqual(plan.views[0]);
    expect(viewForFrame(old, 62, fps)).toEqual(plan.views[1]);
    expect(viewForFrame(old, 180, fps)).toEqual(plan.views[1]);
  });

  it("a picture's shift is found; a player moving over a still floor is no shift", () => {
    const W = 160, H = 96;
    const random = seededRandom(3);
    // A textured scene (blocks of 8 px), and the same scene with the camera turned 12 px right and 8 px down (its content moves 12 px left, 8 up).
    const blocks = Array.from({ length: (W / 8 + 10) * (H / 8 + 10) }, () => 40 + Math.floor(random() * 180));
    const scene = (ox: number, oy: number) => Uint8Array.from({ length: W * H }, (_, i) => blocks[Math.floor(((i % W) + ox + 40) / 8) + (W / 8 + 10) * Math.floor((Math.floor(i / W) + oy + 40) / 8)]);
    const first = scene(0, 0);
    expect(pictureShift(scene(12, 8), first, W, H)).toMatchObject({ dx: -12, dy: -8 });
    // To the pixel, not to the 4-px blocks the search runs on: a camera followed picture by picture moves a few pixels a step.
    expect(pictureShift(scene(6, 3), first, W, H)).toMatchObject({ dx: -6, dy: -3 });
    expect(pictureShift(scene(-2, 1), first, W, H)).toMatchObject({ dx: 2, dy: -1 });
    const player = Uint8Array.from(first);
    for (let y = 30; y < 70; y++) for (let x = 60; x < 76; x++) player[y * W + x] = 250;
    const still = pictureShift(player, first, W, H);
    expect(still).toMatchObject({ dx: 0, dy: 0 });
    expect(still.changedShare).toBeGreaterThan(0);
    expect(still.changedShare).toBeLessThan(COURT_CAMERA_DEFAULTS.MAX_CHANGED_SHARE);
  });
});

describe("the court pass and camera_setup (synthetic court pictures)", () => {
  const W = 480, H = 270;
  // A real camera's view (the labelled tuning frame, 960×540, at half size), as court-registration.test.ts draws courts.
  const labels = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/court-landmarks.json"), "utf8")) as { frames: Array<{ clip: string; landmarks: NamedPoint[] }> };
  const truth = fitCourt("fiba", labels.frames.find((f) => f.clip === "chonyy_outdoor_45deg_2x_3shots")!.landmarks.map((p) => ({ ...p, x: p.x / 2, y: p.y / 2 })))!;
  /**
   * An RGB picture of a grey floor with the FIBA lines painted through h; the floor's grain moved by
   * `moved` pixels with them (a camera that turned moves the whole floor, not only its lines).
   */
  const picture = (h: H3, moved: [number, number] = [0, 0]) => {
    const data = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = y * W + x, grain = Math.imul(Math.imul(x - moved[0], 73856093) ^ Math.imul(y - moved[1], 19349663), 2654435761) >>> 0;
        data.fill(85 + (grain % 10), 3 * i, 3 * i + 3);
      }
    for (const l of courtLines(COURT_TEMPLATES.fiba)) {
      const n = 4000;
      for (let k = 0; k <= n; k++) {
        const p: [number, number] = l.kind === "segment" ? [l.a[0] + ((l.b[0] - l.a[0]) * k) / n, l.a[1] + ((l.b[1] - l.a[1]) * k) / n] : [l.centre[0] + l.radius * Math.cos(l.from + ((l.to - l.from) * k) / n), l.centre[1] + l.radius * Math.sin(l.from + ((l.to - l.from) * k) / n)];
        if (h[6] * p[0] + h[7] * p[1] + h[8] <= 0) continue;
        const [x, y] = applyHomography(h, p);
        const X = Math.round(x), Y = Math.round(y);
        if (X >= 0 && Y >= 0 && X < W && Y < H) data.fill(230, 3 * (Y * W + X), 3 * (Y * W + X) + 3);
      }
    }
    return { data, width: W, height: H };
  };
  /** A grey floor without court lines (players hide them, or the camera looks away). */
  const floor = { data: Uint8Array.from({ length: W * H * 3 }, (_, i) => 85 + ((i * 7919) % 10)), width: W, height: H };
  /**
   * A view carried to another picture places the court where that picture shows it (within 3 px of
   * `want`'s points), where the view as registered (`asRegistered`) is more than `offPx` away.
   */
  const expectPlacedInItsPicture = (view: CourtView, want: H3, asRegistered: H3, offPx: number) => {
    for (const p of [[COURT_TEMPLATES.fiba.basketFromBaseline, 0], [5.8, -2.45], [5.8, 2.45]] as Array<[number, number]>) {
      const got = applyHomography(view.h, p), there = applyHomography(want, p), registered = applyHomography(asRegistered, p);
      expect(Math.hypot(got[0] - there[0], got[1] - there[1])).toBeLessThan(3);
      expect(Math.hypot(registered[0] - there[0], registered[1] - there[1])).toBeGreaterThan(offPx);
    }
  };
  const seconds = 30;

  it("a fixed camera's long video is registered FIXED_PICTURES times, spread over it, and gives one view", async () => {
    const still = picture(truth);
    const pass = await observeCourtViews(framesInMemory(Array.from({ length: seconds }, () => still), 1), 15, { camera: "fixed", durationS: seconds });
    expect(pass.motion).toMatchObject({ pictures: COURT_VIEW_DEFAULTS.FIXED_PICTURES, maxShiftShare: 0 });
    expect(pass.views.length).toBe(COURT_VIEW_DEFAULTS.FIXED_PICTURES);
    expect(planCourtViews(pass.views, "fixed", pass.motion).why).toBe("one_view");
  }, 60_000);

  it("a fixed hint on a video whose picture moves halfway is registered every EVERY_S, as a moving camera's, and each shot takes the nearest view", async () => {
    const before = picture(truth), after = picture(shifted(truth, 24, 0), [24, 0]);
    const frames = Array.from({ length: seconds }, (_, s) => (s < seconds / 2 ? before : after));
    const pass = await observeCourtViews(framesInMemory(frames, 1), 15, { camera: "fixed", durationS: seconds });
    expect(pass.motion.pictures).toBe(seconds / COURT_VIEW_DEFAULTS.EVERY_S);
    expect(pass.motion.maxShiftShare).toBeGreaterThan(COURT_CAMERA_DEFAULTS.MAX_PICTURE_SHIFT_SHARE);
    const plan = planCourtViews(pass.views, "fixed", pass.motion);
    expect(plan).toMatchObject({ why: "picture_moved", oneView: null });
    // A shot late in the video is placed with a view of the moved picture.
    const late = viewForFrame(plan, (seconds - 1) * 15, 15)!;
    const basket = applyHomography(late.h, [COURT_TEMPLATES.fiba.basketFromBaseline, 0]);
    const movedBasket = applyHomography(shifted(truth, 24, 0), [COURT_TEMPLATES.fiba.basketFromBaseline, 0]);
    expect(Math.hypot(basket[0] - movedBasket[0], basket[1] - movedBasket[1])).toBeLessThan(6);
  }, 60_000);

  it("a handheld camera is followed from the picture its view was registered on to the pictures where none was", async () => {
    // The camera drifts steadily, 4 px right and 2 px down a second (the court's pixels move left
    // and up): 4 and 2 px between the pictures it is followed on (one a second: the video has no
    // more). Only the first picture's view is kept, as where players hide the lines in the others.
    const drift = (s: number): H3 => shifted(truth, -4 * s, -2 * s);
    // 12 s: not a short video (MIN_REGISTERED × EVERY_S), so registered every EVERY_S.
    const frames = Array.from({ length: 12 }, (_, s) => picture(drift(s), [-4 * s, -2 * s]));
    const pass = await observeCourtViews(framesInMemory(frames, 1), 15, { camera: "handheld", durationS: 12 });
    expect(pass.motion.steps!.map((s) => s.fromPrevious && [s.fromPrevious.dx, s.fromPrevious.dy])).toEqual([null, ...Array.from({ length: 11 }, () => [-4, -2])]);
    expect(pass.views.map((v) => v.frame)).toEqual([0, 30, 60, 90, 120, 150]);
    const first = pass.views[0];
    const plan = planCourtViews([first], "handheld", pass.motion);
    // A shot at 5.5 s, between the pictures of 5 and 6 s (20 and 24 px left, 10 and 12 up of the
    // first), is placed on the court where it is in its own picture (22 px left, 11 up), not in the
    // nearest picture's.
    const view = viewForFrame(plan, 5.5 * 15, 15)!;
    expect(view.frame).toBe(0);
    expectPlacedInItsPicture(view, drift(5.5), first.h, 15);
  }, 60_000);

  it("each picture is numbered by the frame it shows: about half an interval after its slot's time", async () => {
    // 4 s at 15 frames a second, followed on 8 pictures every EVERY_S (one every 3.75 frames); the
    // court is in view only on frames 0–3. ffmpeg's fps filter hands out, for the picture of 0 s,
    // the last frame before 0.125 s (frame 1), for 0.25 s frame 5, and so on.
    expect(COURT_VIEW_DEFAULTS.FOLLOW_STEPS).toBe(8);
    const court = picture(truth);
    const frames = Array.from({ length: 60 }, (_, k) => (k <= 3 ? court : floor));
    const pass = await observeCourtViews(framesInMemory(frames, 15), 15, { camera: "handheld", durationS: 4 });
    expect(pass.motion.steps!.map((s) => s.frame)).toEqual([1, 5, 9, 13, 16, 20, 24, 28, 31, 35, 39, 43, 46, 50, 54, 58]);
    expect(pass.views.map((v) => v.frame)).toEqual([1]);
    // At 10 frames a second the first picture is frame 1 of the source (0.1 s), frame 2 of the 15-frame timeline (1.5 rounded up).
    const slower = await observeCourtViews(framesInMemory(Array.from({ length: 40 }, (_, k) => (k <= 2 ? court : floor)), 10), 15, { camera: "handheld", durationS: 4 });
    expect(slower.views.map((v) => v.frame)).toEqual([2]);
  }, 60_000);

  it("a sway between the registered pictures is followed on the pictures between them", async () => {
    // The camera sways 12 px right and back every EVERY_S: the registered pictures, EVERY_S apart,
    // all see it in the same place, so only the pictures between them can tell where it pointed.
    const swayPx = (t: number) => Math.round(12 * Math.sin((2 * Math.PI * t) / COURT_VIEW_DEFAULTS.EVERY_S));
    const sway = (t: number): H3 => shifted(truth, swayPx(t), 0);
    const fps = 4, seconds = 8;
    const frames = Array.from({ length: seconds * fps }, (_, k) => picture(sway(k / fps), [swayPx(k / fps), 0]));
    const pass = await observeCourtViews(framesInMemory(frames, fps), fps, { camera: "handheld", durationS: seconds });
    // Followed on every picture (the video has 8 a registration interval): 0, 8, 12, 8, 0, −8, … px.
    expect(pass.motion.steps!.slice(0, 5).map((s) => [s.frame, s.fromPrevious?.dx ?? null])).toEqual([[0, null], [1, 8], [2, 4], [3, -4], [4, -8]]);
    const first = pass.views.find((v) => v.frame === 0)!;
    expect(first).toBeDefined();
    const plan = planCourtViews([first], "handheld", pass.motion);
    // A shot at 4.5 s, at the sway's right end: where the court is in its own picture, not in the registered one's.
    expectPlacedInItsPicture(viewForFrame(plan, 4.5 * fps, fps)!, sway(4.5), first.h, 8);
  }, 60_000);

  it("a short video is registered MIN_REGISTERED times, spread over it: a court seen for a moment between two EVERY_S pictures is registered", async () => {
    // 4 s at 15 frames a second, the court in view only from 0.5 to 1.2 s (players hide it before
    // and after). Every EVERY_S the pass would register the pictures of 0.125 and 2.125 s and miss
    // it; 4 s is shorter than MIN_REGISTERED × EVERY_S, so every 0.5 s: 0.125, 0.625, 1.125 s, ….
    expect(COURT_VIEW_DEFAULTS.MIN_REGISTERED).toBe(6);
    const court = picture(truth);
    const frames = Array.from({ length: 60 }, (_, k) => (k >= 8 && k <= 18 ? court : floor));
    const pass = await observeCourtViews(framesInMemory(frames, 15), 15, { camera: "handheld", durationS: 4 });
    expect(pass.motion.pictures).toBe(8);
    expect(pass.views.map((v) => v.frame)).toEqual([9, 16]);
    // A long video is registered every EVERY_S as before.
    const long = await observeCourtViews(framesInMemory(Array.from({ length: seconds }, () => court), 1), 15, { camera: "handheld", durationS: seconds });
    expect(long.motion.pictures).toBe(seconds / COURT_VIEW_DEFAULTS.EVERY_S);
  }, 60_000);

  it("with the video's rims, a picture is registered only where a rim is in view and the court's basket is under it", async () => {
    // The rim watch's box on the real clip this view comes from, at half size (court-registration.test.ts).
    const rim = { cx: 656.5 / 2, cy: 149.6 / 2, w: 49.9 / 2, h: 14.8 / 2 };
    const frames = Array.from({ length: seconds }, () => picture(truth));
    const timeline = seconds * 15;
    // In view for the first half of the video only (a camera that turned away, a scene without it).
    const firstHalf = [{ boxes: Array.from({ length: timeline }, () => rim), active: [[0, timeline / 2]] as Array<[number, number]> }];
    const pass = await observeCourtViews(framesInMemory(frames, 1), 15, { camera: "fixed", durationS: seconds, rims: firstHalf });
    expect(pass.motion.pictures).toBe(COURT_VIEW_DEFAULTS.FIXED_PICTURES);
    expect(pass.views.length).toBe(COURT_VIEW_DEFAULTS.FIXED_PICTURES / 2);
    expect(pass.views.every((v) => v.frame < timeline / 2)).toBe(true);
    // A rim 150 px to the side of the court's basket: the lines belong to no rim seen, and no court is registered.
    const aside = [{ boxes: Array.from({ length: timeline }, () => ({ ...rim, cx: rim.cx + 150 })) }];
    expect((await observeCourtViews(framesInMemory(frames, 1), 15, { camera: "fixed", durationS: seconds, rims: aside })).views).toEqual([]);
  }, 60_000);

  it("a fixed camera's still video without court lines is not registered again every EVERY_S", async () => {
    const pass = await observeCourtViews(framesInMemory(Array.from({ length: seconds }, () => floor), 1), 15, { camera: "fixed", durationS: seconds });
    expect(pass).toMatchObject({ views: [], motion: { pictures: COURT_VIEW_DEFAULTS.FIXED_PICTURES, maxShiftShare: 0 } });
  }, 60_000);

  it("panning: every EVERY_S, however long the video", async () => {
    const still = picture(truth);
    const pass = await observeCourtViews(framesInMemory(Array.from({ length: seconds }, () => still), 1), 15, { camera: "panning", durationS: seconds });
    expect(pass.motion.pictures).toBe(seconds / COURT_VIEW_DEFAULTS.EVERY_S);
  }, 60_000);
});

describe("shots placed on a court registered from its lines (real footage)", () => {
  it("chonyy_outdoor_45deg_2x_3shots: every shot on a FIBA court, just behind the free-throw line, a two", async () => {
    expect(existsSync(path.join(REALCLIPS_DIR, "manifest.json")), `no real clips at ${REALCLIPS_DIR}`).toBe(true);
    const clip = readManifest().find((c) => c.file.includes("chonyy_outdoor_45deg_2x_3shots"))!;
    const file = path.join(REALCLIPS_DIR, clip.file);
    const r = await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(CACHE_DIR, "court-views", "45deg"), options: {} });
    expect(r.shots.length).toBeGreaterThan(0);
    // A handheld clip submitted with the default camera_setup (fixed): its registered pictures drift
    // (up to 3.1 % of the width from the first), so the hint falls back to the nearest view and says so.
    expect(r.diagnostics.court).toMatchObject({ camera_setup: "fixed", views: 7, why: "picture_moved", one_view_s: null });
    expect(r.diagnostics.court!.motion!.maxShiftShare).toBeGreaterThan(COURT_CAMERA_DEFAULTS.MAX_PICTURE_SHIFT_SHARE);
    const rows = readFileSync(r.artifacts.actions, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((x) => x.type === "shot");
    for (const s of r.shots) {
      // The labelled feet (bench/court-landmarks.json) are 6.1 m from the baseline, 0.5–0.7 m left of the middle: chart (0.45–0.47, 0.43–0.44).
      const [across, out] = s.location.shot_world_normed!;
      expect(across).toBeGreaterThan(0.38);
      expect(across).toBeLessThan(0.56);
      expect(out * 14).toBeGreaterThan(5);
      expect(out * 14).toBeLessThan(7.2);
      expect(s.is_three_point).toBe(false);
      // Just behind the free-throw line, but off a dribble: no free throw (rules/free-throw.ts), and the rule's view is in the evidence.
      expect(s.is_free_throw).toBe(false);
      expect(rows.find((x) => x.shot === s.key)!.evidence.free_throw).toMatchObject({ freeThrow: false });
      expect(rows.find((x) => x.shot === s.key)!.evidence.court).toBe("fiba");
      expect(rows.find((x) => x.shot === s.key)!.evidence.court_view).toMatchObject({ why: "picture_moved" });
      expect(s.court).toEqual({ type: "fiba", found_by: "lines" });
    }
  });
});
