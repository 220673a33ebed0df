// The copies the resolution and encoding comparison is made on (issue 24, point 5): the same footage
// exported at 360p, 720p and 1080p and re-encoded at a lower quality, each compared with the 720p
// copy. Shared by bench/invariance.ts (the table) and test/gpu-runner/resolution-invariance.test.ts
// (the clips that agree in every copy), made at run time and never committed (the clips carry no licence).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { FFMPEG, FFPROBE } from "../gpu-runner/media/binaries.ts";
import { seededRandom } from "../gpu-runner/vision/random.ts";

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

/**
 * A camera that moves: the picture is a window of `keep` of the copy's width and height (a zoom of
 * 1/keep), cut at a place that changes with time and scaled back to the copy's size.
 * - `handheld`: the window wanders around the centre by a sum of sines — `amplitude` of the width in
 *   all (split 50/30/20 % over three frequencies drawn from 0.3–2 Hz, the sway of hands), plus
 *   `jitter` of the width at 5–8 Hz (the shake), vertically at 0.6 of that — phases and frequencies
 *   drawn from `seed` (mulberry32), so a copy is the same on every machine.
 * - `pan`: the window drifts at a steady speed so the hoop moves `move` of the picture's width over
 *   the clip (less where the hoop would leave the picture: it stays at least `edge` of the width
 *   inside), going right, or left when `leftward`.
 */
export type CameraMotion =
  | { kind: "handheld"; keep: number; amplitude: number; jitter: number; seed: number }
  | { kind: "pan"; keep: number; move: number; edge: number; leftward?: boolean };

export interface MotionCopy {
  label: string;
  /** The copy it is made from (the 720p copy). */
  of: typeof REFERENCE_COPY;
  motion: CameraMotion;
}

/** The camera-motion copies of the bench (compared with the 720p copy like the others). */
export const MOTION_COPIES: readonly MotionCopy[] = [
  { label: "720p handheld", of: REFERENCE_COPY, motion: { kind: "handheld", keep: 0.85, amplitude: 0.035, jitter: 0.004, seed: 1 } },
  { label: "720p pan", of: REFERENCE_COPY, motion: { kind: "pan", keep: 0.75, move: 0.25, edge: 0.1 } },
];

/** Stronger motions, to find where the analysis stops holding (`bench:invariance -- --strong`). */
export const STRONG_MOTION_COPIES: readonly MotionCopy[] = [
  { label: "720p shaky", of: REFERENCE_COPY, motion: { kind: "handheld", keep: 0.75, amplitude: 0.08, jitter: 0.012, seed: 2 } },
  { label: "720p fast pan", of: REFERENCE_COPY, motion: { kind: "pan", keep: 0.6, move: 0.6, edge: 0.04 } },
  { label: "720p zoomed pan", of: REFERENCE_COPY, motion: { kind: "pan", keep: 0.5, move: 0.3, edge: 0.1, leftward: true } },
];

/** A sum of sines in t (seconds) as an ffmpeg expression, `scale` pixels at most in all. */
function sines(parts: Array<{ share: number; hz: number; phase: number }>, scale: number): string {
  return parts.map((p) => `${(p.share * scale).toFixed(2)}*sin(${(2 * Math.PI * p.hz).toFixed(4)}*t+${p.phase.toFixed(4)})`).join("+");
}

/**
 * The window's place over time (ffmpeg crop x/y expressions in t) for a `width`×`height` picture
 * `durationS` long whose hoop is at `hoopX` (a fraction of the width; pans only).
 */
export function cropPlace(motion: CameraMotion, width: number, height: number, durationS: number, hoopX: number): { x: string; y: string; hoopMove: number } {
  const freeX = (1 - motion.keep) * width;
  const freeY = (1 - motion.keep) * height;
  if (motion.kind === "handheld") {
    const random = seededRandom(motion.seed);
    const draw = (shares: number[], lo: number, hi: number) => shares.map((share) => ({ share, hz: lo + (hi - lo) * random(), phase: 2 * Math.PI * random() }));
    const sway = (s: number) => `${sines(draw([0.5, 0.3, 0.2], 0.3, 2), motion.amplitude * width * s)}+${sines(draw([0.6, 0.4], 5, 8), motion.jitter * width * s)}`;
    if ((motion.amplitude + motion.jitter) * width > freeX / 2) throw new Error("the handheld sway leaves the picture: keep less of it");
    return { x: `${(freeX / 2).toFixed(2)}+${sway(1)}`, y: `${(freeY / 2).toFixed(2)}+${sway(0.6)}`, hoopMove: 0 };
  }
  // The window's left edge, as a fraction of the width, may lie where the hoop stays `edge` of the
  // picture inside it: hoopX - keep*(1-edge) ≤ left ≤ hoopX - keep*edge, and inside the frame.
  const lo = Math.max(0, hoopX - motion.keep * (1 - motion.edge));
  const hi = Math.min(1 - motion.keep, hoopX - motion.keep * motion.edge);
  if (hi < lo) throw new Error(`a hoop at ${hoopX.toFixed(2)} of the width cannot stay in a window of ${motion.keep}`);
  const travel = Math.min(motion.move * motion.keep, hi - lo);
  const start = (lo + hi - travel) / 2;
  const [from, to] = motion.leftward ? [start + travel, start] : [start, start + travel];
  const x = `${(from * width).toFixed(2)}+${((to - from) * width).toFixed(2)}*min(t/${durationS.toFixed(3)},1)`;
  return { x, y: `${(freeY / 2).toFixed(2)}`, hoopMove: travel / motion.keep };
}

/** The `of` copy at `file` with `copy`'s camera motion, into `outDir` (kept there), and how far the hoop moves. */
export function exportMotionCopy(file: string, name: string, copy: MotionCopy, outDir: string, hoopX: number): { file: string; hoopMove: number } {
  const [width, height, durationS] = execFileSync(FFPROBE, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height:format=duration", "-of", "csv=p=0:nk=1", file], { encoding: "utf8" })
    .split(/[\n,]/)
    .filter(Boolean)
    .map(Number);
  const place = cropPlace(copy.motion, width, height, durationS, hoopX);
  const slug = copy.label.replace(/^720p /, "").replace(/\W+/g, "-");
  const out = path.join(outDir, `${name}-${slug}${copy.motion.kind === "pan" ? `-at${Math.round(hoopX * 100)}` : ""}.mp4`);
  if (existsSync(out)) return { file: out, hoopMove: place.hoopMove };
  mkdirSync(outDir, { recursive: true });
  const crop = `crop=w=${Math.round(copy.motion.keep * width)}:h=${Math.round(copy.motion.keep * height)}:x='${place.x}':y='${place.y}'`;
  execFileSync(FFMPEG, ["-v", "error", "-y", "-i", file, "-vf", `${crop},scale=${width}:${height}:flags=lanczos,setsar=1`, "-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", `${out}.part.mp4`]);
  renameSync(`${out}.part.mp4`, out);
  return { file: out, hoopMove: place.hoopMove };
}
