// The session's video renditions (1080p, 720p, 360p) and its preview image.
// A rendition is named by the short side of the frame, so portrait video gets
// 1080×1920 as "1080p". Never upscaled: a rendition larger than the source is
// null. All renditions come from one ffmpeg run (one decode, split to several
// encoders), with +faststart so players can start before the download ends.
import path from "node:path";
import { FFMPEG } from "../media/binaries";
import { h264Args, type MediaHardware } from "../media/hardware";
import type { VideoInfo } from "../media/probe";
import { runTool } from "../media/run";
import type { OutputFile } from "./upload";

export const SESSION_RENDITIONS = [1080, 720, 360] as const;
export type SessionRendition = `${(typeof SESSION_RENDITIONS)[number]}p`;

export interface RenditionOutputs {
  files: OutputFile[];
  video: { preview: string | null } & Record<SessionRendition, string | null>;
}

/** Even dimensions with the short side equal to `short`, keeping the aspect ratio. */
export function scaledSize(info: Pick<VideoInfo, "width" | "height">, short: number): { width: number; height: number } {
  const portrait = info.height > info.width;
  const srcShort = portrait ? info.width : info.height;
  const srcLong = portrait ? info.height : info.width;
  const long = Math.round((srcLong * short) / srcShort / 2) * 2;
  return portrait ? { width: short, height: long } : { width: long, height: short };
}

export function plannedRenditions(info: Pick<VideoInfo, "width" | "height">): number[] {
  const short = Math.min(info.width, info.height);
  return SESSION_RENDITIONS.filter((r) => r <= short);
}

export async function renderSessionRenditions(
  source: string,
  info: VideoInfo,
  workDir: string,
  hw: MediaHardware,
  signal?: AbortSignal,
): Promise<RenditionOutputs> {
  const files: OutputFile[] = [];
  const video: RenditionOutputs["video"] = { preview: null, "1080p": null, "720p": null, "360p": null };
  let targets = plannedRenditions(info);
  // A rendition at the source's own size of an H.264 source is the source
  // itself: remux it (moov atom first) instead of spending a full encode.
  const native = targets.find((r) => r === Math.min(info.width, info.height));
  if (native && info.codec === "h264") {
    const name = `renditions/${native}p.mp4`;
    const out = path.join(workDir, `rendition-${native}p.mp4`);
    await runTool(FFMPEG, ["-hide_banner", "-y", "-i", source, "-map", "0:v:0", "-map", "0:a?", "-c", "copy", "-movflags", "+faststart", out], signal);
    files.push({ name, path: out, contentType: "video/mp4" });
    video[`${native}p` as SessionRendition] = name;
    targets = targets.filter((r) => r !== native);
  }
  const args = ["-hide_banner", "-y", ...hw.decodeArgs, "-i", source];
  if (targets.length > 0) {
    const split = targets.length > 1 ? `[0:v]split=${targets.length}${targets.map((_, i) => `[s${i}]`).join("")};` : "[0:v]null[s0];";
    const scales = targets.map((r, i) => {
      const { width, height } = scaledSize(info, r);
      return `[s${i}]scale=${width}:${height}[v${i}]`;
    });
    args.push("-filter_complex", split + scales.join(";"));
    targets.forEach((r, i) => {
      const name = `renditions/${r}p.mp4`;
      const out = path.join(workDir, `rendition-${r}p.mp4`);
      args.push("-map", `[v${i}]`, "-map", "0:a?", ...h264Args(hw), "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", out);
      files.push({ name, path: out, contentType: "video/mp4" });
      video[`${r}p` as SessionRendition] = name;
    });
    await runTool(FFMPEG, args, signal);
  }
  // Preview: one frame from a tenth of the way in (past intros and black frames).
  const preview = path.join(workDir, "preview.jpg");
  const at = Math.max(0, Math.min(info.durationSeconds * 0.1, info.durationSeconds - 0.1));
  const { width, height } = scaledSize(info, Math.min(720, Math.min(info.width, info.height)));
  await runTool(FFMPEG, ["-hide_banner", "-y", "-ss", at.toFixed(2), "-i", source, "-frames:v", "1", "-vf", `scale=${width}:${height}`, "-q:v", "3", preview], signal);
  files.push({ name: "preview.jpg", path: preview, contentType: "image/jpeg" });
  video.preview = "preview.jpg";
  return { files, video };
}
