// Which registered view of the court a shot is placed with (issue 25). The court pass
// (observe/court-views.ts) registers a picture every few seconds and measures how each picture moved
// against the one before. A camera that moves (the submit's `camera_setup` `panning` or `handheld`)
// gives each shot the view nearest its release, if one was registered close enough in time (a
// panning camera's view a minute away says nothing about this shot), carried along the camera's
// path to the picture nearest the release (cameraPath): a sway or a slow pan since the view moves
// the court with it, and a cut or a pan past the search leaves the shot without the views before
// it. A `fixed` camera sees one court for the whole video, so one view places every shot
// (planCourtViews) — but only when the pictures show it: a "fixed" hint (the submit's default) on
// a picture that moves, or on views that do not agree, falls back to the nearest view, so the hint
// never makes a result worse unseen (the plan's `why` goes into the run's diagnostics).
import type { CameraSetup } from "../../../contract/job-options.ts";
import { applyHomography, invertHomography, viewInPicture, type H3, type Pt } from "../../vision/homography.ts";
import { COURT_TEMPLATES, courtLandmarks, type CourtTypeId } from "./court-template.ts";

export interface CourtView {
  /** Analysis frame (at the analysis rate) the picture was taken at. */
  frame: number;
  type: CourtTypeId;
  /** Court metres → source pixels. */
  h: H3;
}

/**
 * One picture of the court pass against the picture before it (vision/motion.ts, pictureShift): how
 * far the court's pixels moved (source pixels: a point at p there is at p + (dx, dy) here), the
 * share of the picture that still differed once lined up, and whether the shift found was at the
 * edge of the search (a larger move cut short). Null for the pass's first picture.
 */
export interface PictureStep {
  /** Analysis frame (at the analysis rate) of the picture. */
  frame: number;
  fromPrevious: { dx: number; dy: number; changedShare: number; atLimit: boolean } | null;
}

/**
 * How much the picture moved over the court pass's pictures, measured on the pictures themselves
 * (vision/motion.ts, pictureShift, each picture against the pass's first): the largest shift, as a
 * share of the picture's width, and the largest share of the picture that still differed after it.
 */
export interface PictureMotion {
  /** Pictures the court pass registered and compared with its first (1: nothing to compare; the clip is shorter than one interval). The steps follow the camera on more. */
  pictures: number;
  maxShiftShare: number;
  maxChangedShare: number;
  /** Each picture against the one before, for following a moving camera (cameraPath); absent in observations kept before it was measured. */
  steps?: PictureStep[];
}

/**
 * Where the camera pointed at one picture of the court pass: pictures that line up with the one
 * before (by their shift) are one stretch of the video, and the picture's offset is the sum of the
 * shifts since the stretch began (source pixels). A court point drawn at p in a picture of the
 * stretch is at p + (offset there − offset here) in another.
 */
export interface CameraPlace {
  frame: number;
  stretch: number;
  offset: Pt;
}

export const COURT_VIEW_MATCH_DEFAULTS = {
  /** A shot takes a view at most this far from its release (s); farther, it has no court. */
  MAX_AGE_S: 6,
};

export const COURT_CAMERA_DEFAULTS = {
  /**
   * A fixed camera's picture lines up with its first within this share of its width (5 px of the
   * pass's 480; a court across 300 px puts that at about a quarter metre). Over it the camera moved.
   */
  MAX_PICTURE_SHIFT_SHARE: 0.012,
  /**
   * …and, lined up, at most this share of it differs (players move over a fixed floor; a zoom, a
   * cut or a pan past the search range changes most of the picture). A moving camera's picture that
   * differs more from the one before begins a new stretch of its path (cameraPath).
   */
  MAX_CHANGED_SHARE: 0.5,
  /** Every two registered views must place the court's key and arc top within this of each other (m). */
  MAX_VIEW_SPREAD_M: 0.3,
};
export type CourtCameraSettings = typeof COURT_CAMERA_DEFAULTS;

/** Why the shots are placed the way they are (the run's diagnostics carry it). */
export type CourtViewingWhy =
  | "one_view" // fixed camera, steady pictures, views in agreement: the central view places every shot
  | "no_views" // no picture registered
  | "camera_moves" // the submit said `panning` or `handheld`
  | "motion_unknown" // the pass measured no motion (observations kept before it did)
  | "picture_moved" // "fixed", but the pictures moved
  | "views_disagree"; // "fixed", pictures steady, but two views place the court apart (or as two rule books)

export interface CourtViewing {
  views: CourtView[];
  /** The camera followed picture by picture (cameraPath); null when the pictures' steps were not measured (each shot then takes the nearest view as registered). */
  path: CameraPlace[] | null;
  /** The one view every shot takes (fixed camera), or null: each shot takes the view nearest its release. */
  oneView: CourtView | null;
  why: CourtViewingWhy;
  /** Largest disagreement between two views (m); null with fewer than two, Infinity across rule books. */
  viewSpreadM: number | null;
}

/** The view nearest `frame` within MAX_AGE_S, or null. */
export function courtViewAt(views: CourtView[], frame: number, fps: number, maxAgeS = COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S): CourtView | null {
  let best: CourtView | null = null;
  for (const v of views) if (Math.abs(v.frame - frame) <= maxAgeS * fps && (!best || Math.abs(v.frame - frame) < Math.abs(best.frame - frame))) best = v;
  return best;
}

/**
 * The camera followed over the court pass's pictures: a new stretch begins where a picture does
 * not line up with the one before — most of it still differs (MAX_CHANGED_SHARE: a cut, a zoom) or
 * the shift is at the edge of the search (a pan faster than it reaches) — since no offset carries a
 * view across such a change; within a stretch the shifts add up.
 */
export function cameraPath(steps: PictureStep[], settings: Partial<CourtCameraSettings> = {}): CameraPlace[] {
  const o = { ...COURT_CAMERA_DEFAULTS, ...settings };
  const out: CameraPlace[] = [];
  for (const s of steps) {
    const before = out[out.length - 1], m = s.fromPrevious;
    if (!before || !m || m.atLimit || m.changedShare > o.MAX_CHANGED_SHARE) out.push({ frame: s.frame, stretch: before ? before.stretch + 1 : 0, offset: [0, 0] });
    else out.push({ frame: s.frame, stretch: before.stretch, offset: [before.offset[0] + m.dx, before.offset[1] + m.dy] });
  }
  return out;
}

/**
 * The index of the path's first picture at or after `frame` (path.length when none): the pictures
 * come in the order they were taken, so a binary search finds it (a shot's run-up asks frame by frame).
 */
function firstAtOrAfter(path: CameraPlace[], frame: number): number {
  let lo = 0, hi = path.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (path[mid].frame < frame) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The picture of the path taken at `frame`, or undefined. */
function placeAt(path: CameraPlace[], frame: number): CameraPlace | undefined {
  const p = path[firstAtOrAfter(path, frame)];
  return p?.frame === frame ? p : undefined;
}

/** The picture of the path nearest `frame` (the earlier on a tie), or null on an empty path. */
function nearestPlace(path: CameraPlace[], frame: number): CameraPlace | null {
  const k = firstAtOrAfter(path, frame);
  const before = path[k - 1], after = path[k];
  if (!before) return after ?? null;
  if (!after) return before;
  return frame - before.frame <= after.frame - frame ? before : after;
}

/**
 * Where the camera pointed at `frame`, `nearest` being the path's picture nearest it: between two
 * pictures of one stretch, their offsets weighed by how near `frame` is to each (a pan or a sway
 * moves on between the pictures, two seconds apart; it does not wait at one and jump at the
 * next); across a break of the path, or outside it, the nearest picture's.
 */
function offsetAt(path: CameraPlace[], frame: number, nearest: CameraPlace): Pt {
  const k = firstAtOrAfter(path, frame);
  const before = path[k - 1], after = path[k];
  if (!before || !after || after.frame === frame || before.stretch !== after.stretch) return nearest.offset;
  const f = (frame - before.frame) / (after.frame - before.frame);
  return [before.offset[0] + f * (after.offset[0] - before.offset[0]), before.offset[1] + f * (after.offset[1] - before.offset[1])];
}

/**
 * The view a shot (or a frame of its run-up) is placed with: the one view of a fixed camera; else,
 * with the camera followed (viewing.path), the view nearest `frame` within MAX_AGE_S among those of
 * the same stretch as the picture nearest `frame`, moved by the camera's offset between its picture
 * and `frame` (offsetAt: a handheld sway, a slow pan); none when the camera cut or swung past the
 * search since every view. Without a path, the nearest view as registered. The view returned keeps
 * the frame of the picture it was registered on.
 */
export function viewForFrame(viewing: CourtViewing, frame: number, fps: number): CourtView | null {
  if (viewing.oneView) return viewing.oneView;
  if (!viewing.path) return courtViewAt(viewing.views, frame, fps);
  const here = nearestPlace(viewing.path, frame);
  if (!here) return null;
  const path = viewing.path;
  const view = courtViewAt(viewing.views.filter((v) => placeAt(path, v.frame)?.stretch === here.stretch), frame, fps);
  if (!view) return null;
  const from = placeAt(path, view.frame)!;
  const at = offsetAt(path, frame, here);
  // The picture's content moved by the offset between the two places: the same court, moved with it.
  return { ...view, h: viewInPicture(view.h, 1, from.offset[0] - at[0], from.offset[1] - at[1]) };
}

/** The court points two views are compared on: the key's corners and the arc's top (where shots are taken). */
function probePoints(type: CourtTypeId): Pt[] {
  const lm = courtLandmarks(COURT_TEMPLATES[type]);
  return [lm.baseline_lane_left, lm.baseline_lane_right, lm.ft_lane_left, lm.ft_lane_right, lm.three_top] as Pt[];
}

/**
 * How far apart two views place the court (m): each probe point drawn through one view and taken
 * back onto the court through the other, the largest miss both ways. That is the error a shot gets
 * from being placed with the other view. Infinity when the rule books differ or a view cannot be inverted.
 */
export function viewDisagreementM(a: CourtView, b: CourtView): number {
  if (a.type !== b.type) return Infinity;
  let worst = 0;
  for (const [p, q] of [[a, b], [b, a]]) {
    const back = invertHomography(q.h);
    if (!back) return Infinity;
    for (const pt of probePoints(p.type)) {
      const w = p.h[6] * pt[0] + p.h[7] * pt[1] + p.h[8];
      if (w <= 0) return Infinity;
      const there = applyHomography(back, applyHomography(p.h, pt));
      worst = Math.max(worst, Math.hypot(there[0] - pt[0], there[1] - pt[1]));
    }
  }
  return worst;
}

/**
 * How the shots of one video are placed on its court: with `camera_setup: fixed`, pictures that
 * stayed put (motion measured by the court pass) and views that all agree within
 * MAX_VIEW_SPREAD_M, one view for every shot — the most central one (least summed disagreement
 * with the others; the earliest on a tie), so a view registered a little off in one picture does not
 * place the shots near it. Otherwise each shot takes the view nearest its release.
 */
export function planCourtViews(views: CourtView[], setup: CameraSetup, motion: PictureMotion | null | undefined, settings: Partial<CourtCameraSettings> = {}): CourtViewing {
  const o = { ...COURT_CAMERA_DEFAULTS, ...settings };
  const spread: number[][] = views.map((a) => views.map((b) => (a === b ? 0 : viewDisagreementM(a, b))));
  const viewSpreadM = views.length >= 2 ? Math.max(...spread.flat()) : null;
  const path = motion?.steps ? cameraPath(motion.steps, o) : null;
  const plan = (why: CourtViewingWhy, oneView: CourtView | null = null): CourtViewing => ({ views, path, oneView, why, viewSpreadM });
  if (!views.length) return plan("no_views");
  if (setup !== "fixed") return plan("camera_moves");
  if (!motion) return plan("motion_unknown");
  if (motion.maxShiftShare > o.MAX_PICTURE_SHIFT_SHARE || motion.maxChangedShare > o.MAX_CHANGED_SHARE) return plan("picture_moved");
  if (viewSpreadM !== null && viewSpreadM > o.MAX_VIEW_SPREAD_M) return plan("views_disagree");
  let central = 0;
  const total = spread.map((row) => row.reduce((s, x) => s + x, 0));
  total.forEach((t, i) => { if (t < total[central]) central = i; });
  return plan("one_view", views[central]);
}
