// Free throws on a court registered from its lines (issue 25, point 2): the rule on small arrays of
// feet seen in pixels and taken onto the court through a known homography, and the rule wired where
// a real-footage shot's facts are decided (draftShots with a registered court view).
import { describe, expect, it } from "vitest";
import { draftShots, type AttributionInput } from "../../gpu-runner/analysis/rules/attribution.ts";
import { COURT_TEMPLATES, type CourtTypeId } from "../../gpu-runner/analysis/rules/court-template.ts";
import { FREE_THROW_DEFAULTS, freeThrowCall } from "../../gpu-runner/analysis/rules/free-throw.ts";
import { RELEASE_DEFAULTS } from "../../gpu-runner/analysis/rules/flight.ts";
import type { Identity } from "../../gpu-runner/analysis/rules/players.ts";
import type { BallObs, PlayerTrack } from "../../gpu-runner/analysis/rules/tracks.ts";
import type { Point } from "../../gpu-runner/analysis/types.ts";
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
    const shooter: PlayerTrack = { id: 1, frames: boxes.map((_, f) => f), boxes, colors: boxes.map(() => [40, 40, 200] as [number, number, number]), jerseyReads: [] };
    const ball: Array<BallObs | null> = Array.from({ length: frames }, (_, f) => {
      const b = boxes[Math.min(f, release)];
      if (f <= release) return { cx: b.cx + 20, cy: b.cy - 10, w: 22, h: 22, score: 0.9 };
      if (f <= rimFrame) return { cx: b.cx + 20 + ((640 - b.cx) * (f - release)) / (rimFrame - release), cy: b.cy - 10 - 30 * (f - release), w: 22, h: 22, score: 0.9 };
      return null;
    });
    const identity: Identity = { key: "player_1", trackIds: [1], team_id: 0, jersey: null, frames, firstFrame: 0, valid: true, name: null, user_id: null, metadata: {} };
    const rim = { cx: 640, cy: 120, w: 40, h: 12 };
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
