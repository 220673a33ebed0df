// What the basketball logic reads from a video, whichever detector produced it: one timeline of
// frames at the analysis rate, in one coordinate system (`frame` maps it to the source picture).
import type { Letterbox } from "../../media/frames.ts";
import type { JerseyRead } from "../../vision/jersey-ocr.ts";
import type { Detections } from "../../vision/detections.ts";
import type { BallObs, HoopTrack, PlayerTrack } from "../rules/tracks.ts";
import type { Point } from "../types.ts";
import type { CourtView, PictureMotion } from "../rules/court-view.ts";

export interface KeySample {
  frame: number;
  /** Key corners relative to the hoop position in that frame, so a panning camera can reuse them. */
  rel: Point[];
}

export interface Observations {
  fps: number;
  /** Timeline length in frames. */
  frames: number;
  /** Where the analysis coordinates sit in the source picture (identity when they are source pixels). */
  frame: Letterbox;
  /** Raw detections per frame, for the artifacts. */
  perFrame: ReadonlyArray<Detections>;
  rims: HoopTrack[];
  /** The ball over the whole picture (possession, dribbles, the release). */
  ball: Array<BallObs | null>;
  /**
   * Per rim (same order as `rims`), the ball watched in a region around it, and the net's movement,
   * when the observer watched rims closely; otherwise shots are read from `ball`. Aligned with the
   * rim's `boxes`: index 0 is timeline frame `rims[k].from` (absent: 0).
   */
  rimWatch: Array<{ ball: Array<BallObs | null>; netMotion: number[] }> | null;
  tracks: PlayerTrack[];
  jerseyReads: Map<number, JerseyRead[]>;
  /** Painted-key sightings, for courts whose key colour is known (the synthetic fixture). */
  keySamples: KeySample[];
  /** The court registered from its painted lines, picture by picture (real footage); absent when not looked for. */
  courtViews?: CourtView[];
  /** How the court pass's pictures moved (rules/court-view.ts, planCourtViews); absent when not measured. */
  courtMotion?: PictureMotion;
  /** Every frame between consecutive samples of person boxes (1 when people are detected every frame). */
  personEvery: number;
}

/** The identity mapping: analysis coordinates are source pixels. */
export function sourceFrame(width: number, height: number): Letterbox {
  return { scale: 1, padX: 0, padY: 0, innerWidth: width, innerHeight: height };
}
