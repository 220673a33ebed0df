// The copies the resolution and encoding comparison is made on (issue 24, point 5): the same footage
// exported at 360p, 720p and 1080p and re-encoded at a lower quality, each compared with the 720p
// copy. Shared by bench/invariance.ts (the table) and test/gpu-runner/resolution-invariance.test.ts
// (the clips that agree in every copy), made at run time and never committed (the clips carry no licence).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";

export const COPIES = [
  { label: "360p", height: 360, crf: 20 },
  { label: "720p", height: 720, crf: 20 },
  { label: "1080p", height: 1080, crf: 20 },
  { label: "720p crf 32", height: 720, crf: 32 },
] as const;
export type Copy = (typeof COPIES)[number];
/** The copy every other is compared with. */
export const REFERENCE_COPY = "720p";

/** `file` exported as `copy` into `outDir` (kept there: a second run reuses it). */
export function exportCopy(file: string, name: string, copy: Copy, outDir: string): string {
  const out = path.join(outDir, `${name}-${copy.height}-crf${copy.crf}.mp4`);
  if (existsSync(out)) return out;
  mkdirSync(outDir, { recursive: true });
  execFileSync(FFMPEG, ["-v", "error", "-y", "-i", file, "-vf", `scale=-2:${copy.height}:flags=lanczos,setsar=1`, "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", String(copy.crf), "-pix_fmt", "yuv420p", `${out}.part.mp4`]);
  // Renamed only when whole: a run stopped mid-encode must not leave a file the next run trusts.
  renameSync(`${out}.part.mp4`, out);
  return out;
}
