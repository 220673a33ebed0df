import { FFPROBE } from "./binaries.ts";
import { readLens35mm } from "./lens.ts";
import { MediaError, runTool } from "./run.ts";

export interface VideoInfo {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  codec: string;
  /** The 35 mm-equivalent focal length (mm) the file says it was filmed with (media/lens.ts); null when it does not say. Observations kept before this was read lack it. */
  lens35mm?: number | null;
}

function parseRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [n, d] = rate.split("/").map(Number);
  if (!d) return n || 0;
  return n / d;
}

/** Typed ffprobe of the first video stream. Throws MediaError when the file has no video. */
export async function probe(path: string, signal?: AbortSignal): Promise<VideoInfo> {
  const out = await runTool(
    FFPROBE,
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,avg_frame_rate,r_frame_rate,duration,nb_frames:stream_tags=rotate:format=duration", "-of", "json", path],
    signal,
  );
  const json = JSON.parse(out.toString()) as {
    streams?: Array<{ codec_name?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string; duration?: string; tags?: { rotate?: string } }>;
    format?: { duration?: string };
  };
  const s = json.streams?.[0];
  if (!s || !s.width || !s.height) throw new MediaError(`no video stream in ${path}`);
  // Phones store portrait video as landscape plus a rotate tag; ffmpeg autorotates on decode,
  // so report the displayed size.
  const rotated = Math.abs(Number(s.tags?.rotate ?? 0)) % 180 === 90;
  const fps = parseRate(s.avg_frame_rate) || parseRate(s.r_frame_rate);
  const durationSeconds = Number(s.duration ?? json.format?.duration ?? 0);
  return {
    durationSeconds: Number.isFinite(durationSeconds) ? durationSeconds : 0,
    width: rotated ? s.height : s.width,
    height: rotated ? s.width : s.height,
    fps,
    codec: s.codec_name ?? "unknown",
    lens35mm: await readLens35mm(path),
  };
}
