// One frame's detections (gpu-runner/vision/detections.ts): the value every real-footage stage hands
// on, and its pure helpers, on small arrays.
import { describe, expect, it } from "vitest";
import { centredIn, fromLetterbox, fromRegion, fromXyxy, nms, ofClass, topK, withData, withMinScore, type Detection, type Detections } from "../../gpu-runner/vision/detections.ts";
import { letterboxFor } from "../../gpu-runner/media/frames.ts";

const box = (className: Detection["className"], cx: number, cy: number, score: number, w = 10, h = w): Detection => ({ className, cx, cy, w, h, score });

describe("a frame's detections", () => {
  const frame: Detections = [box("person", 50, 80, 0.9, 20, 60), box("ball", 10, 10, 0.4), box("ball", 30, 12, 0.7), box("rim", 70, 20, 0.3, 16, 5)];

  it("splits by class, keeping the order", () => {
    expect(ofClass(frame, "ball").map((d) => d.cx)).toEqual([10, 30]);
    expect(ofClass(frame, "rim")).toEqual([frame[3]]);
    expect(ofClass([], "person")).toEqual([]);
  });

  it("keeps the boxes scoring at least a minimum", () => {
    expect(withMinScore(frame, 0.4).map((d) => d.className)).toEqual(["person", "ball", "ball"]);
    expect(withMinScore(frame, 0.95)).toEqual([]);
  });

  it("takes the k best, best first, equal scores in their order", () => {
    expect(topK(frame, 2).map((d) => d.score)).toEqual([0.9, 0.7]);
    const tied = [box("ball", 1, 0, 0.5), box("ball", 2, 0, 0.5), box("ball", 3, 0, 0.6)];
    expect(topK(tied, 3).map((d) => d.cx)).toEqual([3, 1, 2]);
    expect(topK(frame, 0)).toEqual([]);
  });

  it("takes a box given by its corners", () => {
    expect(fromXyxy("rim", [10, 20, 50, 32], 0.8)).toEqual({ className: "rim", cx: 30, cy: 26, w: 40, h: 12, score: 0.8 });
  });

  it("keeps extra data on the boxes of one class only", () => {
    const withMotion = withData(frame, "ball", (d, i) => ({ motion: d.cx + i }));
    expect(ofClass(withMotion, "ball").map((d) => d.motion)).toEqual([11, 32]);
    expect(withMotion[0]).toBe(frame[0]);
    expect("motion" in withMotion[3]).toBe(false);
    // The helpers keep the extra data.
    expect(topK(ofClass(withMotion, "ball"), 1)[0].motion).toBe(32);
  });
});

describe("mapping back to source pixels", () => {
  it("undoes the letterbox of a whole frame", () => {
    // 1280×720 into 512×512: scale 0.4, a 512×288 picture with 112 rows of padding above it.
    const lb = letterboxFor(1280, 720, 512, 512);
    expect(lb).toMatchObject({ scale: 0.4, padX: 0, padY: 112 });
    const [d] = fromLetterbox([box("ball", 256, 256, 0.5, 8)], lb);
    expect(d).toEqual({ className: "ball", cx: 640, cy: 360, w: 20, h: 20, score: 0.5 });
  });

  it("places a region's boxes where the region was cut from", () => {
    // A 256-pixel model input for a 512-pixel region whose corner is at (100, 40): 2 source pixels an input pixel.
    const [d] = fromRegion([{ ...box("ball", 128, 64, 0.5, 12), motion: 7 }], { x: 100, y: 40 }, 2);
    expect(d).toEqual({ className: "ball", cx: 356, cy: 168, w: 24, h: 24, score: 0.5, motion: 7 });
  });

  it("keeps the boxes centred inside a rectangle (the picture inside a letterbox)", () => {
    const picture = { x: 0, y: 112, w: 512, h: 288 };
    const inside = centredIn([box("rim", 10, 111.9, 0.5), box("rim", 10, 112, 0.5), box("rim", 10, 399.9, 0.5), box("rim", 10, 400, 0.5)], picture);
    expect(inside.map((d) => d.cy)).toEqual([112, 399.9]);
  });
});

describe("non-maximum suppression", () => {
  it("keeps the best of overlapping boxes and separate ones", () => {
    const kept = nms([box("ball", 100, 100, 0.8), box("ball", 101, 100, 0.9), box("ball", 300, 50, 0.7)], 0.45);
    expect(kept.map((d) => [d.cx, d.score])).toEqual([[101, 0.9], [300, 0.7]]);
  });

  it("drops a box whose centre lies inside a kept one, even when they overlap little", () => {
    const big = box("person", 100, 100, 0.9, 100, 100), small = box("person", 130, 130, 0.5, 10, 10);
    expect(nms([big, small], 0.45)).toEqual([big]);
  });

  it("bounds the boxes kept", () => {
    const many = Array.from({ length: 80 }, (_, i) => box("ball", i * 100, 0, 1 - i / 100));
    expect(nms(many, 0.45)).toHaveLength(50);
    expect(nms(many, 0.45, { MAX_CANDIDATES: 5, MAX_KEPT: 50 })).toHaveLength(5);
  });
});
