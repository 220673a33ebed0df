// A long video is observed in windows, so that what is decided about one stretch of footage (which
// rims are in view, where they hang, how the region around them looks when nothing moves) is decided
// from that stretch alone. A customer's game runs 40 to 120 minutes with the camera panning between
// two hoops and hoops leaving the picture for minutes: rims decided once for the whole file would
// let one half of the game change the answers in the other, and the same clip would give other shots
// depending on what surrounds it.
//
// Windows never cross a scene cut (media/scenes.ts): an edited video's scenes are observed as if each
// were its own file. A scene longer than WINDOW_S is split into equal windows whose observed span
// reaches MARGIN_S beyond their core on both sides (inside the scene), so that a shot at a core's
// edge is seen whole and every running measure (backgrounds, tracks) is warmed up before the core
// begins; each frame's observation is taken from the one window whose core holds it.

export const WINDOW_DEFAULTS = {
  /** Longest stretch of one scene observed as one window (seconds). Every labelled clip fits in one. */
  WINDOW_S: 40,
  /** Footage observed beyond a window's core on each side, within its scene (seconds): longer than a shot's flight. */
  MARGIN_S: 4,
};

export type WindowOptions = typeof WINDOW_DEFAULTS;

/** Half-open ranges of timeline frames. */
export interface ObservationWindow {
  /** Index of the scene the window lies in (windows of one scene are consecutive). */
  scene: number;
  /** Frames whose observations this window provides. */
  core: [number, number];
  /** Frames it observes: the core plus margins, clipped to its scene. */
  span: [number, number];
}

/**
 * Windows over a timeline of `frames` frames at `fps`, given the frames where new scenes begin
 * (any order; out-of-range and duplicate cuts are ignored). Cores tile the timeline exactly.
 */
export function planWindows(frames: number, cutFrames: number[], fps: number, opts: Partial<WindowOptions> = {}): ObservationWindow[] {
  const o = { ...WINDOW_DEFAULTS, ...opts };
  const maxLen = Math.max(1, Math.round(o.WINDOW_S * fps));
  const margin = Math.max(0, Math.round(o.MARGIN_S * fps));
  const bounds = [0, ...[...new Set(cutFrames.map((c) => Math.round(c)))].filter((c) => c > 0 && c < frames).sort((a, b) => a - b), frames];
  const out: ObservationWindow[] = [];
  for (let s = 0; s + 1 < bounds.length; s++) {
    const start = bounds[s], end = bounds[s + 1];
    const count = Math.ceil((end - start) / maxLen);
    for (let i = 0; i < count; i++) {
      const c0 = start + Math.round(((end - start) * i) / count);
      const c1 = start + Math.round(((end - start) * (i + 1)) / count);
      out.push({ scene: s, core: [c0, c1], span: [Math.max(start, c0 - margin), Math.min(end, c1 + margin)] });
    }
  }
  return out;
}
