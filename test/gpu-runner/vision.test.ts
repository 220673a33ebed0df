import { describe, expect, it } from "vitest";
import { nms } from "../../gpu-runner/vision/detections.ts";
import { decodeYoloOutput, loadYoloDetector, resolveDetectorModel } from "../../gpu-runner/vision/detector.ts";
import { parseClassNames, readModelInfo } from "../../gpu-runner/vision/model-metadata.ts";
import { loadJerseyReader } from "../../gpu-runner/vision/jersey-ocr.ts";
import { AnalysisModels, modelSettingsFromEnv } from "../../gpu-runner/vision/models.ts";
import { buildDefaultDetector } from "../../models/build-default-detector.ts";
import { project } from "../../scripts/synth/camera.ts";
import { COURT, HOOP_X } from "../../scripts/synth/court.ts";
import { drawNumber } from "../../scripts/synth/font.ts";
import { JERSEYS } from "../../scripts/synth/palette.ts";
import { makeRenderer } from "../../scripts/synth/render.ts";
import { simulateGame } from "../../scripts/synth/script.ts";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import onnxProto from "onnx-proto";
import ort from "onnxruntime-node";
import { createSession, optimizationLevelHint } from "../../gpu-runner/vision/session.ts";

describe("model contract", () => {
  it("parses Ultralytics names metadata (python dict literal) and JSON", () => {
    expect(parseClassNames("{0: 'person', 1: 'sports ball', 2: \"rim\"}")).toEqual(["person", "sports ball", "rim"]);
    expect(parseClassNames('{"0": "ball", "1": "hoop"}')).toEqual(["ball", "hoop"]);
    expect(parseClassNames(undefined)).toEqual([]);
  });

  it("decodes a 1×(4+C)×N output into per-class boxes with NMS", () => {
    // Three anchors, classes [person, sports ball, rim]: two overlapping balls and one rim.
    const n = 3, rows = 7;
    const d = new Float32Array(rows * n);
    const set = (r: number, a: number, v: number) => (d[r * n + a] = v);
    [[100, 100, 10, 10], [101, 100, 10, 10], [300, 50, 20, 6]].forEach((b, a) => b.forEach((v, r) => set(r, a, v)));
    set(5, 0, 0.9); set(5, 1, 0.8); set(6, 2, 0.7);
    const out = decodeYoloOutput(d, rows, n, ["person", "ball", "rim"], { ball: 0.5, rim: 0.5, person: 0.5 }, 0.45);
    expect(out.map((o) => o.className)).toEqual(["ball", "rim"]);
    expect(out[0]).toMatchObject({ cx: 100, score: expect.closeTo(0.9, 5) });
    expect(nms([], 0.5)).toEqual([]);
  });

  it("the committed default model is the one the build script produces", async () => {
    const built = buildDefaultDetector();
    const committed = readFileSync(resolveDetectorModel());
    expect(Buffer.from(built).equals(committed)).toBe(true);
    expect(Buffer.from(buildDefaultDetector("portrait")).equals(readFileSync(resolveDetectorModel("portrait")))).toBe(true);
    expect((await readModelInfo(resolveDetectorModel("portrait"))).inputDims).toEqual([1, 3, 640, 384]);
    const info = await readModelInfo(resolveDetectorModel());
    expect(info.inputDims).toEqual([1, 3, 384, 640]);
    expect(parseClassNames(info.metadata.names)).toEqual(["ball", "hoop", "person"]);
  });

  it("honours a model's graph optimization level hint, which does not change its output", async () => {
    expect(optimizationLevelHint("extended")).toBe("extended");
    expect(optimizationLevelHint("all")).toBe("all");
    expect(optimizationLevelHint("fastest")).toBeUndefined();
    expect(optimizationLevelHint(undefined)).toBeUndefined();
    const info = await readModelInfo(resolveDetectorModel());
    expect(info.metadata.graph_optimization_level).toBe("extended");
    // Same frame through the default detector at both levels: same boxes and scores.
    const input = new Float32Array(3 * 384 * 640);
    for (let i = 0; i < input.length; i++) input[i] = (Math.sin(i * 0.013) + 1) / 2;
    const outputs = [];
    for (const level of ["all", "extended"] as const) {
      const session = await createSession(info.bytes, { optimizationLevel: level, log: () => {} });
      const r = await session.run({ images: new ort.Tensor("float32", input, [1, 3, 384, 640]) });
      outputs.push(r[session.outputNames[0]].data as Float32Array);
    }
    expect(outputs[0].length).toBe(outputs[1].length);
    let maxDiff = 0;
    for (let i = 0; i < outputs[0].length; i++) maxDiff = Math.max(maxDiff, Math.abs(outputs[0][i] - outputs[1][i]) / Math.max(1, Math.abs(outputs[0][i])));
    expect(maxDiff).toBeLessThan(1e-3);
  });
});

describe("default detector on a rendered frame", () => {
  it("finds the ball, the hoop and the players where the renderer drew them", async () => {
    const det = await loadYoloDetector(resolveDetectorModel());
    const script = simulateGame({ seed: 5, seconds: 10, fps: 30, players: 6 });
    const r = makeRenderer(script, "wide", 640, 360, [0, 2]);
    const frame = Buffer.alloc(640 * 360 * 3);
    const fi = 45;
    r.render(fi, frame);
    // Letterbox 640×360 into 640×384 by hand (12 gray rows above and below).
    const input = Buffer.alloc(640 * 384 * 3, 114);
    frame.copy(input, 12 * 640 * 3);
    const dets = await det.detect(input);
    const cam = r.cameraAt(fi);
    const b = script.ball.subarray(fi * 3, fi * 3 + 3);
    const [bu, bv] = project(cam, [b[0], b[1], b[2]]);
    const ball = dets.find((d) => d.className === "ball");
    expect(ball).toBeDefined();
    expect(Math.hypot(ball!.cx - bu, ball!.cy - (bv + 12))).toBeLessThan(4);
    const [hu, hv] = project(cam, [HOOP_X, 0, COURT.rimHeight]);
    const hoop = dets.find((d) => d.className === "rim");
    expect(hoop).toBeDefined();
    expect(Math.hypot(hoop!.cx - hu, hoop!.cy - (hv + 12))).toBeLessThan(5);
    const people = dets.filter((d) => d.className === "person");
    // Every player whose feet are in view should have a box whose bottom is near the feet.
    let matched = 0;
    for (let k = 0; k < script.players.length; k++) {
      const [fu, fv] = project(cam, [script.playerPos[fi][k * 2], script.playerPos[fi][k * 2 + 1], 0]);
      if (people.some((p) => Math.abs(p.cx - fu) < p.w / 2 && Math.abs(p.cy + p.h / 2 - (fv + 12)) < p.h * 0.25)) matched++;
    }
    // Two players standing one behind the other merge into one colour blob; allow that once or twice.
    expect(matched).toBeGreaterThanOrEqual(script.players.length - 2);
  });
});

describe("a trained model dropped into the model directory", () => {
  /**
   * Stands in for a user's Ultralytics export: the default graph with its class rows reordered, an
   * extra class the pipeline does not use, and the names written as Ultralytics writes them. If the
   * loader assumed the default class order instead of reading the metadata, every kind would be wrong.
   */
  function exportLikeUltralytics(defaultModel: Uint8Array): Uint8Array {
    const { onnx } = onnxProto;
    const model = onnx.ModelProto.decode(defaultModel);
    const graph = model.graph!;
    const nodes = graph.node!, out = graph.output![0];
    const producer = nodes.find((n) => n.output?.includes(out.name!))!;
    producer.output = producer.output!.map((o) => (o === out.name ? "raw_output" : o));
    // Default rows: cx, cy, w, h, ball, hoop, person. New: person, sports ball, backboard (a copy of hoop), rim.
    const order = BigInt64Array.from([0n, 1n, 2n, 3n, 6n, 4n, 5n, 5n]);
    graph.initializer!.push(onnx.TensorProto.create({ name: "class_order", dims: [order.length], dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(order.buffer) }));
    nodes.push(onnx.NodeProto.create({ opType: "Gather", input: ["raw_output", "class_order"], output: [out.name!], name: "reorder_classes", attribute: [onnx.AttributeProto.create({ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 1 })] }));
    out.type!.tensorType!.shape!.dim![1] = onnx.TensorShapeProto.Dimension.create({ dimValue: 8 });
    model.metadataProps = (model.metadataProps ?? []).filter((p) => p.key !== "names");
    model.metadataProps.push(onnx.StringStringEntryProto.create({ key: "names", value: "{0: 'person', 1: 'sports ball', 2: 'backboard', 3: 'rim'}" }));
    return onnx.ModelProto.encode(model).finish();
  }

  it("is picked over the built-in model and read through its own class names", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hoops-models-"));
    writeFileSync(path.join(dir, "detector.onnx"), exportLikeUltralytics(readFileSync(resolveDetectorModel())));
    // As a runner started with HOOPS_MODEL_DIR=dir chooses (vision/models.ts).
    const choice = new AnalysisModels(modelSettingsFromEnv({ HOOPS_MODEL_DIR: dir })).choose("portrait");
    // The trained model wins for both orientations (letterboxing fits any frame to its input).
    expect(choice).toEqual({ kind: "yolo", modelPath: path.join(dir, "detector.onnx"), why: "trained model in the model directory" });
    const chosen = choice.kind === "yolo" ? choice.modelPath : "";
    const [trained, builtIn] = await Promise.all([loadYoloDetector(chosen), loadYoloDetector(resolveDetectorModel())]);
    const script = simulateGame({ seed: 6, seconds: 4, fps: 30, players: 4 });
    const r = makeRenderer(script, "wide", 640, 384, [0, 2]);
    const frame = Buffer.alloc(640 * 384 * 3);
    r.render(30, frame);
    const summary = (dets: Awaited<ReturnType<typeof trained.detect>>) =>
      dets.map((d) => `${d.className}@${Math.round(d.cx)},${Math.round(d.cy)}`).sort();
    const expected = summary(await builtIn.detect(frame));
    expect(expected.some((d) => d.startsWith("ball@"))).toBe(true);
    expect(expected.some((d) => d.startsWith("rim@"))).toBe(true);
    expect(expected.some((d) => d.startsWith("person@"))).toBe(true);
    // 'backboard' is not a class the pipeline uses: one hoop per rim, not two.
    expect(summary(await trained.detect(frame))).toEqual(expected);
  });
});

describe("jersey OCR (PP-OCRv4 recognition)", () => {
  it("reads rendered jersey numbers", async () => {
    const reader = await loadJerseyReader();
    const results: string[] = [];
    for (const text of ["23", "7", "10", "45"]) {
      const W = 60, H = 40;
      const buf = Buffer.alloc(W * H * 3);
      for (let i = 0; i < W * H; i++) buf.set(JERSEYS[0].rgb, i * 3);
      drawNumber(buf, W, H, text, W / 2, H / 2, 24, JERSEYS[0].number);
      const r = await reader.read(buf, W, H, { x: 0, y: 0, w: W, h: H });
      results.push(r?.text ?? "");
    }
    expect(results).toEqual(["23", "7", "10", "45"]);
  });
});

describe("the runner's model settings", () => {
  it("are read from the environment once, by modelSettingsFromEnv, and handed to every session (no model file reads the environment)", () => {
    expect(modelSettingsFromEnv({}).session).toEqual({ threads: 1, cpuOnly: false });
    expect(modelSettingsFromEnv({ HOOPS_ORT_THREADS: "2", HOOPS_EXECUTION_PROVIDER: "cpu" }).session).toEqual({ threads: 2, cpuOnly: true });
    // A value that is not a thread count falls back to one thread rather than handing onnxruntime NaN.
    expect(modelSettingsFromEnv({ HOOPS_ORT_THREADS: "many" }).session?.threads).toBe(1);
    for (const file of ["session.ts", "centernet.ts", "detector.ts", "jersey-ocr.ts", "basketball.ts", "model-thread.ts", "model-thread-worker.ts"])
      expect(readFileSync(path.join(import.meta.dirname, "../../gpu-runner/vision", file), "utf8"), file).not.toMatch(/process\.env/);
  });
});
