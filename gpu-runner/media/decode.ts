import { spawn } from "node:child_process";
import { FFMPEG } from "./binaries.ts";
import { HostFaultError, toolHostFault } from "../host-fault.ts";
import { letterboxFor, type Frame, type FrameSource, type RegionOptions, type TimeRange, type WholeFrameOptions } from "./frames.ts";
import type { VideoInfo } from "./probe.ts";
import { killGracefully, MEDIA_SPAWN_OPTIONS, MediaError } from "./run.ts";

/** A video file's frames, decoded by ffmpeg on demand (one ffmpeg per pass), for the observation passes (media/frames.ts). */
export function videoFrames(path: string, { width, height, fps }: Pick<VideoInfo, "width" | "height" | "fps">): FrameSource {
  return {
    width,
    height,
    fps,
    wholeFrames: (options) => decodeFrames(path, width, height, options),
    regionFrames: (options) => decodeRegion(path, width, height, options),
  };
}

/**
 * ffmpeg input options for a stretch: seeking before `-i` decodes from the keyframe before `startS`
 * and drops frames until it (exact, and the output's clock starts at 0 there), then reads `durationS`.
 */
function rangeArgs(range: TimeRange | undefined): string[] {
  return range ? ["-ss", range.startS.toFixed(6), "-t", range.durationS.toFixed(6)] : [];
}

/**
 * Decodes the whole video once into letterboxed RGB frames piped into Node. The scale runs inside
 * ffmpeg (SIMD swscale) rather than in JS; the async iterator applies backpressure through the pipe,
 * so decode and the consumer's inference overlap without buffering the video in memory. `maxFps`
 * drops frames inside ffmpeg before the scale (every frame is still decoded).
 */
export async function* decodeFrames(path: string, srcW: number, srcH: number, opts: WholeFrameOptions): AsyncGenerator<Frame> {
  const lb = letterboxFor(srcW, srcH, opts.width, opts.height);
  const pad = (opts.padValue ?? 114).toString(16).padStart(2, "0");
  const vf = `${opts.maxFps ? `fps=${opts.maxFps},` : ""}scale=${lb.innerWidth}:${lb.innerHeight}:flags=bilinear,pad=${opts.width}:${opts.height}:${lb.padX}:${lb.padY}:0x${pad}${pad}${pad}`;
  const args = ["-v", "error", "-nostdin", ...rangeArgs(opts.range), "-i", path, "-an", "-sn"];
  if (opts.stills) {
    // The explicit format before the split keeps the scaler working on the decoded YUV picture: without
    // it, a seek (`range`) makes ffmpeg convert whole frames to RGB before the split, and the scaled
    // frames then differ from those of the same footage decoded from the start of its file.
    args.push("-filter_complex", `[0:v]format=yuv420p,split=2[m][s];[m]${vf}[main];[s]fps=${opts.stills.fps},format=rgb24[still]`);
    args.push("-map", "[main]", "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1", "-map", "[still]", "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:3");
  } else args.push("-vf", vf, "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1");
  yield* rawFrames(args, opts.width * opts.height * 3, opts.signal, opts.stills && { bytes: srcW * srcH * 3, onStill: opts.stills.onStill });
}

/**
 * Frames at source resolution (or a fixed crop of them), for work that cuts its own regions out
 * of each frame, such as model inputs around a rim. `scaleTo` runs inside ffmpeg, on the decoder's
 * core.
 */
export async function* decodeRegion(path: string, srcW: number, srcH: number, opts: RegionOptions = {}): AsyncGenerator<Frame & { width: number; height: number }> {
  const c = opts.crop ?? { x: 0, y: 0, w: srcW, h: srcH };
  const out = opts.scaleTo ?? { w: c.w, h: c.h };
  const filters = [
    ...(opts.maxFps ? [`fps=${opts.maxFps}`] : []),
    ...(opts.crop ? [`crop=${c.w}:${c.h}:${c.x}:${c.y}`] : []),
    ...(opts.scaleTo ? [`scale=${out.w}:${out.h}:flags=area`] : []),
  ];
  const args = ["-v", "error", "-nostdin", ...rangeArgs(opts.range), "-i", path, "-an", "-sn", ...(filters.length ? ["-vf", filters.join(",")] : []), "-pix_fmt", "rgb24", "-f", "rawvideo", "pipe:1"];
  for await (const f of rawFrames(args, out.w * out.h * 3, opts.signal)) yield { ...f, width: out.w, height: out.h };
}

/** Runs ffmpeg with `args` writing raw frames of `frameBytes` to stdout (and stills to fd 3). */
async function* rawFrames(args: string[], frameBytes: number, signal?: AbortSignal, stills?: { bytes: number; onStill: (index: number, rgb: Buffer) => void }): AsyncGenerator<Frame> {
  const child = spawn(FFMPEG, args, { ...MEDIA_SPAWN_OPTIONS, stdio: ["ignore", "pipe", "pipe", stills ? "pipe" : "ignore"] });
  let startError: Error | null = null;
  child.on("error", (e) => (startError ??= e));
  if (stills) {
    const stillBytes = stills.bytes;
    const onStill = stills.onStill;
    let buf: Buffer[] = [], bytes = 0, k = 0;
    (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
      buf.push(chunk);
      bytes += chunk.length;
      while (bytes >= stillBytes) {
        const all = buf.length === 1 ? buf[0] : Buffer.concat(buf, bytes);
        onStill(k++, Buffer.from(all.subarray(0, stillBytes)));
        const rest = all.subarray(stillBytes);
        buf = rest.length ? [rest] : [];
        bytes = rest.length;
      }
    });
  }
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const onAbort = () => killGracefully(child);
  signal?.addEventListener("abort", onAbort, { once: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  try {
    for await (const chunk of child.stdout! as AsyncIterable<Buffer>) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= frameBytes) {
        const all = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
        const rgb = Buffer.from(all.subarray(0, frameBytes));
        const rest = all.subarray(frameBytes);
        pending = rest.length ? [rest] : [];
        pendingBytes = rest.length;
        yield { index: index++, rgb };
      }
    }
    const code = await exited;
    if (startError) throw new HostFaultError(`ffmpeg could not be started: ${(startError as Error).message}`);
    if (signal?.aborted) throw new MediaError("aborted");
    if (code !== 0) throw toolHostFault("ffmpeg", stderr) ?? new MediaError(`ffmpeg decode failed (${code}): ${stderr.trim().split("\n").slice(-3).join(" ")}`, stderr);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (child.exitCode === null) killGracefully(child, 500);
  }
}
