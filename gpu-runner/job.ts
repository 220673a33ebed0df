// The work of one job: download → probe and check → analysis (shots,
// players, highlights, artifacts) → session renditions → resumable uploads →
// complete. Failures become the spec's `error.code` values.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { ClaimedJob, RunnerApi } from "./api";
import { downloadSource, DownloadError } from "./download";
import type { Logger } from "./log";
import type { MediaHardware } from "./media/hardware";
import { probe, type VideoInfo } from "./media/probe";
import { MediaError } from "./media/run";
import { renderSessionRenditions } from "./outputs/renditions";
import { uploadOutput, type OutputFile } from "./outputs/upload";

/** Spec limit: at most 1920×1080 in either orientation. */
export const MAX_LONG_SIDE = 1920;
export const MAX_SHORT_SIDE = 1080;

export type Pipeline = "full" | "media";

export type SessionErrorCode = "no_shots" | "no_hoops" | "no_court" | "video_too_large" | "source_invalid" | "source_unavailable" | "timeout" | "unknown";

export class JobFailure extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
  ) {
    super(message);
  }
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
  progress(stage: string, percent: number): void;
}

export function checkResolution(info: Pick<VideoInfo, "width" | "height">): void {
  const long = Math.max(info.width, info.height);
  const short = Math.min(info.width, info.height);
  if (long > MAX_LONG_SIDE || short > MAX_SHORT_SIDE) {
    throw new JobFailure("video_too_large", `The video is ${info.width}×${info.height}; the limit is 1920×1080 in either orientation.`);
  }
}

interface AnalysisOutputs {
  result: {
    run_version: number;
    shots: unknown[];
    highlights: unknown[];
    players: unknown[];
    artifacts: { actions: string | null; balls: string | null; hoops: string | null; clusters: string | null };
  };
  files: OutputFile[];
}

const HIGHLIGHT_RENDITIONS = ["default", "horizontal", "1080p", "720p", "480p", "360p", "240p", "144p"] as const;

/** Runs the analysis pipeline and renders highlight clips, naming their output files. */
async function analyze(ctx: JobContext, source: string): Promise<AnalysisOutputs> {
  const { analyzeGame, AnalysisError } = await import("./analysis/pipeline");
  const { renderHighlights } = await import("./outputs/highlights");
  let analysis;
  try {
    analysis = await analyzeGame({
      videoPath: source,
      workDir: ctx.workDir,
      options: ctx.job.options as never,
      rosters: (ctx.job.rosters ?? undefined) as never,
      signal: ctx.signal,
      onProgress: (stage, percent) => ctx.progress(stage, 20 + percent * 0.5),
    });
  } catch (err) {
    if (err instanceof AnalysisError) throw new JobFailure(err.code, err.message);
    throw err;
  }
  ctx.progress("highlights", 70);
  const rendered = await renderHighlights(source, analysis, ctx.workDir, { signal: ctx.signal } as never);
  const files: OutputFile[] = [];
  const byKey = new Map(rendered.map((r) => [r.key, r]));
  const highlights = analysis.highlights.map((h) => {
    const r = byKey.get(h.key);
    const video = Object.fromEntries(
      HIGHLIGHT_RENDITIONS.map((name) => {
        const file = r?.files[name] ?? null;
        if (!file) return [name, null];
        const outName = `highlights/${h.key}/${name}.mp4`;
        files.push({ name: outName, path: file, contentType: "video/mp4" });
        return [name, outName];
      }),
    );
    const preview = Object.fromEntries(
      (["default", "horizontal"] as const).map((name) => {
        const file = r?.preview[name] ?? null;
        if (!file) return [name, null];
        const outName = `highlights/${h.key}/preview-${name}.jpg`;
        files.push({ name: outName, path: file, contentType: "image/jpeg" });
        return [name, outName];
      }),
    );
    return { ...h, video, preview };
  });
  const artifacts = Object.fromEntries(
    (["actions", "balls", "hoops", "clusters"] as const).map((kind) => {
      const file = analysis.artifacts[kind];
      if (!file) return [kind, null];
      files.push({ name: `artifacts/${kind}.jsonl`, path: file, contentType: "application/x-ndjson" });
      return [kind, `artifacts/${kind}.jsonl`];
    }),
  ) as AnalysisOutputs["result"]["artifacts"];
  return {
    result: { run_version: analysis.run_version, shots: analysis.shots, highlights, players: analysis.players, artifacts },
    files,
  };
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
      signal: ctx.signal,
      onProgress: (bytes, total) => {
        const pct = total ? Math.floor((bytes / total) * 20) : 0;
        if (pct !== lastPct) ctx.progress("download", (lastPct = pct));
      },
    });
  } catch (err) {
    if (err instanceof DownloadError) throw new JobFailure(err.code, err.message);
    throw err;
  }

  ctx.progress("probe", 20);
  let info: VideoInfo;
  try {
    info = await probe(source, ctx.signal);
  } catch (err) {
    if (err instanceof MediaError && !ctx.signal.aborted) throw new JobFailure("source_invalid", `The file is not a readable video: ${err.message}`);
    throw err;
  }
  if (!(info.durationSeconds > 0)) throw new JobFailure("source_invalid", "The video has no measurable duration.");
  checkResolution(info);
  ctx.log.info("probed", { width: info.width, height: info.height, fps: info.fps, duration_seconds: info.durationSeconds, codec: info.codec });

  const analysis: AnalysisOutputs =
    ctx.pipeline === "full"
      ? await analyze(ctx, source)
      : { result: { run_version: 0, shots: [], highlights: [], players: [], artifacts: { actions: null, balls: null, hoops: null, clusters: null } }, files: [] };

  ctx.progress("renditions", 75);
  const renditions = await renderSessionRenditions(source, info, ctx.workDir, ctx.hw, ctx.signal);

  const files = [...renditions.files, ...analysis.files];
  for (const [i, file] of files.entries()) {
    ctx.progress("upload", 85 + Math.floor((i / files.length) * 14));
    await uploadOutput(api, job.id, job.lease.id, file, ctx.signal);
  }

  ctx.progress("complete", 99);
  await api.complete(job.id, job.lease.id, {
    run_version: analysis.result.run_version,
    video: { duration_seconds: info.durationSeconds, width: info.width, height: info.height, fps: info.fps, ...renditions.video },
    artifacts: analysis.result.artifacts,
    shots: analysis.result.shots,
    highlights: analysis.result.highlights,
    players: analysis.result.players,
  });
}

export async function cleanWorkDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
