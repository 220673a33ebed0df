// Observation of a real video with the trained CenterNet (the default detector):
//   1. a whole-frame scan a few times a second: people (tracked, jersey numbers read), rim
//      candidates and balls big enough to see on the whole frame;
//   2. rim tracking over the scan, then a closer look at each candidate on full-resolution stills
//      (verification and placement), keeping the rims that hang where a rim can hang and are not
//      lamps;
//   3. a pass that watches a region around each kept rim on every timeline frame: the ball where
//      shots are decided, and the net's movement; a rim the ball never came near is dropped.
// All three run window by window (analysis/observe/windows.ts: scenes split at cuts, long scenes in windows
// of WINDOW_S), so what is found in one stretch of a long video never depends on the rest of it.
// Analysis coordinates are source pixels.
import type { CameraSetup } from "../../../contract/job-options.ts";
import { videoFrames } from "../../media/decode.ts";
import { sampleLagFrames, type FrameSource } from "../../media/frames.ts";
import type { VideoInfo } from "../../media/probe.ts";
import { findSceneCuts, SCENE_DEFAULTS } from "../../media/scenes.ts";
import type { BasketballModel } from "../../vision/basketball.ts";
import { fromRegion, ofClass, type Detections } from "../../vision/detections.ts";
import { median, medianBox } from "../../vision/boxes.ts";
import { clippedWhiteShare, cropResize } from "../../vision/image.ts";
import type { JerseyRead, JerseyReader } from "../../vision/jersey-ocr.ts";
import type { CourtLineModel } from "../../vision/court-lines.ts";
import { BALL_PATH_DEFAULTS, buildBallPath } from "../rules/ball-path.ts";
import { ballCameToRim, isLight, plausibleHeight, ringSeenAtRim, RIM_HEIGHT_DEFAULTS, RIM_PLAY_DEFAULTS, RIM_SEEN_DEFAULTS, RIM_TRACK_DEFAULTS, RIM_VERIFY_DEFAULTS, trackRims, verifyRims, type LookCloser, type RimHeightSettings, type RimPlaySettings, type RimSeenSettings, type RimTrackSettings, type RimVerifySettings, type VerifiedRim } from "../rules/hoop.ts";
import { observeCourtViews } from "./court-views.ts";
import { sourceFrame, type Observations } from "./observations.ts";
import { PlayerObserver } from "./player-observer.ts";
import { RIM_WATCH_DEFAULTS, watchRims, type RimWatchSample, type RimWatchSettings } from "./rim-watch.ts";
import { scanVideo, StillsReservoir, type ScanSample } from "./scan.ts";
import { densifyTrack, fillGaps, type BallObs, type PlayerTrack } from "../rules/tracks.ts";
import type { Box } from "../types.ts";
import { planWindows, WINDOW_DEFAULTS, type ObservationWindow, type WindowOptions } from "./windows.ts";

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
  /** At most this many rims are watched in one window. */
  maxRims: number;
  /** Observation windows (analysis/observe/windows.ts): rims are found and followed window by window. */
  windows: WindowOptions;
  /** Scene cuts (media/scenes.ts): no window crosses one. */
  scenes: typeof SCENE_DEFAULTS;
  rimTracks: RimTrackSettings;
  rimVerify: RimVerifySettings;
  rimHeight: RimHeightSettings;
  /** Whether the ball came to a watched rim (hoop.ts, ballCameToRim): a rim it never came near is none. */
  rimPlay: RimPlaySettings;
  /** Whether the rim watch saw a ring at a watched rim (hoop.ts, ringSeenAtRim): a patch that is a ring only on a few stills is none. */
  rimSeen: RimSeenSettings;
  watch: RimWatchSettings;
  balls: typeof BALL_OBSERVATION_DEFAULTS;
  /** The submit's `camera_setup`: how often the court pass registers the court (observe/court-views.ts). */
  camera?: CameraSetup;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

/**
 * How the observations become ball paths (assembleRealObservations): sizes in rim widths or person
 * heights, model scores, motion as mean absolute RGB difference (0–255).
 */
export const BALL_OBSERVATION_DEFAULTS = {
  /** A ball is about this many rim widths across (0.24 m over 0.45 m): the ball path's unit near a rim. */
  BALL_RIM_WIDTHS: 0.53,
  /** …and about this many person heights (the scene ball's unit where people are seen). */
  BALL_PERSON_HEIGHTS: 0.12,
  /** Without people, a ball is taken as this share of the frame's short side. */
  BALL_FRAME_SHARE: 0.03,
  /**
   * Around a rim: candidates count from 0.2, as does a path's start (the fine-tuned ball head
   * scores a ball it sees higher and a look-alike lower than the heads before it); sizes are
   * clamped to 0.6–1.6 balls (a ball beside the backboard gets the board's box from the size head).
   * The scores and the seed's motion floor (below) were chosen by `bench:realclips-sweep` on the
   * tuning clips with the fine-tuned detector (docs/analysis.md, "Settings chosen on the tuning part").
   */
  RIM_BALL_PATH: { ...BALL_PATH_DEFAULTS, MIN_SCORE: 0.2, SEED_SCORE: 0.2, SIZE_RANGE_BALLS: [0.6, 1.6] as [number, number] },
  /** A path near a rim starts only on a candidate whose disc differs this much from the region's background… */
  SEED_MOTION_MIN: 6,
  /** …and this many times the region's own change (camera shake, noise). */
  SEED_MOTION_OVER_REGION: 2,
  /** The scene ball (whole frames, a few a second): confident sightings only, no interpolation at that rate. */
  SCENE_BALL_PATH: { ...BALL_PATH_DEFAULTS, MIN_SCORE: 0.3, MAX_GAP_FRAMES: 0 },
  /** The rim follows the region's measured shift, a median over this many frames (one bad measurement stays out). */
  SHIFT_MEDIAN_FRAMES: 5,
};

export const REAL_FOOTAGE_DEFAULTS = {
  fps: 15,
  scanFps: 5,
  scanInput: 512,
  roiInput: 256,
  roiWidths: 7,
  minVerification: 0.1,
  maxRims: 2,
  windows: WINDOW_DEFAULTS,
  scenes: SCENE_DEFAULTS,
  // Candidates from a whole-frame scan a few times a second: a real rim is often missed for a while,
  // so a fifth of the samples and a low mean score are enough to deserve a closer look.
  rimTracks: { ...RIM_TRACK_DEFAULTS, MIN_COVERAGE: 0.2, MIN_MEAN_SCORE: 0.05 },
  rimVerify: RIM_VERIFY_DEFAULTS,
  rimHeight: RIM_HEIGHT_DEFAULTS,
  rimPlay: RIM_PLAY_DEFAULTS,
  rimSeen: RIM_SEEN_DEFAULTS,
  watch: RIM_WATCH_DEFAULTS,
  balls: BALL_OBSERVATION_DEFAULTS,
};

export type RealFootageSettings = typeof REAL_FOOTAGE_DEFAULTS;
/** Overrides of the real-footage settings: any stage's settings in part (benches sweep them this way). */
export type RealFootageOverrides = { [K in keyof RealFootageSettings]?: DeepPartial<RealFootageSettings[K]> };
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/**
 * The defaults with `overrides` laid over them, stage by stage and at any depth (a stage's other
 * settings, and a nested group's other members such as `balls.RIM_BALL_PATH`'s, keep their defaults).
 */
export function realFootageSettings(overrides: RealFootageOverrides = {}): RealFootageSettings {
  for (const k of Object.keys(overrides)) if (!(k in REAL_FOOTAGE_DEFAULTS)) throw new Error(`unknown real-footage setting group: ${k}`);
  return layOver(REAL_FOOTAGE_DEFAULTS, overrides) as RealFootageSettings;
}

function layOver(base: unknown, over: unknown): unknown {
  const isGroup = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
  if (!isGroup(base) || !isGroup(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = layOver(base[k], v);
  return out;
}

/**
 * Observes a real video window by window (analysis/observe/windows.ts): scene cuts first, then each window
 * on its own — scan, rims, closer looks, rim watch — and the windows' observations joined into one
 * timeline, each frame from the window whose core holds it.
 */
export async function observeRealFootage(videoPath: string, info: VideoInfo, model: BasketballModel, reader: JerseyReader | null, courtLines: CourtLineModel, o: RealFootageOptions): Promise<Observations & { details: RawRealObservations }> {
  const frames = Math.max(1, Math.round(info.durationSeconds * o.fps));
  const cuts = await findSceneCuts(videoPath, { ...o.scenes, signal: o.signal });
  const windows = planWindows(frames, cuts.map((t) => t * o.fps), o.fps, o.windows);
  // Every pass reads the video through one frame source (each pass its own ffmpeg).
  const source = videoFrames(videoPath, info);
  const parts: Array<{ window: ObservationWindow; raw: RawRealObservations }> = [];
  for (const [i, window] of windows.entries()) {
    const share = (window.core[1] - window.core[0]) / frames;
    const before = windows.slice(0, i).reduce((a, w) => a + (w.core[1] - w.core[0]) / frames, 0);
    const last = i === windows.length - 1;
    parts.push({ window, raw: await observeWindow(source, info.durationSeconds, model, reader, o, window, last, (f) => o.onProgress?.(Math.min(1, before + share * f))) });
  }
  const raw = joinWindows(parts, frames, cuts);
  const observations = assembleRealObservations(raw, o);
  // The court pass after the rims: a registered court must put its basket under one (rules/court-rim.ts).
  const court = await observeCourtViews(source, o.fps, { camera: o.camera, durationS: info.durationSeconds, signal: o.signal, rims: observations.rims, lines: courtLines });
  return { ...observations, courtViews: court.views, courtMotion: court.motion, details: raw };
}

/** One window's observation, in frames from the start of its span. */
async function observeWindow(source: FrameSource, durationS: number, model: BasketballModel, reader: JerseyReader | null, o: RealFootageOptions, window: ObservationWindow, last: boolean, onProgress: (fraction: number) => void): Promise<RawRealObservations> {
  const fps = o.fps;
  const every = Math.max(1, Math.round(fps / o.scanFps));
  const frames = window.span[1] - window.span[0];
  // The last window reads to the end of the file (the probed duration can be short by a frame or two).
  const range = { startS: window.span[0] / fps, durationS: last ? Math.max(frames / fps, durationS + 1) : frames / fps };
  const stillFps = 3;
  const players = new PlayerObserver(reader, {
    fps,
    stillFps,
    sourceWidth: source.width,
    sourceHeight: source.height,
    toSource: { scale: 1, padX: 0, padY: 0 },
    maxMissing: Math.max(2 * every, Math.round(fps * 0.4)),
  });
  // A few full-resolution stills spread over the window, for closer looks at rim candidates.
  const keepStills = 6;
  const reservoir = new StillsReservoir(keepStills, (k) => Math.round((k / stillFps) * fps));
  const onStill = (k: number, rgb: Buffer) => {
    players.onStill(k, rgb);
    reservoir.offer(k, rgb);
  };
  const t0 = performance.now();
  const scan = await scanVideo(source, model, {
    fps,
    every,
    input: o.scanInput,
    range,
    signal: o.signal,
    stills: { fps: stillFps, onStill },
    onSample: async (s) => void (await players.update(s.frame, ofClass(s.detections, "person"))),
    onFrame: (f) => onProgress(0.4 * Math.min(1, f / frames)),
  });
  const t1 = performance.now();
  const timeline = Math.max(frames, (scan.at(-1)?.frame ?? 0) + 1);

  const candidates = trackRims(scan.map((s) => ({ frame: s.frame, candidates: ofClass(s.detections, "rim") })), { frames: timeline, settings: o.rimTracks });
  const look: LookCloser = async (frame, region) => {
    const still = reservoir.stills.find((x) => x.frame === frame)!;
    const img = cropResize({ data: still.rgb, width: source.width, height: source.height }, region, o.roiInput, o.roiInput);
    // The model answers rims best first.
    const [top] = fromRegion(ofClass(await model.detect(img, o.roiInput, o.roiInput, ["rim"]), "rim").slice(0, 1), region, region.w / o.roiInput);
    return top ?? null;
  };
  // How much of each ring's box the stills show blown out white (a lamp: isLight).
  const verified = (await verifyRims(candidates, reservoir.stills.map((s) => s.frame), look, { frameW: source.width, frameH: source.height, settings: o.rimVerify })).map((r) => {
    const shares = reservoir.stills.map((s) => {
      const b = r.boxes[Math.min(s.frame, r.boxes.length - 1)];
      return clippedWhiteShare({ data: s.rgb, width: source.width, height: source.height }, { x: b.cx - b.w / 2, y: b.cy - b.h / 2, w: b.w, h: b.h }, o.rimVerify.CLIPPED_WHITE_LEVEL);
    });
    return { ...r, clippedWhite: shares.length ? shares.reduce((a, x) => a + x, 0) / shares.length : 0 };
  });
  const persons = scan.flatMap((s) => ofClass(s.detections, "person"));
  const rims = verified
    .filter((r) => r.verification >= o.minVerification && !isLight(r, o.rimVerify) && plausibleHeight(medianBox(r.boxes), persons, o.rimHeight))
    .slice(0, o.maxRims)
    .map((r, id) => ({ ...r, id }));
  // The stills are not needed past here; a long window's rim watch should not hold them.
  reservoir.clear();

  const watch = await watchRims(source, model, rims, timeline, {
    fps,
    input: o.roiInput,
    widths: o.roiWidths,
    settings: o.watch,
    range,
    signal: o.signal,
    onFrame: (f) => onProgress(0.4 + 0.6 * Math.min(1, f / timeline)),
  });
  const t2 = performance.now();
  return { fps, every, width: source.width, height: source.height, scan, rims, candidates: verified, watch, tracks: players.tracks, jerseyReads: [...players.jerseyReads], cuts: [], timings: { scanMs: t1 - t0, watchMs: t2 - t1 } };
}

/**
 * The windows' observations on one timeline. Each frame's scan sample and rim-region watch come
 * from the window whose core holds it. A rim of one window continues a rim of the previous window in
 * the same scene when it hangs within a rim width of where that one was at the join (a fixed camera,
 * or a pan followed across the join); otherwise it is a rim of its own, in view only in its window.
 */
export function joinWindows(parts: Array<{ window: ObservationWindow; raw: RawRealObservations }>, frames: number, cuts: number[]): RawRealObservations {
  const first = parts[0].raw;
  const lastPart = parts[parts.length - 1];
  // The last window may have decoded a frame or two past the probed length.
  const n = Math.max(frames, lastPart.window.span[0] + lastPart.raw.watch.length);
  const watch: RimWatchSample[][] = Array.from({ length: n }, () => []);
  const scan: ScanSample[] = [];
  const tracks: PlayerTrack[] = [];
  const jerseyReads: Array<[number, JerseyRead[]]> = [];
  const candidates: VerifiedRim[] = [];
  // A rim continues only from the window just before, so its frames are one run: its boxes start at
  // its first core frame (`from`) and cover its frames only, whatever the video's length.
  interface JoinedRim { rim: VerifiedRim; from: number; boxes: Box[]; active: Array<[number, number]>; lastWindow: number; lastBox: Box }
  const joined: JoinedRim[] = [];
  let nextTrackId = 0;
  const timings = { scanMs: 0, watchMs: 0 };
  parts.forEach(({ window, raw }, wi) => {
    const offset = window.span[0];
    const [c0, c1] = window.core;
    const coreEnd = wi === parts.length - 1 ? n : c1;
    const inCore = (local: number) => local + offset >= c0 && local + offset < coreEnd;
    for (const s of raw.scan) if (inCore(s.frame)) scan.push({ ...s, frame: s.frame + offset });
    // Player tracks are cut to the core and renumbered so ids stay unique; one person's tracks from
    // several windows are joined into one player downstream, as fragments of one window are.
    const ids = new Map<number, number>();
    for (const t of raw.tracks) {
      const frames = t.frames.map((f) => f + offset).filter((f) => f >= c0 && f < coreEnd);
      if (!frames.length) continue;
      const keep = t.frames.map((f) => f + offset >= c0 && f + offset < coreEnd);
      ids.set(t.id, nextTrackId);
      tracks.push({ ...t, id: nextTrackId++, frames, boxes: t.boxes.filter((_, i) => keep[i]), colors: t.colors.filter((_, i) => keep[i]) });
    }
    for (const [id, reads] of raw.jerseyReads) if (ids.has(id)) jerseyReads.push([ids.get(id)!, reads]);
    candidates.push(...raw.candidates);
    timings.scanMs += raw.timings.scanMs;
    timings.watchMs += raw.timings.watchMs;
    const previous = parts[wi - 1];
    const rimIndex = raw.rims.map((rim) => {
      const at = rim.boxes[Math.min(Math.max(0, c0 - offset), rim.boxes.length - 1)];
      const continued = previous && previous.window.scene === window.scene
        ? joined.find((j) => j.lastWindow === wi - 1 && Math.hypot(j.lastBox.cx - at.cx, j.lastBox.cy - at.cy) <= Math.max(j.lastBox.w, at.w))
        : undefined;
      const j = continued ?? { rim, from: c0, boxes: [], active: [], lastWindow: wi, lastBox: at };
      if (!continued) joined.push(j);
      for (let f = c0; f < coreEnd; f++) j.boxes.push(rim.boxes[Math.min(f - offset, rim.boxes.length - 1)]);
      const lastRange = j.active[j.active.length - 1];
      if (lastRange && lastRange[1] === c0) lastRange[1] = coreEnd;
      else j.active.push([c0, coreEnd]);
      j.lastWindow = wi;
      j.lastBox = rim.boxes[Math.min(coreEnd - 1 - offset, rim.boxes.length - 1)];
      if (continued) j.rim = { ...j.rim, verification: Math.max(j.rim.verification, rim.verification), detections: j.rim.detections + rim.detections, fixed: j.rim.fixed && rim.fixed };
      return joined.indexOf(j);
    });
    raw.watch.forEach((samples, local) => {
      if (!inCore(local)) return;
      samples.forEach((sample, k) => (watch[local + offset][rimIndex[k]] = sample));
    });
  });
  // Outside the windows it was seen in, a rim holds its nearest position (hoopBoxAt; nothing is watched there).
  const rims: VerifiedRim[] = joined.map((j, id) => ({ ...j.rim, id, from: j.from, boxes: j.boxes, coverage: j.rim.coverage * (j.boxes.length / n), active: j.active }));
  return { fps: first.fps, every: first.every, width: first.width, height: first.height, scan, rims, candidates, watch, tracks, jerseyReads, cuts, timings };
}

/** What the real-footage passes saw, before it is turned into paths (plain data: benches cache it). */
export interface RawRealObservations {
  fps: number;
  /** Timeline frames between whole-frame scans. */
  every: number;
  width: number;
  height: number;
  scan: ScanSample[];
  rims: VerifiedRim[];
  /** Every rim candidate looked at closely, kept or not. */
  candidates: VerifiedRim[];
  watch: RimWatchSample[][];
  tracks: PlayerTrack[];
  jerseyReads: Array<[number, JerseyRead[]]>;
  /** Scene cuts found in the video (seconds). */
  cuts: number[];
  timings: { scanMs: number; watchMs: number };
}

/** Ball paths, the scene ball, artifacts rows: the observations the basketball logic reads. */
export function assembleRealObservations(raw: RawRealObservations, settings: Pick<RealFootageSettings, "balls" | "rimPlay" | "rimSeen"> = REAL_FOOTAGE_DEFAULTS): Observations {
  const { balls: ob, rimPlay: play, rimSeen: seen } = settings;
  const { fps, every, scan, watch } = raw;
  const n = watch.length;
  // Each rim is looked at over its own frames only, [from, to): a long video's scenes each bring
  // their rims, and work per rim and frame of the whole timeline would grow with their product.
  const spans = raw.rims.map((r) => {
    const from = r.from ?? 0;
    return { from, to: r.from === undefined ? Math.max(n, r.boxes.length) : from + r.boxes.length };
  });
  const watched = raw.rims.map((r, k) => {
    const { from, to } = spans[k];
    const boxes = [...r.boxes];
    while (boxes.length < to - from) boxes.push(boxes[boxes.length - 1]);
    // Between scans the camera moves on (a handheld phone shakes): the rim region measured how far
    // its content moved from its background, and the rim moved with it (a median over five frames
    // keeps one bad measurement out).
    // Where the rim was not watched nothing moved it: its box is kept as it is, not copied.
    const shifts = boxes.map((_, i) => watch[from + i]?.[k]?.shift ?? null);
    const half = ob.SHIFT_MEDIAN_FRAMES >> 1;
    return {
      ...r,
      from,
      boxes: boxes.map((b, i) => {
        const near = shifts.slice(Math.max(0, i - half), i + half + 1);
        if (near.every((s) => s === null)) return b;
        return { ...b, cx: b.cx + median(near.map((s) => s?.dx ?? 0)), cy: b.cy + median(near.map((s) => s?.dy ?? 0)) };
      }),
    };
  });
  // The ball around each rim: candidates linked into a path that must start on something moving
  // (a static look-alike on the rim or the net must not become the ball). Paths and the net's
  // movement are aligned with the rim's boxes (frame `from` first).
  const watchedPaths = watched.map((rim, k) => {
    const at = (i: number) => watch[rim.from + i]?.[k];
    return {
      ball: buildBallPath(
        rim.boxes.map((_, i) => ofClass(at(i)?.detections ?? [], "ball")),
        {
          fps,
          scale: medianBox(rim.boxes).w * ob.BALL_RIM_WIDTHS,
          settings: ob.RIM_BALL_PATH,
          // A path starts only on a candidate that stands out from the region's background; once
          // started it follows the ball wherever it is predicted, moving or not (slow motion, a ball
          // rolling on the rim).
          visiblyMoving: (c, i) => c.motion >= Math.max(ob.SEED_MOTION_MIN, ob.SEED_MOTION_OVER_REGION * (at(i)?.roiMotion ?? 0)),
        },
      ),
      netMotion: rim.boxes.map((_, i) => at(i)?.netMotion ?? 0),
    };
  });
  // The scene ball, tracked at the scan's own rate, then placed on the timeline; where a rim's
  // region saw the ball, that sighting (at the full rate, at a closer look) wins.
  const persons = scan.flatMap((s) => ofClass(s.detections, "person"));
  const typicalPerson = median(persons.map((p) => p.h));
  const scenePath = buildBallPath(scan.map((s) => ofClass(s.detections, "ball")), {
    fps: fps / every,
    scale: typicalPerson ? typicalPerson * ob.BALL_PERSON_HEIGHTS : Math.min(raw.width, raw.height) * ob.BALL_FRAME_SHARE,
    settings: ob.SCENE_BALL_PATH,
  });
  // Each scan sighting goes on the frame its picture shows (a frame after the sample's number), so
  // it meets the rim watch's sightings of the same moment where they are.
  const lag = sampleLagFrames(every);
  const ball: Array<BallObs | null> = new Array(n).fill(null);
  scan.forEach((s, i) => {
    if (s.frame + lag < n) ball[s.frame + lag] = scenePath[i];
  });
  // Every watched region saw the ball at a closer look, a dropped candidate's too (its region shows the scene around it).
  watchedPaths.forEach((w, k) => w.ball.forEach((b, i) => {
    if (b && !b.interpolated && watched[k].from + i < n) ball[watched[k].from + i] = b;
  }));
  // A rim is a ring that stays where it hangs (hoop.ts, ringSeenAtRim): a candidate the rim head saw
  // as a ring on a few stills but not at its place while watched — the top of a bouncing ball in an
  // animation, a court line's curve — is no rim. And a rim is where the ball goes (ballCameToRim):
  // a watched candidate the ball never came near — a drawn hoop in an overlay, a floodlight, a
  // sign — is no rim. No rim left: `no_hoops`.
  const inPlay = watched.map((rim, k) => {
    const looks = rim.boxes.map((_, i) => {
      const w = watch[rim.from + i]?.[k];
      return w?.looked ? w.detections : null;
    });
    return ringSeenAtRim(looks, rim.boxes, seen) && ballCameToRim([watchedPaths[k].ball, ball.slice(rim.from, rim.from + rim.boxes.length)], rim.boxes, fps, play);
  });
  const rims = watched.filter((_, k) => inPlay[k]).map((r, id) => ({ ...r, id }));
  const rimWatch = watchedPaths.filter((_, k) => inPlay[k]);

  // Artifacts: what was detected, frame by frame, in source pixels, each on the frame its picture shows.
  // The scan's people and rim candidates; its balls where no rim region was watched, else the regions' balls (a closer look).
  const perFrame: Detections[] = Array.from({ length: n }, () => []);
  for (const s of scan) {
    const shown = s.frame + lag;
    if (shown < n) perFrame[shown] = watch[shown].length ? s.detections.filter((d) => d.className !== "ball") : s.detections;
  }
  watch.forEach((ws, f) => (perFrame[f] = [...perFrame[f], ...ws.flatMap((w) => ofClass(w.detections, "ball"))]));

  return {
    fps,
    frames: n,
    frame: sourceFrame(raw.width, raw.height),
    perFrame,
    rims,
    ball: fillGaps(ball, every + 1),
    rimWatch,
    // People, like the ball, on the frames their pictures show.
    tracks: raw.tracks.map((t) => densifyTrack(shownFrames(t, lag, n), 2 * every)),
    jerseyReads: new Map(raw.jerseyReads),
    keySamples: [],
    personEvery: every,
  };
}

/**
 * A scan track moved onto the frames its pictures show (`lag` frames after the samples' numbers,
 * media/frames.ts `sampleLagFrames`), sightings past the timeline's end dropped.
 */
export function shownFrames(t: PlayerTrack, lag: number, frames: number): PlayerTrack {
  const keep = t.frames.map((f) => f + lag < frames);
  return { ...t, frames: t.frames.map((f) => f + lag).filter((_, i) => keep[i]), boxes: t.boxes.filter((_, i) => keep[i]), colors: t.colors.filter((_, i) => keep[i]) };
}
