// The work of one job: download → probe and check → measured (the hold becomes the measured cost,
// or the API stops the job) → analysis (shots, players, highlights, artifacts) → session
// renditions → resumable uploads → complete. Failures become the spec's `error.code` values.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { FAILURE_MESSAGES, resolutionTooLargeMessage } from "../contract/failure-messages";
import { MAX_VIDEO_LONG_SIDE, MAX_VIDEO_SHORT_SIDE, type JobResultInput, type SessionErrorCode } from "../contract/runner-api";
import type { HostResolver } from "../contract/url-policy";
import type { AnalysisError } from "./analysis/pipeline";
import { ApiRequestError, FatalRunnerError, LeaseLostError, sleep, type ClaimedJob, type RunnerApi } from "./api";
import { downloadSource, DownloadError } from "./download";
import { HostFaultError } from "./host-fault";
import type { Logger } from "./log";
import type { MediaHardware } from "./media/hardware";
import { probe, type VideoInfo } from "./media/probe";
import { MediaError } from "./media/run";
import { renderSessionRenditions } from "./outputs/renditions";
import { uploadOutput } from "./outputs/upload";
import { analysisOutputs, jobResult, NO_ANALYSIS, type AnalysisOutputs } from "./result";
import type { AnalysisModels } from "./vision/models";

export type Pipeline = "full" | "media";

/**
 * A job that ends `failed`. `message` is what the customer reads on the session's `error.message`:
 * a short sentence with no file paths, stack traces, tool output or internal host names. Those go
 * into `detail`, which only the runner's log shows (under the job id).
 */
export class JobFailure extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * The API has ended the job itself and wants nothing more reported: after the measured step, the
 * balance could not cover the measured cost, so the session has already failed (hold voided,
 * nothing charged).
 */
export class JobStopped extends Error {}

/** The analysis gave up: the customer reads the code's sentence (contract/failure-messages.ts); its own message is logged only. */
export function analysisFailure(err: AnalysisError): JobFailure {
  return new JobFailure(err.code, FAILURE_MESSAGES[err.code], err.message);
}

export interface JobContext {
  job: ClaimedJob;
  api: RunnerApi;
  workDir: string;
  log: Logger;
  signal: AbortSignal;
  hw: MediaHardware;
  pipeline: Pipeline;
  apiOrigin: string;
  allowLoopbackUrls: boolean;
  /** Resolves the hosts of external source links (the URL policy's lookups). */
  resolver?: HostResolver;
  /** The analysis models, opened once per runner process. */
  models: AnalysisModels;
  progress(stage: string, percent: number): void;
}

export function checkResolution(info: Pick<VideoInfo, "width" | "height">): void {
  const long = Math.max(info.width, info.height);
  const short = Math.min(info.width, info.height);
  if (long > MAX_VIDEO_LONG_SIDE || short > MAX_VIDEO_SHORT_SIDE) throw new JobFailure("video_too_large", resolutionTooLargeMessage(info.width, info.height));
}

/**
 * Probes the downloaded source once and checks it against the spec's limits; the VideoInfo is what
 * the analysis and the renditions work from. Fails `source_invalid` or `video_too_large`.
 */
export async function probeSource(source: string, signal: AbortSignal): Promise<VideoInfo> {
  let info: VideoInfo;
  try {
    info = await probe(source, signal);
  } catch (err) {
    if (err instanceof MediaError && !signal.aborted && !(err instanceof HostFaultError)) {
      throw new JobFailure("source_invalid", FAILURE_MESSAGES.source_invalid, err.message);
    }
    throw err;
  }
  if (!(info.durationSeconds > 0)) throw new JobFailure("source_invalid", "The video has no measurable duration.");
  if (!(info.width > 0 && info.height > 0 && info.fps > 0)) throw new JobFailure("source_invalid", FAILURE_MESSAGES.source_invalid, "the video stream has no frames");
  checkResolution(info);
  return info;
}

/** Runs the analysis pipeline and renders highlight clips, naming their output files. */
async function analyze(ctx: JobContext, source: string, video: VideoInfo): Promise<AnalysisOutputs> {
  const { analyzeGame, AnalysisError } = await import("./analysis/pipeline");
  const { renderHighlights } = await import("./outputs/highlights");
  let analysis;
  try {
    analysis = await analyzeGame({
      videoPath: source,
      video,
      workDir: ctx.workDir,
      models: ctx.models,
      options: ctx.job.options,
      rosters: ctx.job.rosters ?? undefined,
      signal: ctx.signal,
      onProgress: (stage, percent) => ctx.progress(stage, 20 + percent * 0.5),
    });
  } catch (err) {
    if (err instanceof AnalysisError) throw analysisFailure(err);
    throw err;
  }
  ctx.progress("highlights", 70);
  const rendered = await renderHighlights(source, analysis, ctx.workDir, { signal: ctx.signal } as never);
  return analysisOutputs(analysis, rendered);
}

/** Runs one job to a reported outcome; throws JobFailure (or anything else → `unknown`). */
export async function runJob(ctx: JobContext): Promise<void> {
  const { job, api } = ctx;
  await mkdir(ctx.workDir, { recursive: true });
  const source = path.join(ctx.workDir, "source.video");

  ctx.progress("download", 0);
  let lastPct = -1;
  try {
    await downloadSource(job.source.download_url, source, {
      apiOrigin: ctx.apiOrigin,
      allowLoopback: ctx.allowLoopbackUrls,
      resolver: ctx.resolver,
      signal: ctx.signal,
      onProgress: (bytes, total) => {
        const pct = total ? Math.floor((bytes / total) * 20) : 0;
        if (pct !== lastPct) ctx.progress("download", (lastPct = pct));
      },
    });
  } catch (err) {
    if (err instanceof DownloadError) throw new JobFailure(err.code, err.message, err.detail);
    throw err;
  }

  ctx.progress("probe", 20);
  const info = await probeSource(source, ctx.signal);
  ctx.log.info("probed", { width: info.width, height: info.height, fps: info.fps, duration_seconds: info.durationSeconds, codec: info.codec });

  // Before any work: the hold becomes the measured cost, or the API fails the session and says stop.
  await reportMeasured(api, job, info.durationSeconds, ctx.log);

  const analysis = ctx.pipeline === "full" ? await analyze(ctx, source, info) : NO_ANALYSIS;

  ctx.progress("renditions", 75);
  const renditions = await renderSessionRenditions(source, info, ctx.workDir, ctx.hw, ctx.signal);

  const files = [...renditions.files, ...analysis.files];
  for (const [i, file] of files.entries()) {
    ctx.progress("upload", 85 + Math.floor((i / files.length) * 14));
    await uploadOutput(api, job.id, job.lease.id, file, ctx.signal);
  }

  ctx.progress("complete", 99);
  await reportCompletion(api, job, jobResult(info, renditions.video, analysis), ctx.log, ctx.signal);
}

/**
 * The measured step. Throws JobStopped when the API says stop (it has failed the session). An API
 * older than the step answers `404 route_not_found`: the job goes on as before the step existed
 * (its settle is the API's own business), so runners can be upgraded before the API.
 */
export async function reportMeasured(api: Pick<RunnerApi, "measured">, job: ClaimedJob, durationSeconds: number, log: Pick<Logger, "warn">): Promise<void> {
  let answer;
  try {
    answer = await api.measured(job.id, job.lease.id, durationSeconds);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404 && err.code === "route_not_found") {
      log.warn("the API has no measured step (an older version); going on without it");
      return;
    }
    throw err;
  }
  if (!answer.proceed) throw new JobStopped(`the balance does not cover the measured cost (${answer.needed_cents} cents); the API failed the session`);
}

/** The API could not be told of a finished result in time: the job is handed back, not failed. */
export class CompletionNotReported extends Error {}

/** How long a finished result is worth retrying its report for (the heartbeat keeps the lease meanwhile). */
export const COMPLETE_PATIENCE_MS = 15 * 60_000;

/**
 * Reports a finished result. The API client already retries a few times over half a minute; past
 * that, an outage of the API would otherwise turn finished work into a failed session, so this
 * keeps trying for minutes while the heartbeat loop holds the lease. Refusals (4xx, lease lost,
 * revoked token) are not retried. If the API stays away, the job is handed back (see loop.ts).
 */
export async function reportCompletion(
  api: Pick<RunnerApi, "complete">,
  job: ClaimedJob,
  result: JobResultInput,
  log: Pick<Logger, "warn">,
  signal: AbortSignal,
  patienceMs = COMPLETE_PATIENCE_MS,
  pauseMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    try {
      await api.complete(job.id, job.lease.id, result);
      return;
    } catch (err) {
      const refused = err instanceof FatalRunnerError || err instanceof LeaseLostError || (err instanceof ApiRequestError && err.status < 500 && err.status !== 429);
      if (refused || signal.aborted) throw err;
      if (Date.now() >= deadline) throw new CompletionNotReported(`the API did not accept the result for ${Math.round(patienceMs / 60_000)} minutes: ${(err as Error).message}`);
      log.warn("could not report the finished result; retrying", { error: (err as Error).message });
      await sleep(pauseMs * (0.5 + Math.random()), signal);
    }
  }
}

export async function cleanWorkDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
