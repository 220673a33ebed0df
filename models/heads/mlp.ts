// A two-layer perceptron applied at every cell of the CenterNet feature map (a 1×1-conv head),
// trained in plain JavaScript on the CPU: the heads are small (128→H→K) and the samples fit in
// memory, so no training framework is needed. Deterministic for a given seed.
import { seededRandom } from "../../gpu-runner/vision/random.ts";

export interface MlpWeights {
  inputs: number;
  hidden: number;
  outputs: number;
  /** Per-input normalisation applied before the first layer (folded into it in the ONNX head). */
  mean: Float32Array;
  std: Float32Array;
  w1: Float32Array; // hidden × inputs
  b1: Float32Array;
  w2: Float32Array; // outputs × hidden
  b2: Float32Array;
}


export function initMlp(inputs: number, hidden: number, outputs: number, mean: Float32Array, std: Float32Array, seed: number, outBias = 0): MlpWeights {
  const r = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  const w1 = new Float32Array(hidden * inputs).map(() => gauss() * Math.sqrt(2 / inputs));
  const w2 = new Float32Array(outputs * hidden).map(() => gauss() * Math.sqrt(1 / hidden));
  return { inputs, hidden, outputs, mean, std, w1, b1: new Float32Array(hidden), w2, b2: new Float32Array(outputs).fill(outBias) };
}

/** Forward pass for one sample `x` (raw features): writes the hidden activations and returns raw outputs. */
export function forward(m: MlpWeights, x: Float32Array, xOffset: number, hidden: Float32Array, xn: Float32Array, out: Float32Array): void {
  for (let i = 0; i < m.inputs; i++) xn[i] = (x[xOffset + i] - m.mean[i]) / m.std[i];
  for (let h = 0; h < m.hidden; h++) {
    let s = m.b1[h];
    const row = h * m.inputs;
    for (let i = 0; i < m.inputs; i++) s += m.w1[row + i] * xn[i];
    hidden[h] = s > 0 ? s : 0;
  }
  for (let o = 0; o < m.outputs; o++) {
    let s = m.b2[o];
    const row = o * m.hidden;
    for (let h = 0; h < m.hidden; h++) s += m.w2[row + h] * hidden[h];
    out[o] = s;
  }
}

/** Adam state for every parameter array of an MLP. */
export class Adam {
  private m: Float32Array[];
  private v: Float32Array[];
  private t = 0;
  constructor(private readonly params: Float32Array[], private readonly lr = 1e-3, private readonly b1 = 0.9, private readonly b2 = 0.999, private readonly eps = 1e-8) {
    this.m = params.map((p) => new Float32Array(p.length));
    this.v = params.map((p) => new Float32Array(p.length));
  }
  step(grads: Float32Array[], lrScale = 1): void {
    this.t++;
    const c1 = 1 - this.b1 ** this.t, c2 = 1 - this.b2 ** this.t;
    const lr = this.lr * lrScale;
    this.params.forEach((p, k) => {
      const g = grads[k], m = this.m[k], v = this.v[k];
      for (let i = 0; i < p.length; i++) {
        m[i] = this.b1 * m[i] + (1 - this.b1) * g[i];
        v[i] = this.b2 * v[i] + (1 - this.b2) * g[i] * g[i];
        p[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + this.eps);
      }
    });
  }
}

/**
 * One minibatch step. `lossGrad(sample, out, dOut)` returns the sample's loss and writes
 * dLoss/dOutput into `dOut`; gradients are averaged by `norm`.
 */
export function trainStep(
  m: MlpWeights,
  opt: Adam,
  batch: ArrayLike<number>,
  features: (sample: number) => { data: Float32Array; offset: number },
  lossGrad: (sample: number, out: Float32Array, dOut: Float32Array) => number,
  norm: number,
  lrScale = 1,
): number {
  const g1 = new Float32Array(m.w1.length), gb1 = new Float32Array(m.b1.length), g2 = new Float32Array(m.w2.length), gb2 = new Float32Array(m.b2.length);
  const hidden = new Float32Array(m.hidden), xn = new Float32Array(m.inputs), out = new Float32Array(m.outputs), dOut = new Float32Array(m.outputs), dh = new Float32Array(m.hidden);
  let loss = 0;
  for (let k = 0; k < batch.length; k++) {
    const s = batch[k];
    const { data, offset } = features(s);
    forward(m, data, offset, hidden, xn, out);
    dOut.fill(0);
    loss += lossGrad(s, out, dOut);
    dh.fill(0);
    for (let o = 0; o < m.outputs; o++) {
      const d = dOut[o];
      if (d === 0) continue;
      gb2[o] += d;
      const row = o * m.hidden;
      for (let h = 0; h < m.hidden; h++) {
        g2[row + h] += d * hidden[h];
        dh[h] += d * m.w2[row + h];
      }
    }
    for (let h = 0; h < m.hidden; h++) {
      if (hidden[h] <= 0 || dh[h] === 0) continue;
      const d = dh[h];
      gb1[h] += d;
      const row = h * m.inputs;
      for (let i = 0; i < m.inputs; i++) g1[row + i] += d * xn[i];
    }
  }
  const inv = 1 / norm;
  for (const g of [g1, gb1, g2, gb2]) for (let i = 0; i < g.length; i++) g[i] *= inv;
  opt.step([g1, gb1, g2, gb2], lrScale);
  return loss;
}

/**
 * CenterNet's penalty-reduced focal loss for one logit (α = 2, β = 4): `target` is 1 at an
 * object's centre cell and a Gaussian bump around it. Returns [loss, dLoss/dLogit].
 */
export function focalLoss(logit: number, target: number, alpha = 2, beta = 4): [number, number] {
  const p = Math.min(1 - 1e-6, Math.max(1e-6, 1 / (1 + Math.exp(-logit))));
  if (target >= 0.999) {
    const loss = -((1 - p) ** alpha) * Math.log(p);
    const grad = alpha * p * (1 - p) ** alpha * Math.log(p) - (1 - p) ** (alpha + 1);
    return [loss, grad];
  }
  const wNeg = (1 - target) ** beta;
  const loss = -wNeg * p ** alpha * Math.log(1 - p);
  const grad = -wNeg * (alpha * p ** alpha * (1 - p) * Math.log(1 - p) - p ** (alpha + 1));
  return [loss, grad];
}

/** The head in the converter's JSON format: the normalisation and two 1×1 layers. */
export function toHeadJson(name: string, m: MlpWeights, finalActivation: "sigmoid" | "none", description: string, attribution: string) {
  const rows = (w: Float32Array, r: number, c: number) => Array.from({ length: r }, (_, i) => Array.from(w.subarray(i * c, (i + 1) * c), round6));
  return {
    name,
    description,
    attribution,
    input_normalization: { mean: Array.from(m.mean, round6), std: Array.from(m.std, round6) },
    layers: [
      { weights: rows(m.w1, m.hidden, m.inputs), bias: Array.from(m.b1, round6), activation: "relu" },
      { weights: rows(m.w2, m.outputs, m.hidden), bias: Array.from(m.b2, round6), activation: finalActivation },
    ],
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
