// Observation of a real video with the trained CenterNet: a whole-frame scan a few times a second
// (people, rim candidates, big balls), rim tracking over the scan, then a pass that watches a region
// around each rim on every timeline frame (the ball where shots are decided). The result is what
// the basketball logic needs, in source pixels on one timeline.
import type { VideoInfo } from "../media/probe.ts";
import type { BasketballModel } from "../vision/basketball.ts";
import { buildBallPath } from "./ball-path.ts";
import { cropResize } from "../vision/image.ts";
import { plausibleHeight, trackRims, verifyRims, type LookCloser, type VerifiedRim } from "./hoop.ts";
import { watchRims, type RimWatchSample } from "./rim-watch.ts";
import { scanVideo, type ScanSample } from "./scan.ts";
import type { BallObs } from "./tracks.ts";

export interface RealFootageOptions {
  /** Timeline rate: the rim regions are watched at this rate. */
  fps: number;
  /** Whole-frame scans per second. */
  scanFps: number;
  scanInput: number;
  roiInput: number;
  roiWidths: number;
  /** A rim must score at least this when looked at closely. */
  minVerification: number;
  /** At most this many rims are watched. */
  maxRims: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export const REAL_FOOTAGE_DEFAULTS = { fps: 15, scanFps: 5, scanInput: 512, roiInput: 256, roiWidths: 7, minVerification: 0.1, maxRims: 2 };

export interface RealObservations {
  fps: number;
  frames: number;
  scan: ScanSample[];
  rims: VerifiedRim[];
  /** Every candidate looked at, for the artifacts. */
  candidates: VerifiedRim[];
  /** Per timeline frame, per rim. */
  watch: RimWatchSample[][];
  /** Per rim: the ball path inside its region. */
  rimBalls: Array<Array<BallObs | null>>;
  /** The ball on the whole frame at the scan samples (null between them or when unseen). */
  sceneBall: Array<BallObs | null>;
  timings: { scanMs: number; watchMs: number };
}

export async function observeRealFootage(videoPath: string, info: VideoInfo, model: BasketballModel, o: RealFootageOptions): Promise<RealObservations> {
  const fps = o.fps;
  const every = Math.max(1, Math.round(fps / o.scanFps));
  const frames = Math.max(1, Math.round(info.durationSeconds * fps));
  const t0 = performance.now();
  const { samples: scan, stills } = await scanVideo(videoPath, info, model, {
    fps,
    every,
    input: o.scanInput,
    stills: 6,
    signal: o.signal,
    onFrame: (f) => o.onProgress?.(0.4 * Math.min(1, f / frames)),
  });
  const t1 = performance.now();
  const timeline = Math.max(frames, (scan.at(-1)?.frame ?? 0) + 1);
  const candidates = trackRims(scan.map((s) => ({ frame: s.frame, candidates: s.rims })), { frames: timeline, minCoverage: 0.2, minMeanScore: 0.05 });
  const look: LookCloser = async (frame, region) => {
    const still = stills.find((x) => x.frame === frame)!;
    const img = cropResize({ data: still.rgb, width: info.width, height: info.height }, region, o.roiInput, o.roiInput);
    const top = (await model.detect(img, o.roiInput, o.roiInput, { rims: true })).rims[0];
    if (!top) return null;
    const k = region.w / o.roiInput;
    return { cx: region.x + top.cx * k, cy: region.y + top.cy * k, w: top.w * k, h: top.h * k, score: top.score };
  };
  const verified = await verifyRims(candidates, stills.map((s) => s.frame), look, { frameW: info.width, frameH: info.height });
  const persons = scan.flatMap((s) => s.persons);
  const rims = verified.filter((r) => r.verification >= o.minVerification && plausibleHeight(medianOf(r.boxes), persons)).slice(0, o.maxRims).map((r, id) => ({ ...r, id }));
  const watch = await watchRims(videoPath, info, model, rims, timeline, {
    fps,
    input: o.roiInput,
    widths: o.roiWidths,
    signal: o.signal,
    onFrame: (f) => o.onProgress?.(0.4 + 0.6 * Math.min(1, f / timeline)),
  });
  const t2 = performance.now();
  const rimBalls = rims.map((rim, k) =>
    buildBallPath(
      watch.map((w) => w[k]?.balls ?? []),
      { fps, scale: rim.boxes[0].w * 0.53, minScore: 0.15, seedScore: 0.3, sizeRange: [0.45, 2.2] },
    ),
  );
  // The scene ball is tracked at the scan's own rate, then placed on the timeline.
  const typicalPerson = median(scan.flatMap((s) => s.persons.map((p) => p.h)));
  const scenePath = buildBallPath(scan.map((s) => s.balls), { fps: fps / every, scale: typicalPerson ? typicalPerson * 0.12 : Math.min(info.width, info.height) * 0.03, maxGap: 0 });
  const sceneBall: Array<BallObs | null> = new Array(watch.length).fill(null);
  scan.forEach((s, i) => {
    if (s.frame < sceneBall.length) sceneBall[s.frame] = scenePath[i];
  });
  return { fps, frames: watch.length, scan, rims, candidates: verified, watch, rimBalls, sceneBall, timings: { scanMs: t1 - t0, watchMs: t2 - t1 } };
}

function medianOf(boxes: Array<{ cx: number; cy: number; w: number; h: number }>) {
  return { cx: median(boxes.map((b) => b.cx)), cy: median(boxes.map((b) => b.cy)), w: median(boxes.map((b) => b.w)), h: median(boxes.map((b) => b.h)) };
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
