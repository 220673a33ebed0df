// Decides once at start-up whether ffmpeg can use NVIDIA hardware (NVDEC for
// decoding, NVENC for encoding). A trial encode proves it rather than trusting
// the encoder list, which names NVENC even on hosts without a GPU.
import { FFMPEG } from "./binaries";
import { runTool } from "./run";

export interface MediaHardware {
  encoder: "h264_nvenc" | "libx264";
  /** ffmpeg input options for hardware decoding, empty on CPU. */
  decodeArgs: string[];
}

let detected: MediaHardware | undefined;

export async function detectMediaHardware(log: (msg: string) => void = () => {}): Promise<MediaHardware> {
  if (detected) return detected;
  let nvenc = false;
  if (process.env.HOOPS_FORCE_CPU !== "1") {
    try {
      const encoders = (await runTool(FFMPEG, ["-hide_banner", "-encoders"])).toString();
      if (encoders.includes("h264_nvenc")) {
        await runTool(FFMPEG, ["-hide_banner", "-f", "lavfi", "-i", "testsrc=size=256x144:rate=1", "-frames:v", "1", "-c:v", "h264_nvenc", "-f", "null", "-"]);
        nvenc = true;
      }
    } catch {
      nvenc = false;
    }
  }
  detected = nvenc ? { encoder: "h264_nvenc", decodeArgs: ["-hwaccel", "cuda"] } : { encoder: "libx264", decodeArgs: [] };
  log(`media: ${nvenc ? "NVENC/NVDEC available, using the GPU for encode and decode" : "no usable NVENC, using libx264 on the CPU"}`);
  return detected;
}

/** Encoder arguments tuned for speed at acceptable quality. */
export function h264Args(hw: MediaHardware): string[] {
  return hw.encoder === "h264_nvenc"
    ? ["-c:v", "h264_nvenc", "-preset", "p4", "-cq", "24", "-pix_fmt", "yuv420p"]
    : ["-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-pix_fmt", "yuv420p"];
}
