// analyzeGame: one decode pass → detections → tracks → shots → attribution → box scores.
import { mkdir } from "node:fs/promises";
import { decodeFrames, letterboxFor, type Letterbox } from "../media/decode.ts";
import { probe, type VideoInfo } from "../media/probe.ts";
import { HostFaultError } from "../host-fault.ts";
import { MediaError } from "../media/run.ts";
import { artifactPath, writeJsonl } from "../outputs/artifacts.ts";
import { loadYoloDetector, resolveDetectorModel, type Detection, type Detector } from "../vision/detector.ts";
import { loadJerseyReader, type JerseyReader } from "../vision/jersey-ocr.ts";
import { attributeAndScore, type Tag } from "./boxscore.ts";
import { courtHomography, DEFAULT_KEY_COLOR, findKeyQuad, type KeyColorOptions } from "./court.ts";
import { CLIP_AFTER_RIM_S, CLIP_BEFORE_RELEASE_S, excitementScore, isLowlight } from "./excitement.ts";
import { applyH, distanceToFtSpot, HOOP_WORLD, isThreePointWorld, worldNormed, type Homography } from "./geometry.ts";
import { applyRosters, buildIdentities, voteJersey, type Roster } from "./players.ts";
import { dominantOwner, lastPasser, lastSegmentBefore, mergeSamePlayer, ownersPerFrame, possessionSegments, reboundSegment, type PossessionSegment } from "./possession.ts";
import { detectShots, flightStartDetail, type ShotEvent } from "./shots.ts";
import { dribbleBounces, feetUnderBall, fitHeightModel, pickDribbler, pickShooter, type ShooterCandidate } from "./release.ts";
import { clusterTeams, shirtColor, type RGB } from "./teams.ts";
import { buildBallTrack, buildHoopTracks, PlayerTracker, trackBoxAt, type HoopTrack, type PlayerTrack } from "./tracks.ts";
import type { AnalysisResult, Box, HighlightResult, Point, ShotResult } from "./types.ts";

export const RUN_VERSION = 1;
export const DEFAULT_ANALYSIS_FPS = 10;
/** The ball's centre on the floor: its radius (0.12 m) over a ~1.95 m player. */
const BALL_ON_FLOOR_RATIO = 0.06;
/**
 * Assists (tuned on the development seeds): an opponent holding the ball longer than this took it (less
 * is a pass flying past a defender or a defender covering the receiver); this long with nobody
 * holding it ends the play; a hand-off that moves the ball less than this many player heights is
 * one player's track split in two, not a pass.
 */
const ASSIST_OPPONENT_HOLD_S = 1.0;
const ASSIST_MAX_GAP_S = 3.0;
const PASS_MIN_TRAVEL_HEIGHTS = 0.5;
/** A rebound is secured by holding the ball this long; shorter touches are the ball grazing a box. */
const REBOUND_MIN_HOLD_S = 0.4;

/** Wall-clock split of the last analyzeGame call in this process (bench/runner.ts prints it). */
export const lastRunTimings = { decodeWaitMs: 0, detectMs: 0, ocrMs: 0, courtMs: 0, otherPerFrameMs: 0, postMs: 0, frames: 0 };
/** Why each shot of the last analyzeGame call got its shooter (bench/accuracy.ts --misses prints it). */
export const lastShooterEvidence: Array<{ release_s: number; holder: string | null; approach: string | null; dribbler: string | null; candidates: Array<{ key: string; distance: number }>; shooter: string | null }> = [];
/** Spec limit: at most 1920×1080 in either orientation. */
const MAX_LONG_SIDE = 1920;
const MAX_SHORT_SIDE = 1080;

export interface AnalyzeInput {
  videoPath: string;
  workDir: string;
  options: { session_type?: string; jerseys?: "auto" | "enabled" | "disabled"; has_jerseys?: boolean; [k: string]: unknown };
  rosters?: Array<{ team: number; players: Array<{ jersey: string; name?: string; user_id?: string; metadata?: Record<string, string> }> }>;
  signal?: AbortSignal;
  onProgress?: (stage: string, percent: number) => void;
}

export type AnalysisErrorCode = "no_shots" | "no_hoops" | "no_court" | "source_invalid" | "video_too_large" | "unknown";

export class AnalysisError extends Error {
  constructor(readonly code: AnalysisErrorCode, message: string) {
    super(message);
    this.name = "AnalysisError";
  }
}

const detectors = new Map<string, Promise<Detector>>();
let readerPromise: Promise<JerseyReader> | null = null;

/** Sessions are expensive to create: one per model file and process (a newly dropped-in model is picked up). */
function getDetector(orientation: "landscape" | "portrait"): Promise<Detector> {
  const p = resolveDetectorModel(orientation);
  let d = detectors.get(p);
  if (!d) {
    d = loadYoloDetector(p);
    d.catch(() => detectors.delete(p));
    detectors.set(p, d);
  }
  return d;
}
function getReader(): Promise<JerseyReader> {
  if (!readerPromise) {
    readerPromise = loadJerseyReader();
    readerPromise.catch(() => (readerPromise = null));
  }
  return readerPromise;
}

interface FramePerson extends Detection {
  color: RGB;
}

interface KeySample {
  frame: number;
  /** Key corners relative to the hoop position in that frame, so a panning camera can reuse them. */
  rel: Point[];
}

/**
 * Whether to read jersey numbers (the submit options' rule): `enabled` always, `disabled` never,
 * `auto` when the players wear numbered jerseys (`has_jerseys`, default true).
 */
export function wantsJerseyNumbers(options: AnalyzeInput["options"]): boolean {
  const mode = options.jerseys ?? "auto";
  return mode === "enabled" || (mode === "auto" && options.has_jerseys !== false);
}

export async function analyzeGame(input: AnalyzeInput): Promise<AnalysisResult> {
  const progress = throttle(input.onProgress);
  let info: VideoInfo;
  try {
    info = await probe(input.videoPath, input.signal);
  } catch (e) {
    if (input.signal?.aborted || e instanceof HostFaultError) throw e;
    throw new AnalysisError("source_invalid", `not a readable video: ${(e as Error).message}`);
  }
  if (!(info.width > 0 && info.height > 0 && info.fps > 0)) throw new AnalysisError("source_invalid", "video has no frames");
  if (Math.max(info.width, info.height) > MAX_LONG_SIDE || Math.min(info.width, info.height) > MAX_SHORT_SIDE)
    throw new AnalysisError("video_too_large", `${info.width}x${info.height} is above 1920x1080`);
  await mkdir(input.workDir, { recursive: true });

  const detector = await getDetector(info.height > info.width ? "portrait" : "landscape");
  const reader = wantsJerseyNumbers(input.options) ? await getReader() : null;
  const W = detector.inputWidth, H = detector.inputHeight;
  const lb = letterboxFor(info.width, info.height, W, H);
  // Inference runs on at most `analysis_fps` frames a second (default 10): a shot's flight still
  // spans 8+ samples and a dribble 5, which the shot and dribble logic need, and it cuts the
  // per-frame work to a third on 30 fps video. 10 and 15 scored alike on the development games
  // (10: made 93.7 %, scorer 85.3 %; 15: 92.6 %, 84.2 %). Decoding still reads every frame once.
  const analysisFps = Number(input.options.analysis_fps ?? DEFAULT_ANALYSIS_FPS);
  const fps = analysisFps > 0 && analysisFps < info.fps - 0.5 ? analysisFps : info.fps;
  const maxFps = fps < info.fps ? fps : undefined;
  const keyColor = parseKeyColor(input.options.key_color);
  const expectedFrames = Math.max(1, Math.round(info.durationSeconds * fps));

  const perFrame: Detection[][] = [];
  const tracker = new PlayerTracker(Math.round(fps * 0.4));
  const keySamples: KeySample[] = [];
  const keyEvery = Math.max(1, Math.round(fps / 3));
  // Jersey digits are a few pixels tall in the scaled frames, so OCR reads full-resolution stills
  // split off the same decode, a few times a second.
  const stillFps = 3;
  const stillEvery = fps / stillFps;
  const stills = new Map<number, Buffer>();
  interface OcrJob { track: number; crop: { x: number; y: number; w: number; h: number } }
  const ocrQueue = new Map<number, OcrJob[]>();
  const jerseyReads = new Map<number, Array<{ text: string; confidence: number }>>();
  let lastHoop: Detection | null = null;

  progress("analyze", 0);
  const tm = lastRunTimings;
  Object.assign(tm, { decodeWaitMs: 0, detectMs: 0, ocrMs: 0, courtMs: 0, otherPerFrameMs: 0, postMs: 0, frames: 0 });
  let tick = performance.now();
  const lap = (k: "decodeWaitMs" | "detectMs" | "ocrMs" | "courtMs" | "otherPerFrameMs") => {
    const now = performance.now();
    tm[k] += now - tick;
    tick = now;
  };
  try {
    for await (const frame of decodeFrames(input.videoPath, info.width, info.height, {
      width: W,
      height: H,
      maxFps,
      signal: input.signal,
      stills: reader
        ? {
            fps: stillFps,
            onStill: (k, rgb) => {
              stills.set(k, rgb);
              // Bounded: if analysis falls far behind, old stills are dropped rather than hoarded.
              for (const old of stills.keys()) if (stills.size > 12) stills.delete(old);
            },
          }
        : undefined,
    })) {
      lap("decodeWaitMs");
      tm.frames++;
      const dets = await detector.detect(frame.rgb);
      lap("detectMs");
      const persons: FramePerson[] = dets.filter((d) => d.kind === "person").map((d) => ({ ...d, color: shirtColor(frame.rgb, W, H, d) }));
      perFrame.push(dets.filter((d) => d.kind !== "person").concat(persons));
      const assigned = tracker.update(frame.index, persons);
      const hoop = dets.filter((d) => d.kind === "hoop").sort((a, b) => b.score - a.score)[0];
      if (hoop) lastHoop = hoop;
      lap("otherPerFrameMs");
      if (frame.index % keyEvery === 0 && lastHoop) {
        const quad = findKeyQuad(frame.rgb, W, H, keyColor);
        if (quad) keySamples.push({ frame: frame.index, rel: quad.map((p) => [p[0] - lastHoop!.cx, p[1] - lastHoop!.cy] as Point) });
      }
      lap("courtMs");
      // Jersey numbers: at each still's time, queue a read of every track that still needs reads;
      // the still for that time usually lands a frame or two later (never waited for).
      const stillK = Math.round(frame.index / stillEvery);
      if (reader && Math.abs(frame.index - stillK * stillEvery) < 0.5) {
        const jobs: OcrJob[] = [];
        for (const { track, det } of assigned) {
          const hSrc = det.h / lb.scale;
          if ((jerseyReads.get(track.id)?.length ?? 0) >= 12 || hSrc < 48) continue;
          const x = (det.cx - lb.padX) / lb.scale, top = (det.cy - det.h / 2 - lb.padY) / lb.scale, wSrc = det.w / lb.scale;
          jobs.push({ track: track.id, crop: { x: x - wSrc * 0.4, y: top + hSrc * 0.22, w: wSrc * 0.8, h: hSrc * 0.24 } });
        }
        if (jobs.length) ocrQueue.set(stillK, jobs);
      }
      if (reader) {
        for (const [k, jobs] of ocrQueue) {
          const still = stills.get(k);
          if (!still) {
            if (k < stillK - 6) ocrQueue.delete(k); // dropped still: give up on it
            continue;
          }
          for (const job of jobs) {
            const r = await reader.read(still, info.width, info.height, job.crop);
            if (r) jerseyReads.set(job.track, [...(jerseyReads.get(job.track) ?? []), r]);
          }
          ocrQueue.delete(k);
        }
        for (const k of stills.keys()) if (k < stillK - 6) stills.delete(k);
      }
      lap("ocrMs");
      if (frame.index % 15 === 0) progress("analyze", Math.min(99, (100 * frame.index) / expectedFrames));
    }
  } catch (e) {
    if (input.signal?.aborted) throw e;
    if (e instanceof MediaError) throw new AnalysisError("source_invalid", e.message);
    throw e;
  }
  if (perFrame.length === 0) throw new AnalysisError("source_invalid", "no frames could be decoded");
  progress("analyze", 100);
  const postStart = performance.now();

  const n = perFrame.length;
  const hoops = buildHoopTracks(perFrame);
  const ball = buildBallTrack(perFrame, { maxJump: Math.max(W, H) * 0.08 });
  const tracks = tracker.tracks;
  const ownerTracks = ownersPerFrame(ball, tracks);

  // Teams and identities.
  const longTracks = tracks.filter((t) => t.frames.length >= 3);
  const trackColors = longTracks.map((t) => medianColor(t.colors));
  const clustering = clusterTeams(trackColors, longTracks.map((t) => t.frames.length));
  const trackTeams = new Map<number, 0 | 1 | null>(tracks.map((t) => [t.id, null]));
  longTracks.forEach((t, i) => trackTeams.set(t.id, clustering.labels[i]));
  const trackJerseys = new Map<number, string | null>(tracks.map((t) => [t.id, voteJersey(jerseyReads.get(t.id) ?? [])]));
  const { identities, trackToKey } = buildIdentities(tracks, trackTeams, trackJerseys, { fps });
  applyRosters(identities, input.rosters as Roster[] | undefined);
  // Possession is tracked per identity, so one player's track fragments form one possession.
  const owners = ownerTracks.map((t) => (t === null ? null : trackToKey.get(t) ?? null));
  const rawSegments = possessionSegments(owners, { minFrames: Math.max(3, Math.round(fps * 0.2)), bridge: Math.round(fps * 0.15) });

  const toNorm = (p: Point): Point => normPoint(p, lb);
  const artifacts = {
    actions: artifactPath(input.workDir, "actions"),
    balls: artifactPath(input.workDir, "balls"),
    hoops: artifactPath(input.workDir, "hoops"),
    clusters: artifactPath(input.workDir, "clusters"),
  };
  // Raw model output is written even when the analysis then fails, for debugging failed sessions.
  await writeJsonl(artifacts.balls, ballRows(perFrame, ball, fps, lb));
  await writeJsonl(artifacts.hoops, hoopRows(perFrame, hoops, fps, lb));
  await writeJsonl(artifacts.clusters, clusterRows(tracks, trackTeams, trackJerseys, jerseyReads, trackToKey, clustering.centroids, fps, lb));

  if (hoops.length === 0) throw new AnalysisError("no_hoops", "no hoop was found in the video");
  if (keySamples.length < Math.max(2, 0.1 * (n / keyEvery))) throw new AnalysisError("no_court", "the court (painted key) could not be located");
  const events = detectShots(ball, hoops, { fps });
  const segments = mergeSamePlayer(rawSegments, Math.round(fps * 3), events.map((e) => e.rimFrame));
  if (events.length === 0) {
    await writeJsonl(artifacts.actions, possessionRows(segments, fps));
    throw new AnalysisError("no_shots", "no shot attempts were detected");
  }

  // Shot facts and candidate tags.
  interface Draft {
    ev: ShotEvent;
    release: number;
    shooter: string | null;
    shooterSeg: PossessionSegment | null;
    feet: Point | null;
    world: Point | null;
    hoopBox: Box;
    made: boolean;
    is_free_throw: boolean;
    is_three_point: boolean;
  }
  const heightModel = fitHeightModel(tracks);
  lastShooterEvidence.length = 0;
  const validIdentities = identities.filter((p) => p.valid);
  const validKeys = new Set(validIdentities.map((p) => p.key));
  // The approach window read for the ball carrier (seconds before release), every frame weighing the
  // same; 2–3 s scored alike on the development games, shorter windows worse.
  const APPROACH_S = 2.5;
  const drafts: Draft[] = events.map((ev) => {
    const hoop = hoops.find((h) => h.id === ev.hoop)!;
    const seg = lastSegmentBefore(segments, ev.rimFrame);
    const launchInfo = flightStartDetail(ball, ev.rimFrame, fps);
    const launch = launchInfo?.frame ?? null;
    const release = launch ?? (seg && ev.rimFrame - seg.end <= fps * 3 ? seg.end : Math.max(0, ev.rimFrame - Math.round(fps)));
    // The possession the shot came out of: the last one that began before the release.
    const fresh = lastSegmentBefore(segments.map((x) => ({ ...x, end: Math.min(x.end, release) })).filter((x) => x.start <= release), release);
    const usable = fresh && release - fresh.end <= fps * 1.5 ? segments.find((x) => x.start === fresh.start && x.track === fresh.track)! : null;
    // Candidates: who held the ball most over the second before release, and everyone standing
    // near the floor spot under the released ball (see release.ts); the closest on the floor wins.
    const holder = usable ? dominantOwner(owners, release - Math.round(fps), release) : null;
    const hom = homographyAt(keySamples, hoop, release, fps);
    // `release` is the last frame before the rise: the ball is still at the start of the shooting
    // motion, about half the shooter's height (tuned on the development games), and moves slowly, so its image
    // position is reliable — unlike a frame later, when it is already a fast-moving blur overhead.
    const ballAt = nearestBall(ball, release, 3);
    // When the ball was hidden at the release, the first visible frame already shows it in the
    // air, roughly overhead (1.25 of the shooter's height).
    const implied = ballAt && heightModel ? feetUnderBall([ballAt.cx, ballAt.cy], heightModel, launchInfo?.held === false ? 1.25 : 0.5) : null;
    const impliedWorld = implied && hom ? applyH(hom, implied) : null;
    // Who carried the ball over the approach (the dribble/hold before the release): a shooter hidden
    // by a defender at the release usually held the ball, visibly, for most of the approach. Used
    // when nobody stands near the ball's floor spot (the shooter then usually has no box).
    const approach = dominantOwner(owners, release - Math.round(fps * APPROACH_S), release, { lateWeight: 0, eligible: (k) => validKeys.has(k) });
    // Who dribbled: at each bounce of the approach the ball is on the floor, a point the homography
    // maps exactly, and the dribbler stands within a metre of it while a defender stands farther.
    const bounces = heightModel ? dribbleBounces(ball, release - Math.round(fps * APPROACH_S), release - 1, Math.max(2, Math.round(fps * 0.15)), (cy) => 0.15 * heightModel(cy)) : [];
    const dribbler = pickDribbler(
      bounces.slice(-3).flatMap((f) => {
        const h = homographyAt(keySamples, hoop, f, fps);
        const b = ball[f]!;
        if (!h || !heightModel) return [];
        const candidates: ShooterCandidate[] = [];
        for (const p of validIdentities) {
          const bx = identityBoxAt(p.trackIds, tracks, f, Math.round(fps * 0.2));
          if (bx) candidates.push({ key: p.key, world: applyH(h, [bx.cx, bx.cy + bx.h / 2]) });
        }
        return [{ frame: f, candidates, spot: applyH(h, feetUnderBall([b.cx, b.cy], heightModel, BALL_ON_FLOOR_RATIO)) }];
      }),
    );
    let shooter: string | null = holder;
    let box = holder ? identityBoxAt(identities.find((p) => p.key === holder)!.trackIds, tracks, release, Math.round(fps * 0.5)) : null;
    let feet: Point | null = box ? [box.cx, box.cy + box.h / 2] : null;
    if (impliedWorld && hom) {
      const candidates: ShooterCandidate[] = [];
      const boxes = new Map<string, Box>();
      for (const p of validIdentities) {
        // Up to a second away: a shooter hidden behind a defender at the release was usually seen
        // on the spot moments before.
        const b = identityBoxAt(p.trackIds, tracks, release, Math.round(fps * 1.0));
        if (!b) continue;
        boxes.set(p.key, b);
        candidates.push({ key: p.key, world: applyH(hom, [b.cx, b.cy + b.h / 2]) });
      }
      const pick = pickShooter(candidates, impliedWorld, holder);
      lastShooterEvidence.push({ release_s: release / fps, holder, approach, candidates: candidates.map((c) => ({ key: c.key, distance: Math.round(100 * Math.hypot(c.world[0] - impliedWorld[0], c.world[1] - impliedWorld[1])) / 100 })).sort((a, b) => a.distance - b.distance).slice(0, 4), dribbler, shooter: dribbler ?? (pick ? pick.key : approach ?? holder) });
      shooter = dribbler ?? (pick ? pick.key : approach ?? holder);
      box = pick ? boxes.get(pick.key)! : box;
      // Feet of the chosen player when they stand where the ball says; else the ball's spot.
      feet = pick && pick.distance <= 1.0 ? [box!.cx, box!.cy + box!.h / 2] : implied;
    }
    const world = feet && hom ? applyH(hom, feet) : null;
    const steady = feet ? ballSteady(ball, release, Math.round(fps * 0.8), box?.h ?? (heightModel ? heightModel(feet[1]) : 0)) : false;
    const is_free_throw = world !== null && steady && distanceToFtSpot(world) < 1.0;
    const is_three_point = !is_free_throw && world !== null && isThreePointWorld(world);
    return { ev, release, shooter, shooterSeg: usable, feet, world, hoopBox: hoop.boxes[release], made: ev.made, is_free_throw, is_three_point };
  });

  const tags: Tag[] = [];
  const teamOf = (k: string) => identities.find((p) => p.key === k)?.team_id ?? null;
  drafts.forEach((d, i) => {
    const scorer = d.shooter;
    if (scorer) tags.push({ shot: i, role: "scorer", player: scorer, confidence: d.shooterSeg && d.shooterSeg.end - d.shooterSeg.start >= 5 ? 0.9 : 0.6 });
    // Assist: the teammate who made the last pass to the scorer, with no shot in between.
    if (d.made && scorer && !d.is_free_throw) {
      const passer = lastPasser(segments, scorer, d.release, {
        opponentFrames: Math.round(fps * ASSIST_OPPONENT_HOLD_S),
        maxGapFrames: Math.round(fps * ASSIST_MAX_GAP_S),
        notBefore: i > 0 ? drafts[i - 1].ev.endFrame : -1,
        teamOf,
        ballTravelled: (fromEnd, toStart) => {
          const a = nearestBall(ball, fromEnd, 3), b = nearestBall(ball, toStart, 3);
          // Unknown ball positions count as a pass: the segments themselves say the ball changed hands.
          if (!a || !b || !heightModel) return true;
          return Math.hypot(a.cx - b.cx, a.cy - b.cy) >= PASS_MIN_TRAVEL_HEIGHTS * heightModel(b.cy);
        },
      });
      if (passer) tags.push({ shot: i, role: "assister", player: passer, confidence: 0.8 });
    }
    // Rebound: the first player to secure the ball after a miss, within 6 s and before the next shot.
    if (!d.made) {
      const nextRelease = i + 1 < drafts.length ? drafts[i + 1].release : n;
      const seg = reboundSegment(segments, d.ev.rimFrame, Math.min(nextRelease, d.ev.rimFrame + Math.round(fps * 6) + 1), Math.round(fps * REBOUND_MIN_HOLD_S));
      if (seg) tags.push({ shot: i, role: "rebounder", player: seg.track, confidence: 0.8 });
    }
  });

  const attribution = attributeAndScore(drafts, tags, identities.map((p) => ({ key: p.key, team_id: p.team_id, valid: p.valid })));

  // And-one: a made field goal followed by one free throw by the same scorer before any other field goal.
  const fouled = drafts.map((d, i) => {
    if (!d.made || d.is_free_throw) return false;
    const next = drafts[i + 1];
    return !!next && next.is_free_throw && (next.release - d.release) / fps < 25 && attribution.shotPlayers[i].scorer !== null && attribution.shotPlayers[i + 1].scorer === attribution.shotPlayers[i].scorer;
  });

  const duration = info.durationSeconds || n / fps;
  const shots: ShotResult[] = [];
  const highlights: HighlightResult[] = [];
  drafts.forEach((d, i) => {
    const players = attribution.shotPlayers[i];
    const shotKey = `shot_${i + 1}`;
    const hlKey = `highlight_${i + 1}`;
    const start = Math.max(0, d.release / fps - CLIP_BEFORE_RELEASE_S);
    const end = Math.min(duration, d.ev.rimFrame / fps + CLIP_AFTER_RIM_S);
    const distance = d.world ? Math.hypot(d.world[0] - HOOP_WORLD[0], d.world[1] - HOOP_WORLD[1]) : null;
    const made = d.made;
    shots.push({
      key: shotKey,
      index: i,
      start_seconds: round3(d.release / fps),
      end_seconds: round3(Math.min(duration, d.ev.endFrame / fps + 0.5)),
      made,
      points: made ? (d.is_free_throw ? 1 : d.is_three_point ? 3 : 2) : 0,
      type: d.is_free_throw ? "freethrow" : "fieldgoal",
      is_three_point: d.is_three_point,
      is_free_throw: d.is_free_throw,
      is_fouled: fouled[i],
      location: {
        shot_image_normed: d.feet ? roundPt(toNorm(d.feet)) : null,
        shot_world_normed: d.world ? roundPt(worldNormed(d.world)) : null,
        hoop_image_normed: roundPt(toNorm([d.hoopBox.cx, d.hoopBox.cy])),
      },
      excitement_score: excitementScore({ made, is_free_throw: d.is_free_throw, is_three_point: d.is_three_point, is_fouled: fouled[i], assisted: players.assister !== null, distance_m: distance }),
      players,
      highlight: hlKey,
    });
    highlights.push({ key: hlKey, shot: shotKey, shot_index: i, start_seconds: round3(start), length_seconds: round3(end - start), is_lowlight: isLowlight(made), is_manual: false, player: players.scorer });
  });

  await writeJsonl(artifacts.actions, actionRows(segments, shots, fps));

  tm.postMs = performance.now() - postStart;
  const ballPath: Array<[number, number, number]> = [];
  for (let f = 0; f < n; f += Math.max(1, Math.round(fps / 10))) {
    const b = ball[f];
    if (b) {
      const p = toNorm([b.cx, b.cy]);
      ballPath.push([round3(f / fps), round3(p[0]), round3(p[1])]);
    }
  }
  return {
    run_version: RUN_VERSION,
    video: { duration_seconds: round3(duration), width: info.width, height: info.height, fps: round3(fps) },
    shots,
    highlights,
    players: identities
      .filter((p) => p.valid)
      .map((p) => ({ key: p.key, jersey: p.jersey, name: p.name, user_id: p.user_id, team_id: p.team_id, metadata: p.metadata, stats: attribution.stats.get(p.key)! })),
    totals: attribution.totals,
    artifacts,
    ball_path: ballPath,
  };
}

/** Key corners near `frame` (median over ±3 s, robust to players standing on a corner), moved with the hoop. */
function homographyAt(samples: KeySample[], hoop: HoopTrack, frame: number, fps: number): Homography | null {
  let near = samples.filter((s) => Math.abs(s.frame - frame) <= fps * 3);
  if (near.length < 3) near = samples;
  if (!near.length) return null;
  const rim = hoop.boxes[frame];
  const quad: Point[] = [0, 1, 2, 3].map((k) => {
    // Corners are matched by angle around the quad centre: the quad's vertex order can rotate between frames.
    const xs = near.map((s) => sortByAngle(s.rel)[k][0]).sort((a, b) => a - b);
    const ys = near.map((s) => sortByAngle(s.rel)[k][1]).sort((a, b) => a - b);
    return [xs[xs.length >> 1] + rim.cx, ys[ys.length >> 1] + rim.cy];
  });
  const c = courtHomography(quad, [rim.cx, rim.cy]);
  return c ? c.imageToWorld : null;
}

function nearestBall(ball: ReturnType<typeof buildBallTrack>, frame: number, within: number) {
  for (let d = 0; d <= within; d++) {
    const b = ball[frame - d] ?? ball[frame + d];
    if (b) return b;
  }
  return null;
}

function identityBoxAt(trackIds: number[], tracks: PlayerTrack[], frame: number, tolerance: number): Box | null {
  for (const id of trackIds) {
    const b = trackBoxAt(tracks.find((t) => t.id === id)!, frame, tolerance);
    if (b) return b;
  }
  return null;
}

function sortByAngle(q: Point[]): Point[] {
  const cx = q.reduce((a, p) => a + p[0], 0) / q.length, cy = q.reduce((a, p) => a + p[1], 0) / q.length;
  return [...q].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
}

/** A free throw starts from a still ball: its height barely changes in the seconds before release. */
function ballSteady(ball: ReturnType<typeof buildBallTrack>, release: number, frames: number, playerHeight: number): boolean {
  let lo = Infinity, hi = -Infinity, seen = 0;
  for (let f = Math.max(0, release - frames); f < release; f++) {
    const b = ball[f];
    if (!b) continue;
    seen++;
    lo = Math.min(lo, b.cy);
    hi = Math.max(hi, b.cy);
  }
  return seen >= frames * 0.6 && hi - lo < Math.max(3, playerHeight * 0.15);
}

function medianColor(cs: RGB[]): RGB {
  const med = (k: number) => cs.map((c) => c[k]).sort((a, b) => a - b)[cs.length >> 1];
  return [med(0), med(1), med(2)];
}

function normPoint(p: Point, lb: Letterbox): Point {
  return [(p[0] - lb.padX) / lb.innerWidth, (p[1] - lb.padY) / lb.innerHeight];
}
function normBox(b: Box, lb: Letterbox) {
  return { x: round4((b.cx - lb.padX) / lb.innerWidth), y: round4((b.cy - lb.padY) / lb.innerHeight), w: round4(b.w / lb.innerWidth), h: round4(b.h / lb.innerHeight) };
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const round4 = (x: number) => Math.round(x * 10000) / 10000;
const roundPt = (p: Point): Point => [round4(Math.max(0, Math.min(1, p[0]))), round4(Math.max(0, Math.min(1, p[1])))];

function parseKeyColor(v: unknown): KeyColorOptions {
  if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number")) return { color: v as [number, number, number], tolerance: DEFAULT_KEY_COLOR.tolerance };
  return DEFAULT_KEY_COLOR;
}

function throttle(fn?: (stage: string, percent: number) => void) {
  let last = 0, lastStage = "";
  return (stage: string, percent: number) => {
    if (!fn) return;
    const now = Date.now();
    if (stage === lastStage && now - last < 1000 && percent < 100) return;
    last = now;
    lastStage = stage;
    fn(stage, Math.round(percent));
  };
}

function* ballRows(perFrame: Detection[][], ball: ReturnType<typeof buildBallTrack>, fps: number, lb: Letterbox) {
  for (let f = 0; f < perFrame.length; f++) {
    const dets = perFrame[f].filter((d) => d.kind === "ball");
    const b = ball[f];
    if (!dets.length && !b) continue;
    yield { frame: f, t: round3(f / fps), track: b ? { ...normBox(b, lb), interpolated: !!b.interpolated } : null, detections: dets.map((d) => ({ ...normBox(d, lb), score: round3(d.score) })) };
  }
}

function* hoopRows(perFrame: Detection[][], hoops: HoopTrack[], fps: number, lb: Letterbox) {
  for (let f = 0; f < perFrame.length; f++) {
    const dets = perFrame[f].filter((d) => d.kind === "hoop");
    yield { frame: f, t: round3(f / fps), hoops: hoops.map((h) => ({ id: h.id, ...normBox(h.boxes[f], lb) })), detections: dets.map((d) => ({ ...normBox(d, lb), score: round3(d.score) })) };
  }
}

function* clusterRows(tracks: PlayerTrack[], teams: Map<number, 0 | 1 | null>, jerseys: Map<number, string | null>, reads: Map<number, Array<{ text: string; confidence: number }>>, trackToKey: Map<number, string>, centroids: [RGB, RGB], fps: number, lb: Letterbox) {
  yield { type: "teams", centroids: centroids.map((c) => c.map(Math.round)) };
  for (const t of tracks) {
    yield {
      type: "track",
      track: t.id,
      player: trackToKey.get(t.id) ?? null,
      team: teams.get(t.id) ?? null,
      color: medianColor(t.colors).map(Math.round),
      jersey: jerseys.get(t.id) ?? null,
      jersey_reads: (reads.get(t.id) ?? []).map((r) => ({ text: r.text, confidence: round3(r.confidence) })),
      start: round3(t.frames[0] / fps),
      end: round3(t.frames[t.frames.length - 1] / fps),
      frames: t.frames.length,
      // Sparse box samples (about two a second) so tools can match tracks to people over time.
      samples: t.frames.filter((_, i) => i % Math.max(1, Math.round(fps / 2)) === 0).map((f, i) => ({ t: round3(f / fps), ...normBox(t.boxes[i * Math.max(1, Math.round(fps / 2))], lb) })),
    };
  }
}

function* possessionRows(segments: PossessionSegment[], fps: number) {
  for (const s of segments) yield { type: "possession", start: round3(s.start / fps), end: round3(s.end / fps), player: s.track };
}

function* actionRows(segments: PossessionSegment[], shots: ShotResult[], fps: number) {
  const rows: Array<{ t: number; row: Record<string, unknown> }> = [];
  for (const s of segments) rows.push({ t: s.start / fps, row: { type: "possession", start: round3(s.start / fps), end: round3(s.end / fps), player: s.track } });
  for (const s of shots) {
    rows.push({ t: s.start_seconds, row: { type: "shot", shot: s.key, start: s.start_seconds, end: s.end_seconds, made: s.made, points: s.points, free_throw: s.is_free_throw, three_point: s.is_three_point, player: s.players.scorer } });
    if (s.players.assister) rows.push({ t: s.start_seconds - 0.001, row: { type: "assist", shot: s.key, player: s.players.assister } });
    if (s.players.rebounder) rows.push({ t: s.end_seconds, row: { type: "rebound", shot: s.key, player: s.players.rebounder } });
  }
  rows.sort((a, b) => a.t - b.t);
  for (const r of rows) yield r.row;
}
