// Hard cuts in a video: where the picture changes all at once (an edited game, clips stitched
// together, a broadcast changing cameras). The analysis treats each stretch between cuts as a scene
// of its own, so what happens in one scene (a rim in another place, a different background) never
// changes what is found in the next, and the same footage gives the same shots wherever it sits.
import { FFMPEG } from "./binaries.ts";
import { runTool } from "./run.ts";

export const SCENE_DEFAULTS = {
  /**
   * ffmpeg's scene score (0–1: how different a frame is from the previous one, motion-compensated
   * sum of absolute differences) above which a frame starts a new scene. A cut between two unrelated
   * shots scores 0.5–1; a handheld pan or a player running past the lens stays well below 0.4.
   */
  CUT_SCORE: 0.45,
  /** Width the frames are shrunk to before scoring (pixels): enough for whole-picture changes, cheap to compute. */
  SCORE_WIDTH_PX: 160,
  /** Cuts closer together than this (seconds) are one cut: a flash or a dissolve scores on several frames. */
  MIN_SCENE_S: 0.5,
};

export type SceneOptions = Partial<typeof SCENE_DEFAULTS> & { signal?: AbortSignal };

/** The times (seconds from the start) where a new scene begins, ascending; none for one continuous shot. */
export async function findSceneCuts(videoPath: string, opts: SceneOptions = {}): Promise<number[]> {
  const o = { ...SCENE_DEFAULTS, ...opts };
  // The selected frames' times are printed to stdout by the metadata filter (showinfo would print
  // them to stderr, of which only the tail is kept).
  const filter = `scale=${o.SCORE_WIDTH_PX}:-2,select='gt(scene\\,${o.CUT_SCORE})',metadata=mode=print:file=-`;
  const out = await runTool(FFMPEG, ["-v", "error", "-nostdin", "-i", videoPath, "-an", "-sn", "-vf", filter, "-f", "null", "-"], opts.signal);
  return parseSceneTimes(out.toString(), o.MIN_SCENE_S);
}

/**
 * The frame times from ffmpeg's `metadata=mode=print` output (`frame:N pts:P pts_time:T` lines, each
 * followed by its `lavfi.scene_score`), merging cuts closer than `minSceneS`.
 */
export function parseSceneTimes(text: string, minSceneS = SCENE_DEFAULTS.MIN_SCENE_S): number[] {
  const cuts: number[] = [];
  for (const m of text.matchAll(/pts_time:(-?[\d.]+)/g)) {
    const t = Number(m[1]);
    if (!Number.isFinite(t) || t <= 0) continue;
    if (cuts.length && t - cuts[cuts.length - 1] < minSceneS) continue;
    cuts.push(t);
  }
  return cuts;
}
