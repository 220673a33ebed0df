// The hand-checked ball/rim boxes on tuning-clip frames (models/train/realclip-labels.json) that the
// fine-tuning mixes in (issue 24, point 2). Training never runs in CI; this keeps the committed labels
// honest: frames only from TUNING clips (a held-out clip must never teach the detector), boxes that lie
// in the frame as the manifest describes it, and the file's own counts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../bench/realclips-manifest.ts";

type Box = [number, number, number, number];
interface LabelledFrame {
  clip: string;
  frame: number;
  time_s: number;
  width: number;
  height: number;
  ball_labelled: boolean;
  rim_exhaustive: boolean;
  balls: Box[];
  rims: Box[];
  how: { balls: string[]; rims: string[] };
}
interface LabelFile {
  description: string;
  made_by: string;
  proposer: { model: string; sha256: string };
  val_clips: string[];
  frames: LabelledFrame[];
}

const LABELS = path.resolve(import.meta.dirname, "../../models/train/realclip-labels.json");
const labels = JSON.parse(readFileSync(LABELS, "utf8")) as LabelFile;
const clips = new Map(readManifest().map((c) => [c.file, c]));
const sourceOf = (file: string) => path.basename(file).split("_")[0];

describe("tuning-clip frame labels (models/train/realclip-labels.json)", () => {
  it("labels frames of tuning clips only, never a held-out clip", () => {
    const notTuning = [...new Set(labels.frames.map((f) => f.clip))].filter((c) => clips.get(c)?.split !== "tuning");
    expect(notTuning).toEqual([]);
    expect(labels.val_clips.filter((c) => clips.get(c)?.split !== "tuning")).toEqual([]);
  });

  it("places every frame and box inside its clip as the manifest describes it", () => {
    for (const f of labels.frames) {
      const c = clips.get(f.clip)!;
      const where = `${f.clip} frame ${f.frame}`;
      expect([f.width, f.height], where).toEqual([c.width, c.height]);
      expect(Number.isInteger(f.frame) && f.frame >= 0 && f.frame < Math.round(c.duration_s * c.fps), where).toBe(true);
      expect(f.time_s, where).toBeCloseTo(f.frame / c.fps, 2);
      for (const [x1, y1, x2, y2] of [...f.balls, ...f.rims]) {
        expect(0 <= x1 && x1 < x2 && x2 <= f.width && 0 <= y1 && y1 < y2 && y2 <= f.height, `${where}: [${x1},${y1},${x2},${y2}]`).toBe(true);
      }
      // Every box says how it was made (a proposal accepted as it was, or drawn / corrected by hand).
      expect(f.how.balls.map((h) => /^(accepted [BRH]\d*|drawn)(\+net)?$/.test(h)), where).toEqual(f.balls.map(() => true));
      expect(f.how.rims.map((h) => /^(accepted [BRH]\d*|drawn)(\+net)?$/.test(h)), where).toEqual(f.rims.map(() => true));
    }
    // One label per frame: a duplicate would weigh a frame twice.
    const keys = labels.frames.map((f) => `${f.clip}#${f.frame}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("covers the tuning sources the brief names, with frames never trained on kept apart", () => {
    const perSource = new Map<string, number>();
    for (const f of labels.frames) perSource.set(sourceOf(f.clip), (perSource.get(sourceOf(f.clip)) ?? 0) + 1);
    for (const s of ["chonyy", "jbardelli", "lreithmayr", "senatopal", "ashwin", "brettfazio", "sujay", "aggie", "dbs29"]) {
      expect(perSource.get(s) ?? 0, s).toBeGreaterThanOrEqual(4);
    }
    expect(labels.frames.length).toBeGreaterThanOrEqual(150);
    const val = labels.frames.filter((f) => labels.val_clips.includes(f.clip));
    expect(val.length).toBeGreaterThanOrEqual(20);
    expect(labels.proposer.model).toBe("models/basketball-centernet.onnx");
  });
});
