// Highlight clips: one ffmpeg run per clip, input-seeked to the clip start (so only the clip and
// at most one GOP before it are decoded — never the whole video again), split into every rendition
// plus the two preview stills in the same pass.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { AnalysisResult } from "../analysis/types.ts";
import { FFMPEG } from "../media/binaries.ts";
import { runTool } from "../media/run.ts";

export const RENDITION_HEIGHTS = { "1080p": 1080, "720p": 720, "480p": 480, "360p": 360, "240p": 240, "144p": 144 } as const;
export type SizedRendition = keyof typeof RENDITION_HEIGHTS;
export type RenditionName = "default" | "horizontal" | SizedRendition;

export interface RenderedHighlight {
  key: string;
  files: Record<RenditionName, string | null>;
  preview: { default: string | null; horizontal: string | null };
}

export interface RenderHighlightsOptions {
  signal?: AbortSignal;
  /** x264 preset; veryfast by default (clips are short, upload size matters more than encode time). */
  preset?: string;
  crf?: number;
  /** Render only these highlight keys (all by default). */
  only?: string[];
  onClip?: (key: string, index: number, total: number) => void;
}

const even = (x: number) => Math.max(2, Math.round(x / 2) * 2);

/**
 * Crop position (left edge, in source pixels) over clip time as an ffmpeg expression of `t`: the
 * ball's x, sampled every half second, smoothed, clamped so the window stays inside the frame, and
 * interpolated linearly between samples.
 */
export function followExpression(ballPath: Array<[number, number, number]>, start: number, length: number, frameSize: number, window: number, axis: 0 | 1): string {
  const step = 0.5;
  const n = Math.max(2, Math.ceil(length / step) + 1);
  const raw: Array<number | null> = [];
  for (let i = 0; i < n; i++) {
    const t = start + i * step;
    const near = ballPath.filter((p) => Math.abs(p[0] - t) <= step).map((p) => p[1 + axis]);
    raw.push(near.length ? near.sort((a, b) => a - b)[near.length >> 1] : null);
  }
  // Carry the last known position through gaps (forward, then backward for a leading gap).
  let last: number | null = null;
  for (let i = 0; i < n; i++) raw[i] = raw[i] ?? last, last = raw[i];
  last = null;
  for (let i = n - 1; i >= 0; i--) raw[i] = raw[i] ?? last, last = raw[i];
  const centre = raw.map((v) => v ?? 0.5);
  const smooth = centre.map((_, i) => {
    const w = centre.slice(Math.max(0, i - 1), i + 2);
    return w.reduce((a, b) => a + b, 0) / w.length;
  });
  const pos = smooth.map((c) => Math.round(Math.max(0, Math.min(frameSize - window, c * frameSize - window / 2))));
  let expr = String(pos[n - 1]);
  for (let i = n - 2; i >= 0; i--) {
    const t0 = (i * step).toFixed(2), t1 = ((i + 1) * step).toFixed(2);
    expr = `if(lt(t,${t1}),${pos[i]}+(${pos[i + 1] - pos[i]})*(t-${t0})/${step},${expr})`;
  }
  return expr;
}

export async function renderHighlights(videoPath: string, analysis: AnalysisResult, workDir: string, opts: RenderHighlightsOptions = {}): Promise<RenderedHighlight[]> {
  const { width: W, height: H } = analysis.video;
  const landscape = W >= H;
  const short = Math.min(W, H);
  const out: RenderedHighlight[] = [];
  const list = analysis.highlights.filter((h) => !opts.only || opts.only.includes(h.key));
  for (const [i, h] of list.entries()) {
    if (opts.signal?.aborted) throw new Error("aborted");
    opts.onClip?.(h.key, i, list.length);
    const shot = analysis.shots.find((s) => s.key === h.shot);
    const release = shot ? shot.start_seconds : h.start_seconds + h.length_seconds / 2;
    const dir = path.join(workDir, "highlights", h.key);
    await mkdir(dir, { recursive: true });
    const files: Record<RenditionName, string | null> = { default: null, horizontal: null, "1080p": null, "720p": null, "480p": null, "360p": null, "240p": null, "144p": null };
    const graph: string[] = [];
    const outputs: string[][] = [];
    const branches: Array<{ label: string; filter: string }> = [];
    const enc = ["-c:v", "libx264", "-preset", opts.preset ?? "veryfast", "-crf", String(opts.crf ?? 23), "-pix_fmt", "yuv420p", "-movflags", "+faststart"];

    // default: vertical 9:16 that follows the ball (landscape), or the frame itself (portrait).
    let verticalFilter: string;
    let horizontalFilter: string;
    if (landscape) {
      const cw = Math.min(W, even((H * 9) / 16));
      verticalFilter = `crop=${cw}:${H}:x='${followExpression(analysis.ball_path, h.start_seconds, h.length_seconds, W, cw, 0)}':y=0`;
      const hh = Math.min(H, even((W * 9) / 16));
      const target = Math.min(hh, 720);
      horizontalFilter = `crop=${W}:${hh}:0:${(H - hh) >> 1},scale=${even((W * target) / hh)}:${target}`;
    } else {
      const target = Math.min(W, 720);
      verticalFilter = `scale=${target}:${even((H * target) / W)}`;
      const ch = Math.min(H, even((W * 9) / 16));
      horizontalFilter = `crop=${W}:${ch}:x=0:y='${followExpression(analysis.ball_path, h.start_seconds, h.length_seconds, H, ch, 1)}',scale=${even(Math.min(W, 1280))}:${even((Math.min(W, 1280) * ch) / W)}`;
    }
    branches.push({ label: "vdef", filter: verticalFilter });
    outputs.push(["-map", "[vdef]", "-map", "0:a?", ...enc, "-c:a", "aac", "-b:a", "96k", (files.default = path.join(dir, "default.mp4"))]);
    branches.push({ label: "vhor", filter: horizontalFilter });
    outputs.push(["-map", "[vhor]", "-map", "0:a?", ...enc, "-c:a", "aac", "-b:a", "96k", (files.horizontal = path.join(dir, "horizontal.mp4"))]);
    // Sized renditions keep the source aspect; the short side names the size; never upscaled.
    for (const [name, p] of Object.entries(RENDITION_HEIGHTS) as Array<[SizedRendition, number]>) {
      if (short < p) continue;
      const scale = landscape ? `scale=${even((W * p) / H)}:${p}` : `scale=${p}:${even((H * p) / W)}`;
      branches.push({ label: `v${name}`, filter: scale });
      outputs.push(["-map", `[v${name}]`, "-map", "0:a?", ...enc, "-c:a", "aac", "-b:a", "96k", (files[name] = path.join(dir, `${name}.mp4`))]);
    }
    // Preview stills at the release, from the same decode (output-side seek).
    const previewAt = Math.max(0, Math.min(h.length_seconds - 0.05, release - h.start_seconds)).toFixed(3);
    const preview = { default: path.join(dir, "preview-default.jpg"), horizontal: path.join(dir, "preview-horizontal.jpg") };
    branches.push({ label: "pdef", filter: verticalFilter });
    outputs.push(["-map", "[pdef]", "-ss", previewAt, "-frames:v", "1", "-q:v", "3", preview.default]);
    branches.push({ label: "phor", filter: horizontalFilter });
    outputs.push(["-map", "[phor]", "-ss", previewAt, "-frames:v", "1", "-q:v", "3", preview.horizontal]);

    graph.push(`[0:v]split=${branches.length}${branches.map((b) => `[s${b.label}]`).join("")}`);
    for (const b of branches) graph.push(`[s${b.label}]${b.filter}[${b.label}]`);
    await runTool(
      FFMPEG,
      ["-v", "error", "-y", "-nostdin", "-ss", h.start_seconds.toFixed(3), "-t", h.length_seconds.toFixed(3), "-i", videoPath, "-filter_complex", graph.join(";"), ...outputs.flat()],
      opts.signal,
    );
    out.push({ key: h.key, files, preview });
  }
  return out;
}
