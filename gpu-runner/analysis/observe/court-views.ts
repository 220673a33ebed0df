// The court as the camera saw it over the video (issue 25, point 1): a small grey picture every
// few seconds, registered from its painted lines (analysis/observe/court-registration.ts). A fixed camera
// gives the same view again and again; a panning or handheld one a view per picture, and a shot
// takes the view nearest its release (rules/court-view.ts). Pictures where the court is not registered give nothing.
import { letterboxFor, type FrameSource, type TimeRange } from "../../media/frames.ts";
import { registerPicture, unletterboxRegistration } from "./court-registration.ts";
import type { CourtView } from "../rules/court-view.ts";

export const COURT_VIEW_DEFAULTS = {
  /** One picture every this many seconds (registration costs about half a second of CPU each). */
  EVERY_S: 2,
  /** Width of the registered picture (px); the unit tests' synthetic courts are this size. */
  WORK_WIDTH: 480,
};

/** Registered views over `range` of the video (or all of it), frames counted at `fps` from the video's start. */
export async function observeCourtViews(source: FrameSource, fps: number, opts: { range?: TimeRange; signal?: AbortSignal } = {}): Promise<CourtView[]> {
  const o = COURT_VIEW_DEFAULTS;
  const { width, height } = source;
  const W = o.WORK_WIDTH, H = Math.max(2, Math.round((height * W) / width / 2) * 2);
  const lb = letterboxFor(width, height, W, H);
  const views: CourtView[] = [];
  const luma = new Uint8Array(W * H);
  const startS = opts.range?.startS ?? 0;
  for await (const f of source.wholeFrames({ width: W, height: H, maxFps: 1 / o.EVERY_S, range: opts.range, signal: opts.signal })) {
    // BT.601 luma, as ffmpeg's gray conversion.
    for (let i = 0, j = 0; i < luma.length; i++, j += 3) luma[i] = (77 * f.rgb[j] + 150 * f.rgb[j + 1] + 29 * f.rgb[j + 2]) >> 8;
    const r = registerPicture(luma, W, H);
    if (r) views.push({ frame: Math.round((startS + f.index * o.EVERY_S) * fps), type: r.type, h: unletterboxRegistration(r.h, lb.scale, lb.padX, lb.padY) });
  }
  return views;
}
