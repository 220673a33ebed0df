// The court as the camera saw it over the video (issue 25, point 1): a small picture every
// few seconds, registered from its painted lines (analysis/observe/court-registration.ts), and how
// far each picture moved against the first (vision/motion.ts, pictureShift); between them the camera
// is followed on FOLLOW_STEPS pictures, each lined up with the one before (a sway turns back within
// two seconds; the registered pictures alone would not see it). Pictures where the court is not
// registered give no view. How the shots then take the views — one view for a fixed camera, for a
// moving one the nearest, carried along the camera's path — is rules/court-view.ts
// (planCourtViews, viewForFrame).
//
// The submit's `camera_setup` (handed in) decides how many pictures are registered: a camera that
// moves needs a view every EVERY_S; a fixed one sees one court, so a long video is sampled at most
// FIXED_PICTURES times, spread over it (a 40-minute game costs 12 registrations, not 1,200). When
// those pictures moved or their views disagree (planCourtViews), the pass registers the video again
// every EVERY_S, as for a moving camera: the hint never leaves a moving video with fewer views than
// it would have had without it. Still pictures where no view registered are not tried again: the
// same lines seen at 12 moments spread over the video did not register. A video shorter than
// MIN_REGISTERED × EVERY_S (a clip of a few seconds) is registered MIN_REGISTERED times instead,
// spread over it: two pictures are few chances to catch the lines between the players.
//
// Given the video's rims (the pipeline's), a picture is registered only where a rim is in view, and
// its court must put the basket under one of them (rules/court-rim.ts).
import type { CameraSetup } from "../../../contract/job-options.ts";
import { letterboxFor, sampleShows, type FrameSource, type TimeRange } from "../../media/frames.ts";
import { halvePicture, lumaOfRgb } from "../../vision/lines.ts";
import { pictureShift } from "../../vision/motion.ts";
import { boxInPicture } from "../../vision/boxes.ts";
import { registerPicture } from "./court-registration.ts";
import type { CourtLineModel } from "../../vision/court-lines.ts";
import { hoopBoxAt, hoopInView, type HoopTrack } from "../rules/tracks.ts";
import { highestRimTop } from "../rules/court-rim.ts";
import { viewInPicture } from "../../vision/homography.ts";
import { planCourtViews, type CourtView, type PictureMotion, type PictureStep } from "../rules/court-view.ts";

export const COURT_VIEW_DEFAULTS = {
  /** One picture registered every this many seconds (registration costs about half a second of CPU each). */
  EVERY_S: 2,
  /**
   * Pictures per EVERY_S on which the camera is followed (each lined up with the one before, a few
   * milliseconds each; only the first of them registered): a sway or a fast pan turns back or
   * outruns the search between two registered pictures. 1 follows on the registered pictures alone.
   */
  FOLLOW_STEPS: 8,
  /**
   * A video shorter than this many EVERY_S is registered this many times, spread over it (never more
   * often than the pictures it is followed on): two or three pictures of a short clip are few
   * chances to see its lines between the players.
   */
  MIN_REGISTERED: 6,
  /** A fixed camera's video is registered at most this many times (never more often than EVERY_S). */
  FIXED_PICTURES: 12,
  /** Width of the registered picture (px), decoded at twice this (registerPicture finds the lines there); the unit tests' synthetic courts are this size. */
  WORK_WIDTH: 480,
  /**
   * The learned line mask looks at the rows below the highest rim's top less this (working pixels),
   * so that the floor just under the rim is seen with the picture around it.
   */
  LINE_MASK_MARGIN_PX: 16,
};

/** What the court pass found: the registered views and how the pictures moved. */
export interface CourtPass {
  views: CourtView[];
  motion: PictureMotion;
}

export interface CourtPassOptions {
  /** The submit's `camera_setup` (absent: `fixed`, the submit default). */
  camera?: CameraSetup;
  /** The video's length (s): with a fixed camera the pictures are spread over it. */
  durationS?: number;
  range?: TimeRange;
  signal?: AbortSignal;
  /**
   * The video's rims, boxes in source pixels at timeline frames (counted at `fps`): each picture's
   * court must put its basket under a rim in view there. Absent: no check (the unit tests'
   * synthetic courts, which have no rim).
   */
  rims?: ReadonlyArray<Pick<HoopTrack, "boxes" | "from" | "active">>;
  /**
   * The learned painted-line mask (vision/court-lines.ts), run on each registered picture with a rim
   * in view. Absent: the stripe test finds the lines (the unit tests' synthetic courts).
   */
  lines?: CourtLineModel;
}

/** Registered views over `range` of the video (or all of it), frames counted at `fps` from the video's start. */
export async function observeCourtViews(source: FrameSource, fps: number, opts: CourtPassOptions = {}): Promise<CourtPass> {
  const o = COURT_VIEW_DEFAULTS;
  const camera = opts.camera ?? "fixed";
  const span = opts.range?.durationS ?? opts.durationS ?? 0;
  const sparseEvery = span / o.FIXED_PICTURES;
  if (camera === "fixed" && sparseEvery > o.EVERY_S) {
    const sparse = await courtPass(source, fps, sparseEvery, 1, opts);
    const { why } = planCourtViews(sparse.views, camera, sparse.motion);
    if (why !== "picture_moved" && why !== "views_disagree") return sparse;
  }
  const stepS = o.EVERY_S / o.FOLLOW_STEPS;
  const stepsPerRegistration = span > 0 ? Math.max(1, Math.min(o.FOLLOW_STEPS, Math.floor(span / o.MIN_REGISTERED / stepS + 1e-9))) : o.FOLLOW_STEPS;
  return courtPass(source, fps, stepsPerRegistration * stepS, stepsPerRegistration, opts);
}

/**
 * One picture registered every `everyAskedS` seconds (at least a picture of the video apart), and
 * lined up with the first; `followStepsAsked` pictures in each such interval (fewer where the video
 * has fewer), each lined up with the one before (the camera's path).
 */
async function courtPass(source: FrameSource, fps: number, everyAskedS: number, followStepsAsked: number, opts: CourtPassOptions): Promise<CourtPass> {
  const o = COURT_VIEW_DEFAULTS;
  const { width, height } = source;
  const W = o.WORK_WIDTH, H = Math.max(2, Math.round((height * W) / width / 2) * 2);
  // Decoded at twice the working size, where registration finds the painted lines
  // (court-registration.ts, registerPicture); the working picture is that one halved.
  const fine = letterboxFor(width, height, 2 * W, 2 * H);
  const lb = { scale: fine.scale / 2, padX: fine.padX / 2, padY: fine.padY / 2 };
  const views: CourtView[] = [];
  const steps: PictureStep[] = [];
  const motion: PictureMotion = { pictures: 0, maxShiftShare: 0, maxChangedShare: 0, steps };
  let first: Uint8Array | null = null, previous: Uint8Array | null = null;
  const startS = opts.range?.startS ?? 0;
  const span = opts.range?.durationS ?? opts.durationS;
  const lastShown = span === undefined ? Infinity : Math.max(0, Math.ceil(span * source.fps - 1e-9) - 1);
  // Never more often than the video has pictures (a slow timelapse): each step a picture of its own.
  const everyS = Math.max(everyAskedS, 1 / source.fps);
  const followSteps = Math.max(1, Math.min(followStepsAsked, Math.floor(everyS * source.fps + 1e-9)));
  const stepS = everyS / followSteps;
  for await (const f of source.wholeFrames({ width: 2 * W, height: 2 * H, maxFps: 1 / stepS, range: opts.range, signal: opts.signal })) {
    const picture = halvePicture(f.rgb, 2 * W, 2 * H);
    const luma = lumaOfRgb(picture, W * H);
    // Numbered by the frame the picture shows, about half an interval after its slot's time (a
    // view a second early would place a moving camera's shots with where it pointed a second before).
    const frame = Math.round((startS + Math.min(lastShown, sampleShows(f.index, stepS * source.fps)) / source.fps) * fps);
    const registered = f.index % followSteps === 0;
    if (registered) {
      motion.pictures++;
      if (!first) first = luma;
      else {
        const m = pictureShift(luma, first, W, H);
        motion.maxShiftShare = Math.max(motion.maxShiftShare, Math.hypot(m.dx, m.dy) / W);
        motion.maxChangedShare = Math.max(motion.maxChangedShare, m.changedShare);
      }
    }
    // Against the picture before, so a moving camera can be followed (rules/court-view.ts, cameraPath); in source pixels.
    const step = previous && pictureShift(luma, previous, W, H);
    steps.push({ frame, fromPrevious: step && { dx: step.dx / lb.scale, dy: step.dy / lb.scale, changedShare: step.changedShare, atLimit: step.atLimit } });
    previous = luma;
    if (!registered) continue;
    // The rims in view, in the working picture's pixels (source × scale + pad).
    const rims = opts.rims?.filter((rim) => hoopInView(rim, frame)).map((rim) => boxInPicture(hoopBoxAt(rim, frame), lb.scale, lb.padX, lb.padY));
    // The learned mask only where registration will look for lines (a picture with no rim in view has
    // no court to find), and only below the rims (highestRimTop), less a margin for the model's view
    // of the floor just under them.
    const fromRow = rims?.length ? Math.max(0, Math.floor((highestRimTop(rims) - o.LINE_MASK_MARGIN_PX) / 4) * 4) : 0;
    const lines = opts.lines && (!rims || rims.length > 0) ? await opts.lines.masks(picture, W, H, fromRow) : undefined;
    const r = registerPicture(f.rgb, W, H, { rims, lines });
    if (r) views.push({ frame, type: r.type, h: viewInPicture(r.h, lb.scale, lb.padX, lb.padY) });
  }
  return { views, motion };
}
