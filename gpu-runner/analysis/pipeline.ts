// analyzeGame: an orchestrator of stage modules, in order —
//   observe   (observe/real-footage.ts with the trained CenterNet, or whole-frame/observe-frames.ts
//             with a YOLO-contract model: the only modules that read video)
//   hoops     (the observers' rim tracks; none → no_hoops)
//   shots     (rules/attempts.ts around each watched rim, or rules/shots.ts on the whole-frame ball path)
//   court     (whole-frame/court.ts finds the painted key when its colour is known; rules/geometry.ts
//             turns it into a homography; otherwise no world coordinates)
//   people    (rules/teams.ts, rules/players.ts: teams, identities, rosters; rules/possession.ts)
//   attribution (rules/attribution.ts: release, shooter, spot, facts, tags; rules/boxscore.ts: the one validity rule)
// and the result and raw artifacts. The folders are roles: observe/ reads video, rules/ is pure
// basketball logic over what was observed, whole-frame/ is the synthetic games' path.
// docs/analysis.md describes every stage.
import { mkdir } from "node:fs/promises";
import { shotPoints } from "../../contract/box-score.ts";
import { DEFAULT_SUBMIT_OPTIONS, type Roster, type SubmitOptions } from "../../contract/job-options.ts";
import { videoFrames } from "../media/decode.ts";
import type { VideoInfo } from "../media/probe.ts";
import { MediaError } from "../media/run.ts";
import { artifactPath, writeJsonl } from "../outputs/artifacts.ts";
import type { AnalysisModels } from "../vision/models.ts";
import { actionRows, ballRows, clusterRows, hoopRows, medianColor, normPoint, possessionRows, round3, roundPt } from "./artifact-rows.ts";
import { detectAttempts, type AttemptEvidence, type AttemptSettings } from "./rules/attempts.ts";
import { draftShots, tagShots, type ShooterEvidence } from "./rules/attribution.ts";
import { attributeAndScore } from "./rules/boxscore.ts";
import { DEFAULT_KEY_COLOR } from "./whole-frame/court.ts";
import { CLIP_AFTER_RIM_S, CLIP_BEFORE_RELEASE_S, excitementScore, isLowlight } from "./rules/excitement.ts";
import { worldNormed } from "./rules/geometry.ts";
import type { Observations } from "./observe/observations.ts";
import { observeWholeFrames } from "./whole-frame/observe-frames.ts";
import { applyRosters, buildIdentities, voteJersey } from "./rules/players.ts";
import { mergeSamePlayer, ownersPerFrame, possessionSegments } from "./rules/possession.ts";
import { RELEASE_DEFAULTS, type ReleaseSettings } from "./rules/flight.ts";
import type { CourtFreeFreeThrowSettings } from "./rules/free-throw.ts";
import { observeRealFootage, REAL_FOOTAGE_DEFAULTS, realFootageSettings, type RawRealObservations, type RealFootageOverrides } from "./observe/real-footage.ts";
import { fitHeightModel } from "./rules/release.ts";
import { detectShots, type ShotEvent } from "./rules/shots.ts";
import { clusterTeams, requireOpponent, sceneryTracks } from "./rules/teams.ts";
import { splitTrackSwitches } from "./rules/tracks.ts";
import { COURT_TEMPLATES, courtNormed } from "./rules/court-template.ts";
import { planCourtViews, type CourtViewingWhy, type PictureMotion } from "./rules/court-view.ts";
import type { AnalysisResult, HighlightResult, Point, ShotResult } from "./types.ts";

export const RUN_VERSION = 2;
/** Analysed frames a second with a whole-frame (YOLO-contract) detector. */
export const DEFAULT_ANALYSIS_FPS = 10;

/** Wall-clock split of one analysis, in milliseconds summed over frames (the benches print it). */
export interface RunTimings {
  decodeWaitMs: number;
  detectMs: number;
  ocrMs: number;
  courtMs: number;
  otherPerFrameMs: number;
  scanMs: number;
  watchMs: number;
  postMs: number;
  frames: number;
}

/** What a run found out about itself, for benches and debugging; never sent to the API. */
export interface AnalysisDiagnostics {
  timings: RunTimings;
  /** Why each shot got its shooter (bench/accuracy.ts --misses prints it). */
  shooterEvidence: ShooterEvidence[];
  /**
   * How the shots were placed on the registered court (rules/court-view.ts): the camera hint, the
   * views, why one view or the nearest was used, the pictures' measured motion, and how many
   * stretches the camera was followed over (a cut or a pan past the search begins a new one; null
   * for observations kept before the pictures' steps were measured); null when the court was not
   * looked for (a whole-frame detector) or the run failed before.
   */
  court: { camera_setup: string; views: number; why: CourtViewingWhy; one_view_s: number | null; view_spread_m: number | null; motion: Omit<PictureMotion, "steps"> | null; camera_stretches: number | null } | null;
}

/** The court pass's motion as the diagnostics report it: the summary, not every picture's step. */
function summariseMotion({ pictures, maxShiftShare, maxChangedShare }: PictureMotion): Omit<PictureMotion, "steps"> {
  return { pictures, maxShiftShare, maxChangedShare };
}

/** analyzeGame's answer: the result the job reports, and the run's diagnostics beside it. */
export interface AnalysisRun extends AnalysisResult {
  diagnostics: AnalysisDiagnostics;
}

function emptyDiagnostics(): AnalysisDiagnostics {
  return { timings: { decodeWaitMs: 0, detectMs: 0, ocrMs: 0, courtMs: 0, otherPerFrameMs: 0, scanMs: 0, watchMs: 0, postMs: 0, frames: 0 }, shooterEvidence: [], court: null };
}
/**
 * Settings for tests and benches, never a customer's: a claimed job has none, so a session always
 * runs with the defaults.
 */
export interface AnalysisSettings {
  /** Which detector to run (see chooseDetector), e.g. the synthetic fixture's. */
  detector?: string;
  /** Analysed frames a second (default: DEFAULT_ANALYSIS_FPS, or the real-footage default). */
  analysisFps?: number;
  /** The painted key's colour (RGB) for court calibration with a whole-frame detector. */
  keyColor?: [number, number, number];
  /** Real-footage stage settings over REAL_FOOTAGE_DEFAULTS (bench sweeps). */
  realFootage?: RealFootageOverrides;
  /** Attempt and make rules over ATTEMPT_DEFAULTS (bench sweeps). */
  attempts?: Partial<AttemptSettings>;
  /** The real-footage release rule over RELEASE_DEFAULTS (bench sweeps). */
  release?: Partial<ReleaseSettings>;
  /** The free-throw rule without a registered court over COURT_FREE_FREE_THROW_DEFAULTS (bench sweeps). */
  freeThrow?: Partial<CourtFreeFreeThrowSettings>;
}

export interface AnalyzeInput {
  videoPath: string;
  /** The video as the job probed and checked it (gpu-runner/job.ts, probeSource): analysis never probes. */
  video: VideoInfo;
  workDir: string;
  /** The models to run, opened once by the caller (a runner process, a test, a bench). */
  models: AnalysisModels;
  /** The customer's submit options (absent fields take the submit defaults). */
  options: Partial<SubmitOptions>;
  rosters?: Roster[];
  settings?: AnalysisSettings;
  signal?: AbortSignal;
  onProgress?: (stage: string, percent: number) => void;
}

export type AnalysisErrorCode = "no_shots" | "no_hoops" | "no_court" | "source_invalid" | "unknown";

export class AnalysisError extends Error {
  /** The failed run's diagnostics, when it got as far as observing. */
  diagnostics?: AnalysisDiagnostics;
  constructor(readonly code: AnalysisErrorCode, message: string) {
    super(message);
    this.name = "AnalysisError";
  }
}

/**
 * Whether to read jersey numbers (the submit options' rule): `enabled` always, `disabled` never,
 * `auto` when the players wear numbered jerseys (`has_jerseys`, default true).
 */
export function wantsJerseyNumbers(options: AnalyzeInput["options"]): boolean {
  const mode = options.jerseys ?? "auto";
  return mode === "enabled" || (mode === "auto" && options.has_jerseys !== false);
}

/**
 * Stage 1: observe the video with the chosen detector (see chooseDetector). Exported for the benches,
 * which keep real-footage observations and replay them through analyzeObservations.
 */
export async function observeVideo(input: AnalyzeInput, info: VideoInfo, tm: RunTimings = emptyDiagnostics().timings, progress: (stage: string, percent: number) => void = () => {}): Promise<Observations & { details?: RawRealObservations }> {
  const { models } = input;
  const choice = models.choose(info.height > info.width ? "portrait" : "landscape", input.settings?.detector);
  const reader = wantsJerseyNumbers(input.options) ? await models.jerseyReader() : null;
  try {
    if (choice.kind === "yolo") {
      // Inference runs on at most `settings.analysisFps` frames a second (default 10): a shot's flight still
      // spans 8+ samples and a dribble 5, which the shot and dribble logic need, and it cuts the
      // per-frame work to a third on 30 fps video (10 and 15 scored alike on the synthetic games).
      const analysisFps = input.settings?.analysisFps ?? DEFAULT_ANALYSIS_FPS;
      const fps = analysisFps > 0 && analysisFps < info.fps - 0.5 ? analysisFps : info.fps;
      const detector = await models.yoloDetector(choice.modelPath);
      return await observeWholeFrames(videoFrames(input.videoPath, info), info, detector, reader, {
        fps,
        keyColor: input.settings?.keyColor ? { color: input.settings.keyColor, tolerance: DEFAULT_KEY_COLOR.tolerance } : DEFAULT_KEY_COLOR,
        signal: input.signal,
        timings: tm,
        onFrame: (f, expected) => f % 15 === 0 && progress("analyze", Math.min(99, (100 * f) / expected)),
      });
    }
    const model = await models.basketball();
    const fps = Math.min(input.settings?.analysisFps ?? REAL_FOOTAGE_DEFAULTS.fps, info.fps);
    const obs = await observeRealFootage(input.videoPath, info, model, reader, await models.courtLines(), {
      ...realFootageSettings(input.settings?.realFootage),
      fps,
      camera: input.options.camera_setup ?? DEFAULT_SUBMIT_OPTIONS.camera_setup,
      signal: input.signal,
      onProgress: (fraction) => progress("analyze", Math.min(99, 100 * fraction)),
    });
    tm.scanMs = obs.details.timings.scanMs;
    tm.watchMs = obs.details.timings.watchMs;
    tm.frames = obs.frames;
    return obs;
  } catch (e) {
    if (input.signal?.aborted) throw e;
    if (e instanceof MediaError) throw new AnalysisError("source_invalid", e.message);
    throw e;
  }
}

interface FoundShot extends ShotEvent {
  evidence: AttemptEvidence | null;
}

/**
 * Stage 3: shots. Around a watched rim, attempts come from the ball's arrival at the ring and makes
 * from its passage through it (attempts.ts); with a whole-frame detector, from the ball path over
 * the whole picture (shots.ts). A ball seen arriving at two rims at once (a second rim in the
 * background behind the first) is one shot, at the rim it came closer to.
 */
function findShots(obs: Observations, attempts?: Partial<AttemptSettings>): FoundShot[] {
  if (!obs.rimWatch) return detectShots(obs.ball, obs.rims, { fps: obs.fps }).map((e) => ({ ...e, evidence: null }));
  const all: FoundShot[] = obs.rims.flatMap((rim, k) =>
    // The rim's watch covers its own frames, from `rim.from` on (tracks.ts, hoopBoxAt).
    detectAttempts(obs.rimWatch![k].ball, rim.boxes, rim.id, { fps: obs.fps, netMotion: obs.rimWatch![k].netMotion, settings: attempts }).map((a) => ({
      hoop: a.rim,
      rimFrame: a.rimFrame + (rim.from ?? 0),
      endFrame: a.endFrame + (rim.from ?? 0),
      made: a.made,
      evidence: a.evidence,
    })),
  );
  all.sort((a, b) => (a.evidence?.closest ?? 0) - (b.evidence?.closest ?? 0));
  const kept: FoundShot[] = [];
  for (const s of all) if (!kept.some((k) => Math.abs(k.rimFrame - s.rimFrame) <= obs.fps * 0.7)) kept.push(s);
  return kept.sort((a, b) => a.rimFrame - b.rimFrame);
}

export async function analyzeGame(input: AnalyzeInput): Promise<AnalysisRun> {
  const progress = throttle(input.onProgress);
  const info = input.video;
  const diagnostics = emptyDiagnostics();
  await mkdir(input.workDir, { recursive: true });
  progress("analyze", 0);
  try {
    const obs = await observeVideo(input, info, diagnostics.timings, progress);
    // The raw observations are for benches that keep them (bench/realclips.ts); the rules read the
    // assembled ones. Not held through the rules: on a long video they are most of the memory.
    delete obs.details;
    if (obs.frames === 0) throw new AnalysisError("source_invalid", "no frames could be decoded");
    progress("analyze", 100);
    return await analyzeObservations(input, info, obs, diagnostics);
  } catch (e) {
    if (e instanceof AnalysisError) e.diagnostics = diagnostics;
    throw e;
  }
}

/**
 * Everything after the observation: people, hoops, shots, court, attribution, the result and the
 * artifacts. Separate so that benches can replay cached observations through the same logic.
 */
export async function analyzeObservations(input: Pick<AnalyzeInput, "workDir" | "rosters" | "settings"> & { options?: AnalyzeInput["options"] }, info: VideoInfo, obs: Observations, diagnostics = emptyDiagnostics()): Promise<AnalysisRun> {
  await mkdir(input.workDir, { recursive: true });
  const { fps, frames: n, frame: lb, ball } = obs;
  // A track that switched from a person to something else (a fixture inside his box) is two tracks.
  const tracks = splitTrackSwitches(obs.tracks, fps);
  const postStart = performance.now();

  // People: teams, identities, rosters, possession.
  const ownerTracks = ownersPerFrame(ball, tracks);
  // Scenery the detector took for a person (still, not holding the ball, beside someone playing) is nobody: no team, no identity.
  const scenery = sceneryTracks(tracks, ownerTracks, fps);
  const people = tracks.filter((t) => !scenery.has(t.id));
  const longTracks = people.filter((t) => t.frames.length >= 3);
  const clustering = requireOpponent(clusterTeams(longTracks.map((t) => medianColor(t.colors)), longTracks.map((t) => t.frames.length)), longTracks.map((t) => t.frames), fps);
  const trackTeams = new Map<number, 0 | 1 | null>(tracks.map((t) => [t.id, null]));
  longTracks.forEach((t, i) => trackTeams.set(t.id, clustering.labels[i]));
  const trackJerseys = new Map<number, string | null>(tracks.map((t) => [t.id, voteJersey(obs.jerseyReads.get(t.id) ?? [])]));
  const { identities, trackToKey } = buildIdentities(people, trackTeams, trackJerseys, { fps, solo: input.options?.session_type === "solo" });
  applyRosters(identities, input.rosters);
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
  await writeJsonl(artifacts.balls, ballRows(obs.perFrame, ball, fps, lb));
  await writeJsonl(artifacts.hoops, hoopRows(obs.perFrame, obs.rims, fps, lb));
  await writeJsonl(artifacts.clusters, clusterRows(tracks, trackTeams, trackJerseys, obs.jerseyReads, trackToKey, clustering.centroids, fps, lb));

  if (obs.rims.length === 0) throw new AnalysisError("no_hoops", "no basketball hoop was found in the video");
  // Court: calibrated when the painted key was seen often enough; otherwise shots keep no world coordinates.
  const keyEvery = Math.max(1, Math.round(fps / 3));
  const courtCalibrated = obs.keySamples.length >= Math.max(2, 0.1 * (n / keyEvery));
  const events = findShots(obs, input.settings?.attempts);
  const segments = mergeSamePlayer(rawSegments, Math.round(fps * 3), events.map((e) => e.rimFrame));
  if (events.length === 0) {
    await writeJsonl(artifacts.actions, possessionRows(segments, fps));
    // No court at all: a hoop but never anyone on a floor to shoot at it (a product photo, a hoop on a wall).
    const anyoneOnFloor = tracks.some((t) => t.frames.length >= 3);
    if (!anyoneOnFloor && !courtCalibrated && !ball.some((b) => b && !b.interpolated)) throw new AnalysisError("no_court", "a hoop is in view but no court: no player or ball was seen");
    throw new AnalysisError("no_shots", "no shot attempts were detected");
  }

  // Which registered view places each shot: one for a fixed camera whose pictures stayed put, else the nearest (rules/court-view.ts).
  const court = obs.courtViews ? planCourtViews(obs.courtViews, input.options?.camera_setup ?? DEFAULT_SUBMIT_OPTIONS.camera_setup, obs.courtMotion) : null;
  diagnostics.court = court && { camera_setup: input.options?.camera_setup ?? DEFAULT_SUBMIT_OPTIONS.camera_setup, views: court.views.length, why: court.why, one_view_s: court.oneView ? round3(court.oneView.frame / fps) : null, view_spread_m: court.viewSpreadM, motion: obs.courtMotion ? summariseMotion(obs.courtMotion) : null, camera_stretches: court.path ? new Set(court.path.map((p) => p.stretch)).size : null };
  // A shot's `evidence.court_view` in actions.jsonl: the picture (s) whose view placed it, and why that one.
  const courtViewEvidence = (frame: number | null) => (frame === null || !court ? null : { s: round3(frame / fps), why: court.why });
  const attributionInput = {
    fps,
    frames: n,
    events,
    ball,
    rims: obs.rims,
    tracks,
    identities,
    owners,
    segments,
    heightModel: fitHeightModel(tracks),
    keySamples: courtCalibrated ? obs.keySamples : null,
    court,
    picture: { width: info.width, height: info.height, scale: lb.scale, padX: lb.padX, padY: lb.padY, lensMm: info.lens35mm ?? null },
    evidence: diagnostics.shooterEvidence,
    // Real footage sees the ball in pieces (the rim's region, the scan a few times a second): the
    // release comes from the flight's fit, not from an unbroken run of sightings.
    release: obs.rimWatch ? { ...RELEASE_DEFAULTS, ...input.settings?.release } : undefined,
    freeThrow: input.settings?.freeThrow,
  };
  const drafts = draftShots(attributionInput);
  const tags = tagShots(attributionInput, drafts);
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
    const made = d.made;
    shots.push({
      key: shotKey,
      index: i,
      start_seconds: round3(d.release / fps),
      end_seconds: round3(Math.min(duration, d.ev.endFrame / fps + 0.5)),
      made,
      points: shotPoints({ made, is_free_throw: d.is_free_throw, is_three_point: d.is_three_point }),
      type: d.is_free_throw ? "freethrow" : "fieldgoal",
      is_three_point: d.is_three_point,
      is_free_throw: d.is_free_throw,
      is_fouled: fouled[i],
      location: {
        shot_image_normed: d.feet ? roundPt(toNorm(d.feet)) : null,
        shot_world_normed: d.world ? roundPt(d.courtType ? courtNormed(COURT_TEMPLATES[d.courtType], d.world) : worldNormed(d.world)) : null,
        hoop_image_normed: roundPt(toNorm([d.hoopBox.cx, d.hoopBox.cy])),
      },
      // A court registered from its lines is the type it was fitted as; the painted-key court is FIBA geometry (rules/geometry.ts).
      court: d.world ? { type: d.courtType ?? "fiba", found_by: d.courtType ? "lines" : "painted_key" } : null,
      excitement_score: excitementScore({ made, is_free_throw: d.is_free_throw, is_three_point: d.is_three_point, is_fouled: fouled[i], assisted: players.assister !== null, distance_m: d.distance }),
      players,
      highlight: hlKey,
    });
    highlights.push({ key: hlKey, shot: shotKey, shot_index: i, start_seconds: round3(start), length_seconds: round3(end - start), is_lowlight: isLowlight(made), is_manual: false, player: players.scorer });
  });

  await writeJsonl(artifacts.actions, actionRows(segments, shots, fps, events.map((e, i) => ({ rim: e.rimFrame / fps, evidence: { ...e.evidence, court: drafts[i].courtType, court_view: courtViewEvidence(drafts[i].courtViewFrame), free_throw: drafts[i].freeThrow } }))));

  diagnostics.timings.postMs = performance.now() - postStart;
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
    diagnostics,
  };
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
