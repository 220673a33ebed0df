// The court's painted lines found by a learned mask (models/court-lines/linenet.onnx): a small
// U-Net trained only on generated court pictures (models/court-lines/render.py, train.py; how it was
// made and measured is in that folder's README). The stripe test (vision/lines.ts, lineMask) finds a
// line as a thin bright stripe across its floor; on a gym's wood floor the grain, the planks and the
// reflections are stripes too, and its lines are seldom found. The learned mask tells a painted
// line from them, and is what the court pass registers real footage on (analysis/observe/court-views.ts).
import path from "node:path";
import ort from "onnxruntime-node";
import { DEFAULT_MODEL_DIR, ownModelOr } from "./detector.ts";
import { createSession, type SessionSettings } from "./session.ts";

export const COURT_LINE_MODEL_DEFAULTS = {
  /** A pixel is on a painted line where the model's probability is above this (its logit above log(p / (1 − p))). */
  MIN_LINE_PROBABILITY: 0.5,
  /**
   * onnxruntime intra-op threads, at least (more where the runner's settings give more): the court
   * pass runs after the scan, with nothing beside it but ffmpeg decoding the next picture, and on the
   * 2-core machine a picture took 80 ms on one thread and 43 ms on two (CPU; on CUDA it is not the cost).
   */
  MIN_THREADS: 2,
};

/** The painted lines of a picture: at twice the working size (`fine`, 2W × 2H) and on the W × H working grid (`working`), 1 on a line. */
export interface CourtLineMasks {
  fine: Uint8Array;
  working: Uint8Array;
}

export interface CourtLineModel {
  /**
   * The painted lines of the W × H working picture (three bytes a pixel, RGB), looked for from row
   * `fromRow` down (a multiple of 4; the rows above it are no line): the court pass skips what lies
   * above the rims, where no floor is (analysis/observe/court-views.ts).
   */
  masks(rgb: ArrayLike<number>, W: number, H: number, fromRow?: number): Promise<CourtLineMasks>;
}

/** The committed model's file, in the models folder (HOOPS_MODEL_DIR may hold another). */
export function courtLineModelPath(dir?: string): string {
  return ownModelOr(dir, path.join("court-lines", "linenet.onnx"), path.join(DEFAULT_MODEL_DIR, "court-lines", "linenet.onnx"));
}

export async function loadCourtLineModel(modelPath: string, opts: SessionSettings = {}): Promise<CourtLineModel> {
  const o = COURT_LINE_MODEL_DEFAULTS;
  const session = await createSession(modelPath, { ...opts, threads: Math.max(opts.threads ?? 1, o.MIN_THREADS) });
  const minLogit = Math.log(o.MIN_LINE_PROBABILITY / (1 - o.MIN_LINE_PROBABILITY));
  return {
    async masks(rgb, W, H, fromRow = 0) {
      const working = new Uint8Array(W * H), fine = new Uint8Array(4 * W * H);
      const rows = H - fromRow;
      if (rows < 4) return { fine, working };
      // The model takes planes of 0–255 (it scales them itself), 1 × 3 × rows × W.
      const n = W * rows, at = fromRow * W;
      const planes = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) {
        planes[i] = rgb[3 * (at + i)];
        planes[n + i] = rgb[3 * (at + i) + 1];
        planes[2 * n + i] = rgb[3 * (at + i) + 2];
      }
      const out = await session.run({ rgb: new ort.Tensor("float32", planes, [1, 3, rows, W]) });
      const logit = out.logit.data as Float32Array;
      // Found on the working picture, and each working pixel's line drawn over its 2 × 2 pixels at
      // twice the size, where registration refines the winning view (registerPicture).
      for (let r = 0; r < rows; r++) {
        const y = fromRow + r;
        for (let x = 0; x < W; x++) {
          if (logit[r * W + x] <= minLogit) continue;
          working[y * W + x] = 1;
          const f = 2 * y * 2 * W + 2 * x;
          fine[f] = fine[f + 1] = fine[f + 2 * W] = fine[f + 2 * W + 1] = 1;
        }
      }
      return { fine, working };
    },
  };
}
