// Free throws (issue 25, point 2). On a court registered from its lines: the rule on small arrays of
// feet seen in pixels and taken onto the court through a known homography, and the rule wired where
// a real-footage shot's facts are decided (draftShots with a registered court view). Without a
// registered court: the rule on feet in standing heights at an estimated distance, and draftShots
// with no court, the shooter's size and the rim's width giving the distance.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { draftShots, type AttributionInput } from "../../gpu-runner/analysis/rules/attribution.ts";
import { COURT_TEMPLATES, type CourtTypeId } from "../../gpu-runner/analysis/rules/court-template.ts";
import { COURT_FREE_FREE_THROW_DEFAULTS, courtFreeFreeThrowCall, FREE_THROW_DEFAULTS, freeThrowCall, type SizedPerson } from "../../gpu-runner/analysis/rules/free-throw.ts";
import { estimateShotDistance, placeBySize, PLAYER_HEIGHT_M, RIM_BOX_WIDTH_M } from "../../gpu-runner/analysis/rules/distance.ts";
import { shotPoints } from "../../contract/box-score.ts";
import { readManifest } from "../../bench/realclips-manifest.ts";
import { trueFreeThrows } from "../../bench/realclips.ts";
import { RELEASE_DEFAULTS } from "../../gpu-runner/analysis/rules/flight.ts";
import type { Identity } from "../../gpu-runner/analysis/rules/players.ts";
import type { BallObs, PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";
import type { Box, Point } from "../../gpu-runner/analysis/types.ts";
import { applyHomography, fitHomography, invertHomography } from "../../gpu-runner/vision/homography.ts";
import { COURT_VIEW_MATCH_DEFAULTS, planCourtViews } from "../../gpu-runner/analysis/rules/court-view.ts";
import type { CameraSetup } from "../../contract/job-options.ts";

// A camera behind the half-court line looking at the basket: court metres → 1280×720 pixels.
const fiba = COURT_TEMPLATES.fiba;
const H = fitHomography([[0, -7.5], [0, 7.5], [14, -7.5], [14, 7.5]], [[340, 200], [940, 200], [-200, 700], [1480, 700]])!;
const toPixels = (p: Point): Point => applyHomography(H, p) as Point;
const toCourt = (px: Point): Point => applyHomography(invertHomography(H)!, px) as Point;
/** A court position seen by the camera, 2 px off (a box's foot point is never exact), and taken back onto the court. */
const seen = (p: Point, k = 0): Point => {
  const px = toPixels(p);
  return toCourt([px[0] + 2 * Math.cos(k), px[1] + 2 * Math.sin(k)]);
};
const FPS = 10;
/** The shooter's feet on every frame of the `seconds` before the release, from `at(s)` (court metres). */
const history = (seconds: number, at: (s: number) => Point | null) =>
  Array.from({ length: Math.round(seconds * FPS) }, (_, i) => {
    const s = (i + 1) / FPS;
    const p = at(s);
    return { s, feet: p ? seen(p, i) : null };
  });

const line = fiba.freeThrowFromBaseline;
const spot: Point = [line + 0.3, 0.2];

describe("the free-throw rule (rules/free-throw.ts)", () => {
  it("calls a shooter at the line who stood still before the shot", () => {
    const r = freeThrowCall({ template: fiba, feet: seen(spot), before: history(3, () => spot), others: [] });
    expect(r).toMatchObject({ freeThrow: true, atLine: true, linedUp: 0 });
    expect(r.stillS).toBeGreaterThanOrEqual(FREE_THROW_DEFAULTS.PAUSE_S);
  });

  it("does not call a jump shot from the same spot off a dribble: the feet moved a second before", () => {
    // Dribbled in from the wing (4 m away) and stopped at the line 1 s before the release.
    const r = freeThrowCall({ template: fiba, feet: seen(spot), before: history(3, (s) => (s <= 1 ? spot : [line + 2, 3.5])), others: [] });
    expect(r.atLine).toBe(true);
    expect(r.stillS).toBeLessThan(1.2);
    expect(r.freeThrow).toBe(false);
  });

  it("does not call a set shot away from the line: at the three-point arc, or beside the key", () => {
    const deep: Point = [fiba.basketFromBaseline + 7, 0];
    expect(freeThrowCall({ template: fiba, feet: seen(deep), before: history(3, () => deep), others: [] })).toMatchObject({ freeThrow: false, atLine: false });
    const elbow: Point = [line, 2.4];
    expect(freeThrowCall({ template: fiba, feet: seen(elbow), before: history(3, () => elbow), others: [] })).toMatchObject({ freeThrow: false, atLine: false });
    // Inside the line by more than IN_FRONT_M: not from the line.
    const inside: Point = [line - FREE_THROW_DEFAULTS.IN_FRONT_M - 0.3, 0];
    expect(freeThrowCall({ template: fiba, feet: seen(inside), before: history(3, () => inside), others: [] }).atLine).toBe(false);
  });

  it("does not call a shooter hidden for most of the pause, nor one seen for less than the pause (the video starts)", () => {
    const hidden = history(3, (s) => (s < 0.5 ? spot : null));
    expect(freeThrowCall({ template: fiba, feet: seen(spot), before: hidden, others: [] }).freeThrow).toBe(false);
    expect(freeThrowCall({ template: fiba, feet: seen(spot), before: history(1.4, () => spot), others: [] }).freeThrow).toBe(false);
  });

  it("others lined up along the key make a shorter pause enough (a game's free throw)", () => {
    // Two on each lane line, 0.5 m outside it, at 2.5 m and 4 m from the baseline; a referee far away.
    const lane = fiba.keyWidthFreeThrow / 2 + 0.5;
    const others = [[2.5, -lane], [4, -lane], [2.5, lane], [4, lane], [9, 6]].map((p, k) => seen(p as Point, k));
    const short = history(3, (s) => (s <= 1 ? spot : [line + 3, -4]));
    const r = freeThrowCall({ template: fiba, feet: seen(spot), before: short, others });
    expect(r).toMatchObject({ freeThrow: true, linedUp: 4 });
    expect(freeThrowCall({ template: fiba, feet: seen(spot), before: short, others: [] }).freeThrow).toBe(false);
  });

  it("takes the line and the lanes from the registered court type", () => {
    // NBA: the line 19 ft (5.79 m) out, a 16 ft lane; FIBA before 2010: a trapezoid key 6 m wide at the baseline.
    const nba = COURT_TEMPLATES.nba;
    const nbaSpot: Point = [nba.freeThrowFromBaseline + 0.2, 0];
    expect(freeThrowCall({ template: nba, feet: nbaSpot, before: history(3, () => nbaSpot), others: [] }).freeThrow).toBe(true);
    const old = COURT_TEMPLATES.fiba_2008;
    // 1.7 m from the baseline the trapezoid is 2.65 m half wide: 3.3 m across stands 0.65 m outside it, lined
    // up; 2.5 m across is inside the trapezoid (but would be outside FIBA's 2.45 m lane); 4.2 m is too far out.
    const r = freeThrowCall({ template: old, feet: spot, before: history(3, () => spot), others: [[1.7, 3.3], [1.7, -3.3], [1.7, 2.5], [1.7, 4.2]] });
    expect(r.linedUp).toBe(2);
    expect(freeThrowCall({ template: fiba, feet: spot, before: history(3, () => spot), others: [[1.7, 2.5]] }).linedUp).toBe(1);
  });
});


/** The parts of an attribution input every one-shooter fixture here shares: player_1 holds the ball until `release`, and the made shot reaches the rim at `rimFrame`. */
function oneShooterShot(frames: number, release: number, rimFrame: number, boxes: Box[], ball: Array<BallObs | null>, rim: Box) {
  const identity: Identity = { key: "player_1", trackIds: [1], team_id: 0, jersey: null, frames, firstFrame: 0, valid: true, name: null, user_id: null, metadata: {} };
  const shooter: PlayerTrack = { id: 1, frames: boxes.map((_, f) => f), boxes, colors: boxes.map(() => [40, 40, 200] as [number, number, number]), jerseyReads: [] };
  return {
    fps: FPS,
    frames,
    events: [{ hoop: 0, rimFrame, endFrame: rimFrame + 5, made: true }],
    ball,
    rims: [{ id: 0, coverage: 1, boxes: Array.from({ length: frames }, () => rim), detections: frames }],
    tracks: [shooter],
    identities: [identity],
    owners: Array.from({ length: frames }, (_, f) => (f <= release ? "player_1" : null)),
    segments: [{ track: "player_1", start: 0, end: release }],
  };
}

describe("free throws where a real-footage shot's facts are decided (draftShots)", () => {
  const types: CourtTypeId[] = ["fiba", "nba"];
  /**
   * One shooter standing at `at(frame)` (court metres) holding the ball at chest height, releasing it
   * at frame 50 towards a rim at the top; a court view registered at frame 50 (court → source pixels).
   */
  function game(at: (frame: number) => Point, type: CourtTypeId = "fiba", court?: { frames: number; viewFrame: number; camera: CameraSetup }): AttributionInput {
    const frames = court?.frames ?? 80, release = 50, rimFrame = 60;
    // The same picture of the court's corners, whatever the court's size.
    const t = COURT_TEMPLATES[type];
    const h = fitHomography([[0, -t.width / 2], [0, t.width / 2], [t.halfLength, -t.width / 2], [t.halfLength, t.width / 2]], [[340, 200], [940, 200], [-200, 700], [1480, 700]])!;
    const boxes = Array.from({ length: frames }, (_, f) => {
      const [x, y] = applyHomography(h, at(Math.min(f, release)));
      return { cx: x, cy: y - 90, w: 60, h: 180 };
    });
    const ball: Array<BallObs | null> = Array.from({ length: frames }, (_, f) => {
      const b = boxes[Math.min(f, release)];
      if (f <= release) return { cx: b.cx + 20, cy: b.cy - 10, w: 22, h: 22, score: 0.9 };
      if (f <= rimFrame) return { cx: b.cx + 20 + ((640 - b.cx) * (f - release)) / (rimFrame - release), cy: b.cy - 10 - 30 * (f - release), w: 22, h: 22, score: 0.9 };
      return null;
    });
    return {
      ...oneShooterShot(frames, release, rimFrame, boxes, ball, { cx: 640, cy: 120, w: 40, h: 12 }),
      heightModel: () => 180,
      keySamples: null,
      court: court ? planCourtViews([{ frame: court.viewFrame, type, h }], court.camera, { pictures: 7, maxShiftShare: 0, maxChangedShare: 0.05 }) : planCourtViews([{ frame: release, type, h }], "handheld", null),
      picture: { width: 1280, height: 720, scale: 1, padX: 0, padY: 0 },
      release: RELEASE_DEFAULTS,
    };
  }

  it("a shooter still at the line for the pause: a free throw (1 point), neither two nor three", () => {
    for (const type of types) {
      const t = COURT_TEMPLATES[type];
      const [d] = draftShots(game(() => [t.freeThrowFromBaseline + 0.3, 0.1], type));
      expect(d.courtType).toBe(type);
      expect(d.is_free_throw).toBe(true);
      expect(d.is_three_point).toBe(false);
      expect(d.freeThrow).toMatchObject({ freeThrow: true, atLine: true });
    }
  });

  it("the same spot reached by a drive one second before the release: a two", () => {
    const [d] = draftShots(game((f) => (f >= 40 ? [line + 0.3, 0.1] : [line + 3, -4 + 0.1 * f])));
    expect(d.is_free_throw).toBe(false);
    expect(d.freeThrow).toMatchObject({ freeThrow: false, atLine: true });
    expect(d.is_three_point).toBe(false);
  });

  it("camera_setup: a view registered 7 s after the release places the shot for a fixed camera (one view), not for a handheld one", () => {
    const spot: Point = [4, 1];
    // A 13 s clip with its one registered picture at 12 s, 7 s after the release (over MAX_AGE_S).
    const court = { frames: 130, viewFrame: 120 };
    expect((court.viewFrame - 50) / FPS).toBeGreaterThan(COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S);
    const [fixed] = draftShots(game(() => spot, "fiba", { ...court, camera: "fixed" }));
    expect(fixed.courtType).toBe("fiba");
    expect(fixed.courtViewFrame).toBe(120);
    expect(Math.hypot(fixed.world![0] - spot[0], fixed.world![1] - spot[1])).toBeLessThan(0.05);
    const [handheld] = draftShots(game(() => spot, "fiba", { ...court, camera: "handheld" }));
    expect(handheld.courtType).toBeNull();
    expect(handheld.world).toBeNull();
  });
});

describe("free throws without a registered court (rules/free-throw.ts courtFreeFreeThrowCall)", () => {
  const o = COURT_FREE_FREE_THROW_DEFAULTS;
  /** Feet relative to the rim in standing heights, `s` seconds before the release, from `at(s)`; seen on every frame of the `seconds` looked at. */
  const heights = (seconds: number, at: (s: number) => Point | null) =>
    Array.from({ length: Math.round(seconds * FPS) }, (_, i) => ({ s: (i + 1) / FPS, feet: at((i + 1) / FPS) }));
  const set: Point = [0.1, 1.6];
  /** Walked in from the side and stood still from `stillS` seconds before the release, with a little sway (0.02 heights). */
  const walkedIn = (stillS: number) => heights(10, (s) => (s <= stillS ? [set[0] + 0.02 * Math.sin(7 * s), set[1]] : [set[0] + 1.5 * (s - stillS), set[1] - 0.2]));
  /** The shooter straight in line with a rim 4.2 m farther from the camera. */
  const shooter = (before: SizedPerson["before"]): SizedPerson => ({ feet: set, before, at: [0, 5] });
  const rim: Point = [0, 9.2];
  /** A distance the picture fixes whatever the lens (a side view): the range is the estimate itself. */
  const fixedAt = (d: number | null) => ({ distanceM: d, distanceRangeM: d === null ? null : ([d, d] as [number, number]) });

  it("a set stance at the free-throw distance, stepped into before the pause: a free throw", () => {
    const r = courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(walkedIn(4)), rim, others: [] });
    expect(r).toMatchObject({ freeThrow: true, atLine: true, linedUp: 0, court: "not_registered", distanceM: 4.2, distanceRangeM: [4.2, 4.2], steppedIn: true });
    expect(r.stillS).toBeGreaterThanOrEqual(o.PAUSE_S);
  });

  it("a jumper at the same distance after a dribble (the feet moved within the pause): not a free throw", () => {
    // Dribbled across: the feet move 0.8 heights a second until 1 s before the release.
    const r = courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(heights(10, (s) => (s <= 1 ? set : [set[0] + 0.8 * (s - 1), set[1]]))), rim, others: [] });
    expect(r.atLine).toBe(true);
    expect(r.stillS).toBeLessThan(1.5);
    expect(r.freeThrow).toBe(false);
  });

  it("a still shooter at 7 m or 2 m is not at the free-throw distance; nor is one without an estimate", () => {
    for (const distanceM of [7, 2, null]) {
      const r = courtFreeFreeThrowCall({ ...fixedAt(distanceM), shooter: shooter(walkedIn(4)), rim, others: [] });
      expect(r).toMatchObject({ freeThrow: false, atLine: false });
    }
    // The window's edges, with the units in the names.
    expect(courtFreeFreeThrowCall({ ...fixedAt(o.MIN_DISTANCE_M), shooter: shooter(walkedIn(4)), rim, others: [] }).freeThrow).toBe(true);
    expect(courtFreeFreeThrowCall({ ...fixedAt(o.MAX_DISTANCE_M + 0.1), shooter: shooter(walkedIn(4)), rim, others: [] }).freeThrow).toBe(false);
  });

  it("at the line is judged on the distances the picture allows over the lenses, not on the assumed lens alone", () => {
    // From behind, the 70° estimate says 1.9 m, but through a longer lens the same picture is 9 m away: the line lies within.
    const behind = courtFreeFreeThrowCall({ distanceM: 1.9, distanceRangeM: [1.0, 9.0], shooter: shooter(walkedIn(4)), rim, others: [] });
    expect(behind).toMatchObject({ freeThrow: true, atLine: true, distanceM: 1.9, distanceRangeM: [1.0, 9.0] });
    // A range that ends before the window, or starts after it, is not at the line.
    for (const range of [[1.0, o.MIN_DISTANCE_M - 0.1], [o.MAX_DISTANCE_M + 0.1, 12]] as Array<[number, number]>)
      expect(courtFreeFreeThrowCall({ distanceM: range[0], distanceRangeM: range, shooter: shooter(walkedIn(4)), rim, others: [] })).toMatchObject({ freeThrow: false, atLine: false });
  });

  it("a pause shorter than PAUSE_S, or one with no step in seen (still from the video's first frame), is not enough", () => {
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(walkedIn(o.PAUSE_S - 0.5)), rim, others: [] }).freeThrow).toBe(false);
    // Still on every frame back to the video's start, 3.5 s before the release.
    const fromStart = heights(3.5, () => set);
    const r = courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(fromStart), rim, others: [] });
    expect(r.stillS).toBeGreaterThanOrEqual(o.PAUSE_S);
    expect(r).toMatchObject({ freeThrow: false, steppedIn: false });
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(fromStart), rim, others: [] }, { ...o, STEP_IN_WITHIN_S: 0 }).freeThrow).toBe(true);
  });

  it("the stillness is in the shooter's standing heights: the same sway is still for a near shooter, a move for a far one", () => {
    // 12 px of sway: 0.04 heights of a shooter 300 px tall, 0.4 heights of one 30 px tall.
    const sway = (height: number) => heights(10, (s) => (s <= 4 ? [set[0] + (12 / height) * Math.sin(7 * s), set[1]] : [set[0] + 2, set[1]]));
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(sway(300)), rim, others: [] }).freeThrow).toBe(true);
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(sway(30)), rim, others: [] }).freeThrow).toBe(false);
  });

  it("others standing still beside the lane on both sides, between shooter and rim, make a shorter pause enough", () => {
    const still = (at: Point): SizedPerson => ({ feet: [0, 1.6], before: heights(1, () => [0, 1.6]), at });
    const lane = [still([-2.5, 7]), still([2.5, 7.5])];
    const short = walkedIn(1.2);
    const r = courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(short), rim, others: [...lane, still([6, 20])] });
    expect(r).toMatchObject({ freeThrow: true, linedUp: 2 });
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(short), rim, others: [] }).freeThrow).toBe(false);
    // Both on one side, or walking, or behind the shooter: no line-up.
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(short), rim, others: [still([-2.5, 7]), still([-2.5, 8])] }).freeThrow).toBe(false);
    const walking = lane.map((p) => ({ ...p, before: heights(1, (s) => [s, 1.6] as Point) }));
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(short), rim, others: walking }).linedUp).toBe(0);
    expect(courtFreeFreeThrowCall({ ...fixedAt(4.2), shooter: shooter(short), rim, others: [still([-2.5, 3]), still([2.5, 3])] }).linedUp).toBe(0);
  });
});

describe("free throws where a shot's facts are decided without a court (draftShots)", () => {
  // A camera behind the shooter (1280×720): a shooter 300 px tall stands 5.5 m away (placeBySize), so a
  // rim in line 4.2 m farther is 9.7 m away and its box 53 px wide; 7 m farther, 41 px; 2 m farther, 68 px.
  const W = 1280, HEIGHT_PX = 300;
  const shooterDepth = placeBySize(W / 2, HEIGHT_PX, PLAYER_HEIGHT_M, W, 720)![1];
  const rimWidth = (distance: number) => (HEIGHT_PX * RIM_BOX_WIDTH_M * shooterDepth) / (PLAYER_HEIGHT_M * (shooterDepth + distance));
  const release = 60, rimFrame = 75, frames = 90;
  /**
   * The shooter's feet at `at(frame)` (source pixels), holding the ball at the chest until the release, then the ball flies to the rim at the top.
   * `behind`: the rim in line, `distance` m beyond the shooter; `side`: the rim at the shooter's depth, `distance` m to the right of the spot (sideSpot).
   */
  function picture(at: (frame: number) => Point, distance: number, view: "behind" | "side" = "behind"): AttributionInput {
    const boxes = Array.from({ length: frames }, (_, f) => {
      const [x, y] = at(Math.min(f, release));
      return { cx: x, cy: y - HEIGHT_PX / 2, w: 90, h: HEIGHT_PX };
    });
    const pxPerM = HEIGHT_PX / PLAYER_HEIGHT_M;
    const rim = view === "behind" ? { cx: W / 2, cy: 100, w: rimWidth(distance), h: 12 } : { cx: sideSpot[0] + distance * pxPerM, cy: 100, w: RIM_BOX_WIDTH_M * pxPerM, h: 12 };
    const ball: Array<BallObs | null> = Array.from({ length: frames }, (_, f) => {
      const b = boxes[Math.min(f, release)];
      if (f <= release) return { cx: b.cx + 20, cy: b.cy - 40, w: 24, h: 24, score: 0.9 };
      if (f <= rimFrame) return { cx: b.cx + 20 + ((rim.cx - b.cx - 20) * (f - release)) / (rimFrame - release), cy: b.cy - 40 - 20 * (f - release), w: 24, h: 24, score: 0.9 };
      return null;
    });
    return {
      ...oneShooterShot(frames, release, rimFrame, boxes, ball, rim),
      heightModel: () => HEIGHT_PX,
      keySamples: null,
      court: null,
      picture: { width: W, height: 720, scale: 1, padX: 0, padY: 0 },
    };
  }
  const spot: Point = [W / 2, 690];
  const sideSpot: Point = [60, 690];
  /** Walked in from the left over the first second, then stood at the spot. */
  const walkedIn = (f: number): Point => (f >= 10 ? spot : [spot[0] - 40 * (10 - f), spot[1]]);
  /** The same, to the spot of a side view, from above it. */
  const walkedInSide = (f: number): Point => (f >= 10 ? sideSpot : [sideSpot[0], sideSpot[1] - 20 * (10 - f)]);

  it("a set stance at about 4.2 m: a free throw, 1 point when made, the evidence saying the court was not registered", () => {
    const [d] = draftShots(picture(walkedIn, 4.2));
    expect(d.courtType).toBeNull();
    expect(d.world).toBeNull();
    expect(d.distance).toBeCloseTo(4.2, 1);
    expect(d.is_free_throw).toBe(true);
    expect(d.is_three_point).toBe(false);
    expect(d.freeThrow).toMatchObject({ freeThrow: true, atLine: true, court: "not_registered" });
    expect(shotPoints({ made: d.made, is_free_throw: d.is_free_throw, is_three_point: d.is_three_point })).toBe(1);
  });

  it("takes the rule's settings from the analysis (a bench sweep): a window ending before 4.2 m leaves a two", () => {
    // Seen from the side, so the distance is 4.2 m through any lens.
    const [d] = draftShots({ ...picture(walkedInSide, 4.2, "side"), freeThrow: { MAX_DISTANCE_M: 4 } });
    expect(d.distance).toBeCloseTo(4.2, 1);
    expect(d).toMatchObject({ is_free_throw: false, is_three_point: false });
    expect(d.freeThrow).toMatchObject({ freeThrow: false, atLine: false, court: "not_registered" });
    expect(draftShots(picture(walkedInSide, 4.2, "side"))[0].is_free_throw).toBe(true);
  });

  it("seen from behind, the lens decides the depth: a still stance the assumed lens puts at 2 m is at the line through a longer one", () => {
    // Through a 5× telephoto the same picture shows the shooter several metres from the rim, so the
    // set stance, stepped into, is a free throw; the evidence gives the estimate and the range.
    const [d] = draftShots(picture(walkedIn, 2));
    expect(d.distance).toBeCloseTo(2, 1);
    expect(d.is_free_throw).toBe(true);
    const range = d.freeThrow!.distanceRangeM!;
    expect(range[0]).toBeLessThan(2);
    expect(range[1]).toBeGreaterThan(COURT_FREE_FREE_THROW_DEFAULTS.MAX_DISTANCE_M);
    // With the longest lens considered about the assumed one, the range ends near 2 m: a two.
    const [near] = draftShots({ ...picture(walkedIn, 2), freeThrow: { LONGEST_LENS_MM: 27 } });
    expect(near.freeThrow).toMatchObject({ freeThrow: false, atLine: false });
    expect(near.freeThrow!.distanceRangeM![1]).toBeLessThan(2.2);
    expect(near).toMatchObject({ is_free_throw: false, is_three_point: false });
  });

  it("a file that names its lens places the shot through it: from behind, the stance is a free throw only where that lens puts it at the line", () => {
    // The assumed 70° across 1280 px as a 35 mm-equivalent focal length (on the 43.27 mm diagonal).
    const assumedMm = ((W / (2 * Math.tan((35 * Math.PI) / 180))) * 43.27) / Math.hypot(W, 720);
    const through = (distance: number, lensMm: number) => draftShots({ ...picture(walkedIn, distance), picture: { width: W, height: 720, scale: 1, padX: 0, padY: 0, lensMm } })[0];
    // The stances that the range of lenses left open are told apart again: 7 m a three, 2 m a two.
    expect(through(7, assumedMm)).toMatchObject({ is_free_throw: false, is_three_point: true });
    expect(through(2, assumedMm)).toMatchObject({ is_free_throw: false, is_three_point: false });
    const atLine = through(4.2, assumedMm);
    expect(atLine.is_free_throw).toBe(true);
    expect(atLine.freeThrow!.lensMm).toBeCloseTo(assumedMm, 5);
    expect(atLine.freeThrow!.distanceRangeM![0]).toBeGreaterThan(COURT_FREE_FREE_THROW_DEFAULTS.MIN_DISTANCE_M);
    // The picture that looks like 2 m through the assumed lens, filmed through a 5× telephoto: the
    // shooter stood more than four times as far from the rim.
    const tele = through(2, 120);
    expect(tele.distance).toBeCloseTo((2 * 120) / assumedMm, 1);
    expect(tele).toMatchObject({ is_free_throw: false, is_three_point: true });
    // Without a lens named, the evidence says so.
    expect(draftShots(picture(walkedIn, 4.2))[0].freeThrow!.lensMm).toBeNull();
  });

  it("a jumper at the same distance after a dribble: a two", () => {
    // Dribbling along the line until a second before the release.
    const [d] = draftShots(picture((f) => (f >= release - 10 ? spot : [spot[0] - 8 * (release - 10 - f), spot[1]]), 4.2));
    expect(d.distance).toBeCloseTo(4.2, 1);
    expect(d.is_free_throw).toBe(false);
    expect(shotPoints({ made: d.made, is_free_throw: d.is_free_throw, is_three_point: d.is_three_point })).toBe(2);
  });

  it("a still shooter seen from the side at 7 m is a three and at 2 m a two, neither a free throw", () => {
    const [far] = draftShots(picture(walkedInSide, 7, "side"));
    expect(far.distance).toBeCloseTo(7, 1);
    expect(far).toMatchObject({ is_free_throw: false, is_three_point: true });
    expect(far.freeThrow!.distanceRangeM![0]).toBeGreaterThan(COURT_FREE_FREE_THROW_DEFAULTS.MAX_DISTANCE_M);
    const [near] = draftShots(picture(walkedInSide, 2, "side"));
    expect(near.distance).toBeCloseTo(2, 1);
    expect(near).toMatchObject({ is_free_throw: false, is_three_point: false });
    expect(near.freeThrow!.distanceRangeM![1]).toBeLessThan(COURT_FREE_FREE_THROW_DEFAULTS.MIN_DISTANCE_M);
    // From behind, the same still stance stepped into is a free throw wherever the assumed lens puts
    // it, once a lens in the range puts it at the line (7 m through 27 mm is 3.4 m through 13 mm):
    // the pause decides what the picture's depth cannot.
    expect(draftShots(picture(walkedIn, 7))[0]).toMatchObject({ is_free_throw: true, is_three_point: false });
    expect(estimateShotDistance({ feet: spot, playerHeight: HEIGHT_PX, rim: { cx: W / 2, cy: 100, w: rimWidth(2), h: 12 }, frameWidth: W, frameHeight: 720 })).toBeCloseTo(2, 5);
  });
});

describe("the real-clip bench's free-throw truth (bench/free-throws.json)", () => {
  it("lists the clips whose notes say free throw, and those seen to be one against their notes, with the manifest's split and one free throw per attempt", () => {
    const truth = trueFreeThrows();
    const manifest = readManifest();
    const listed = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../bench/free-throws.json"), "utf8")) as { clips: Array<{ clip: string; split: string; seen?: string }> }).clips;
    const named = manifest.filter((c) => /free throw/i.test(c.notes)).map((c) => path.basename(c.file, path.extname(c.file)));
    // A clip listed against its notes says when and how it was seen to be a free throw.
    const seen = listed.filter((c) => c.seen).map((c) => c.clip);
    for (const c of listed.filter((x) => x.seen)) expect(c.seen!.length, c.clip).toBeGreaterThan(40);
    expect([...truth.keys()].sort()).toEqual([...named, ...seen].sort());
    for (const c of manifest) {
      const name = path.basename(c.file, path.extname(c.file));
      if (!truth.has(name)) continue;
      expect(truth.get(name)).toBe(c.attempts);
      expect(listed.find((x) => x.clip === name)!.split).toBe(c.split);
    }
  });
});
