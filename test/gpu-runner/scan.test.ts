// The whole-frame scan (analysis/observe/scan.ts) on small pictures held in memory (media/frames.ts,
// framesInMemory) with a stand-in model that finds what is drawn: its sampling, the letterbox
// mapped back to source pixels, shirt colours, the order of samples with a model answering late, and
// the stills it keeps for closer looks.
import { describe, expect, it } from "vitest";
import { scanVideo, StillsReservoir, type ScanSample } from "../../gpu-runner/analysis/observe/scan.ts";
import { framesInMemory } from "../../gpu-runner/media/frames.ts";
import { ofClass } from "../../gpu-runner/vision/detections.ts";
import { BLUE, blobModel, copyPicture, drawDisc, drawRect, ORANGE, texturedPicture } from "./blob-model.ts";

// 30 pictures (2 s at 15 a second) of 160×90: a player in blue walking right, a ball flying left.
const FPS = 15, W = 160, H = 90;
const personAt = (f: number) => ({ x: 20 + 2 * f, y: 30, w: 16, h: 40 });
const ballAt = (f: number) => ({ cx: 140 - 3 * f, cy: 20 + f });
const pictures = Array.from({ length: 30 }, (_, f) => {
  const p = copyPicture(texturedPicture(W, H));
  const person = personAt(f);
  drawRect(p, person.x, person.y, person.w, person.h, BLUE);
  const ball = ballAt(f);
  return drawDisc(p, ball.cx, ball.cy, 5, ORANGE);
});

// ffmpeg's fps filter (and so the frame source) hands out the last picture of each fifth of a second:
// sample k (timeline frame 3k) shows the picture at frame 3k + 1, and still k at 5 a second too.
const shownAt = (frame: number) => frame + 1;

describe("scanVideo", () => {
  it("samples every `every`-th timeline frame and maps what the model saw back to source pixels", async () => {
    // 160×90 letterboxed into 128×128: a 128×72 picture (scale 0.8) with 28 rows of padding above.
    const samples = await scanVideo(framesInMemory(pictures, FPS), blobModel(), { fps: FPS, every: 3, input: 128 });
    expect(samples.map((s) => s.frame)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    for (const s of samples) {
      const [person] = ofClass(s.detections, "person");
      const p = personAt(shownAt(s.frame));
      // Source pixels, within what a 0.8 resampling blurs at the edges.
      expect(Math.abs(person.cx - (p.x + p.w / 2)), `person at frame ${s.frame}`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(person.cy - (p.y + p.h / 2))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(person.h - p.h)).toBeLessThanOrEqual(2.5);
      // The shirt colour is read off the model input, in the person's box.
      expect(person.color[2]).toBeGreaterThan(180);
      expect(person.color[0]).toBeLessThan(70);
      const [ball] = ofClass(s.detections, "ball");
      const b = ballAt(shownAt(s.frame));
      expect(Math.hypot(ball.cx - b.cx, ball.cy - b.cy), `ball at frame ${s.frame}`).toBeLessThanOrEqual(1.5);
      expect("color" in ball).toBe(false);
    }
  });

  it("keeps what is in the picture and drops what the model finds on the letterbox's padding", async () => {
    // A rim candidate inside the picture (input y 64) and one on the padding above it (input y 10).
    const rims = () => [{ className: "rim" as const, cx: 64, cy: 64, w: 12, h: 4, score: 0.3 }, { className: "rim" as const, cx: 64, cy: 10, w: 12, h: 4, score: 0.5 }];
    const samples = await scanVideo(framesInMemory(pictures.slice(0, 3), FPS), blobModel({ extra: rims }), { fps: FPS, every: 3, input: 128 });
    expect(samples).toHaveLength(1);
    expect(ofClass(samples[0].detections, "rim")).toEqual([{ className: "rim", cx: 80, cy: 45, w: 15, h: 5, score: 0.3 }]);
  });

  it("finishes samples in frame order while the model answers out of order", async () => {
    const seen: number[] = [];
    // Even calls answer slowly, odd ones at once: the next frame's answer comes back first.
    const slowEven = blobModel({ delayMs: (call) => (call % 2 ? 0 : 15) });
    const samples = await scanVideo(framesInMemory(pictures, FPS), slowEven, { fps: FPS, every: 3, input: 128, onSample: (s: ScanSample) => void seen.push(s.frame) });
    expect(seen).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    expect(samples.map((s) => s.frame)).toEqual(seen);
    expect(samples.every((s) => Math.abs(ofClass(s.detections, "ball")[0].cx - ballAt(shownAt(s.frame)).cx) <= 1.5)).toBe(true);
  });

  it("keeps a few full-resolution stills spread over the whole pass, from the same pass", async () => {
    const reservoir = new StillsReservoir(6, (k) => Math.round((k / 5) * FPS));
    await scanVideo(framesInMemory(pictures, FPS), blobModel(), { fps: FPS, every: 3, input: 128, stills: { fps: 5, onStill: (k, rgb) => reservoir.offer(k, rgb) } });
    // Ten stills (5 a second for 2 s); the seventh doubles the step: every second one is kept.
    expect(reservoir.stills.map((s) => s.k)).toEqual([0, 2, 4, 6, 8]);
    expect(reservoir.stills.map((s) => s.frame)).toEqual([0, 6, 12, 18, 24]);
    // At source resolution, the picture of its time.
    for (const s of reservoir.stills) expect(Buffer.compare(s.rgb, Buffer.from(pictures[shownAt(s.frame)].data))).toBe(0);
    reservoir.clear();
    expect(reservoir.stills).toEqual([]);
  });
});

describe("StillsReservoir", () => {
  it("holds at most `keep` stills, spread evenly however many come", () => {
    for (const count of [3, 7, 20, 100]) {
      const r = new StillsReservoir(6, (k) => 10 * k);
      for (let k = 0; k < count; k++) r.offer(k, Buffer.alloc(1));
      const ks = r.stills.map((s) => s.k);
      expect(ks.length).toBeLessThanOrEqual(6);
      expect(ks[0]).toBe(0);
      // Evenly spaced, and reaching past half of what came.
      const step = ks[1] - ks[0];
      expect(ks.every((k, i) => k === i * step)).toBe(true);
      expect(ks[ks.length - 1]).toBeGreaterThanOrEqual((count - 1) / 2);
    }
  });
});
