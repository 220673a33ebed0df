// Which registered view of the court a shot is placed with (issue 25): the view nearest its release,
// if one was registered close enough in time (observe/court-views.ts registers a picture every few
// seconds; a panning camera's view a minute away says nothing about this shot).
import type { H3 } from "../../vision/homography.ts";
import type { CourtTypeId } from "./court-template.ts";

export interface CourtView {
  /** Analysis frame (at the analysis rate) the picture was taken at. */
  frame: number;
  type: CourtTypeId;
  /** Court metres → source pixels. */
  h: H3;
}

export const COURT_VIEW_MATCH_DEFAULTS = {
  /** A shot takes a view at most this far from its release (s); farther, it has no court. */
  MAX_AGE_S: 6,
};

/** The view nearest `frame` within MAX_AGE_S, or null. */
export function courtViewAt(views: CourtView[], frame: number, fps: number, maxAgeS = COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S): CourtView | null {
  let best: CourtView | null = null;
  for (const v of views) if (Math.abs(v.frame - frame) <= maxAgeS * fps && (!best || Math.abs(v.frame - frame) < Math.abs(best.frame - frame))) best = v;
  return best;
}
