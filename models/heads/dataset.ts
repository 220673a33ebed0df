// The labelled stills in ../shared/datasets/basketball-det (CC BY 4.0, see its README and
// docs/analysis.md for the attribution): YOLO labels for ball, rim and person on 640×640 images
// that Roboflow stretched from their original aspect. Read at training time only; no image is
// ever copied into this repository.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";

export const DATASET_DIR = path.resolve(import.meta.dirname, "../../../shared/datasets/basketball-det");
export const IMAGE_SIZE = 640;

export type LabelClass = "ball" | "rim" | "person";
export interface LabelBox {
  cls: LabelClass;
  /** Centre and size in 0..1 of the (stretched) 640×640 image. */
  cx: number;
  cy: number;
  w: number;
  h: number;
}

export interface DatasetImage {
  file: string;
  split: "train" | "val" | "test";
  source: string;
  session: string;
  /** Every rim in the image is boxed (rim loss and rim scores only count on these). */
  rimExhaustive: boolean;
  /** Balls are labelled (the rim-only source leaves them out). */
  ballLabelled: boolean;
  boxes: LabelBox[];
  /** Estimated original width/height: Roboflow stretched every image to a square. */
  aspect: number;
}

// Unified ids 0 ball, 1 rim, 2 person, 3 ball_made, 4 ball_backboard; 3 and 4 are ball boxes.
const CLASS_OF: Record<string, LabelClass> = { "0": "ball", "1": "rim", "2": "person", "3": "ball", "4": "ball" };
const COMMON_ASPECTS = [9 / 16, 3 / 4, 1, 4 / 3, 16 / 9];

/**
 * A round ball stretched to a square image has height/width = original width/height, so the
 * median over a recording session's (or the image's own) well-sized balls tells the original
 * aspect, snapped to the usual ones. Images without balls are taken as they are (aspect 1).
 */
export function estimateAspects(images: Array<Omit<DatasetImage, "aspect">>): Map<string, number> {
  const snap = (r: number) => COMMON_ASPECTS.reduce((best, a) => (Math.abs(Math.log(a / r)) < Math.abs(Math.log(best / r)) ? a : best));
  const median = (rs: number[]) => [...rs].sort((a, b) => a - b)[rs.length >> 1];
  const ballRatios = (im: Omit<DatasetImage, "aspect">, minPx: number) =>
    im.boxes.filter((b) => b.cls === "ball" && Math.sqrt(b.w * b.h) * IMAGE_SIZE >= minPx).map((b) => b.h / b.w);
  const bySession = new Map<string, number[]>();
  for (const im of images) bySession.set(im.session, [...(bySession.get(im.session) ?? []), ...ballRatios(im, 14)]);
  // Keyed by image file: a session's estimate when it has a few balls, else the image's own
  // well-sized balls, else none (taken as square).
  const out = new Map<string, number>();
  for (const im of images) {
    const session = bySession.get(im.session)!;
    const own = ballRatios(im, 20);
    if (session.length >= 3) out.set(im.file, snap(median(session)));
    else if (own.length) out.set(im.file, snap(median(own)));
  }
  return out;
}

export function loadDataset(dir = DATASET_DIR): DatasetImage[] {
  const rows = readFileSync(path.join(dir, "manifest.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const images = rows.map((r) => {
    const labelFile = path.join(dir, r.image.replace(/^images\//, "labels/").replace(/\.[a-z]+$/i, ".txt"));
    let text = "";
    try {
      text = readFileSync(labelFile, "utf8");
    } catch {
      text = "";
    }
    const boxes: LabelBox[] = [];
    for (const line of text.split("\n")) {
      const [c, cx, cy, w, h] = line.trim().split(/\s+/);
      const cls = CLASS_OF[c];
      if (!cls) continue;
      boxes.push({ cls, cx: Number(cx), cy: Number(cy), w: Number(w), h: Number(h) });
    }
    return { file: path.join(dir, r.image), split: r.split, source: r.source, session: r.session, rimExhaustive: !!r.rim_exhaustive, ballLabelled: !!r.ball_labelled, boxes };
  });
  const aspects = estimateAspects(images);
  return images.map((im) => ({ ...im, aspect: aspects.get(im.file) ?? 1 }));
}

/**
 * Decodes many JPEGs with one ffmpeg process (a concat list of still images, all 640×640), so
 * thousands of images cost one process start instead of thousands.
 */
export async function decodeImages(files: string[], onImage: (index: number, rgb: Uint8Array) => void | Promise<void>): Promise<void> {
  if (!files.length) return;
  const dir = mkdtempSync(path.join(tmpdir(), "hoops-ds-"));
  const list = path.join(dir, "list.ffconcat");
  writeFileSync(list, "ffconcat version 1.0\n" + files.map((f) => `file '${f.replace(/'/g, "'\\''")}'\nduration 1\n`).join(""));
  const child = spawn(FFMPEG, ["-v", "error", "-nostdin", "-safe", "0", "-f", "concat", "-i", list, "-vf", `scale=${IMAGE_SIZE}:${IMAGE_SIZE}`, "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const frameBytes = IMAGE_SIZE * IMAGE_SIZE * 3;
  let pending = Buffer.alloc(0), index = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= frameBytes) {
        await onImage(index++, new Uint8Array(pending.subarray(0, frameBytes)));
        pending = pending.subarray(frameBytes);
      }
    }
    const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on("close", r)));
    if (code !== 0 || index !== files.length) throw new Error(`decoding ${files.length} images gave ${index} (ffmpeg ${code}): ${stderr.slice(-500)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
