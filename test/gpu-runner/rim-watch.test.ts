import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { roiAround, watchRims } from "../../gpu-runner/analysis/observe/rim-watch.ts";
import { peakBlockMotion, registerShift } from "../../gpu-runner/vision/motion.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { videoFrames } from "../../gpu-runner/media/decode.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import type { BasketballModel } from "../../gpu-runner/vision/basketball.ts";
import { framesInMemory } from "../../gpu-runner/media/frames.ts";
import { ofClass } from "../../gpu-runner/vision/detections.ts";
import { blobModel, copyPicture, drawDisc, ORANGE, texturedPicture } from "./blob-model.ts";

/** A smooth, non-repeating luma texture (like foliage or a crowd, not a periodic pattern). */
function texture(S: number, ox = 0, oy = 0): Float32Array {
  const out = new Float32Array(S * S);
  for (let y = 0; y < S; y++)
    for (let x = 0; x < S; x++) {
      const u = x + ox, v = y + oy;
      out[y * S + x] = 128 + 40 * Math.sin(u / 7.3 + Math.cos(v / 11.1)) + 30 * Math.cos(v / 5.7 - u / 13.9) + 20 * Math.sin((u * v) / 900);
    }
  return out;
}

describe("registerShift", () => {
  it("finds the whole-pixel shift between a region and its reference", () => {
    const ref = texture(128);
    for (const [dx, dy] of [[0, 0], [5, -3], [-9, 7], [12, 12]]) {
      // image(x + dx, y + dy) = ref(x, y)  ⇔  image = texture shifted by −(dx, dy)
      const image = texture(128, -dx, -dy);
      expect(registerShift(image, ref, 128, 13)).toEqual({ dx, dy });
    }
  });

  it("stays put on a region with nothing to line up (flat sky)", () => {
    const flat = new Float32Array(128 * 128).fill(200);
    expect(registerShift(flat, flat, 128, 13)).toEqual({ dx: 0, dy: 0 });
  });
});

describe("peakBlockMotion", () => {
  it("shows a ball-sized change that is a sliver of the region's mean", () => {
    const S = 128;
    const a = new Uint8Array(S * S * 3).fill(90);
    const b = new Uint8Array(S * S * 3).fill(90);
    for (let y = 40; y < 64; y++) for (let x = 70; x < 94; x++) b.set([230, 120, 40], (y * S + x) * 3);
    expect(peakBlockMotion(a, a, S)).toBe(0);
    expect(peakBlockMotion(a, b, S)).toBeGreaterThan(60);
  });
});

describe("roiAround", () => {
  it("is seven rim widths, above the ring more than below, and inside the frame", () => {
    const r = roiAround({ cx: 640, cy: 300, w: 40, h: 12 }, 1280, 720, 7);
    expect(r.w).toBe(280);
    expect(r.y + r.h / 2).toBeLessThan(300);
    const edge = roiAround({ cx: 10, cy: 10, w: 40, h: 12 }, 1280, 720, 7);
    expect(edge.x).toBe(0);
    expect(edge.y).toBe(0);
  });
});

describe("watchRims on a shaking camera", () => {
  it("measures the camera's movement that the rim track does not follow, and the region stays calm once lined up", async () => {
    // A still picture filmed by a camera that shakes: each frame is a crop whose corner moves.
    const dir = mkdtempSync(path.join(tmpdir(), "rim-watch-"));
    const still = path.join(dir, "still.png");
    const video = path.join(dir, "shake.mp4");
    execFileSync(FFMPEG, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=720x420", "-frames:v", "1", still]);
    const ox = (t: number) => 40 + 14 * Math.sin(2 * Math.PI * 1.5 * t);
    const oy = (t: number) => 30 + 10 * Math.cos(2 * Math.PI * 1.1 * t);
    execFileSync(FFMPEG, [
      "-v", "error", "-loop", "1", "-framerate", "15", "-i", still, "-t", "2",
      "-vf", "crop=640:360:'40+14*sin(2*PI*1.5*t)':'30+10*cos(2*PI*1.1*t)',format=yuv420p",
      "-c:v", "libx264", "-crf", "12", "-preset", "veryfast", video,
    ]);
    const info = await probe(video);
    const nothing: BasketballModel = { detect: async () => [] };
    const frames = 30;
    const rim = { id: 0, coverage: 1, meanScore: 0.5, detections: 10, fixed: true, boxes: Array.from({ length: frames }, () => ({ cx: 320, cy: 200, w: 60, h: 18 })) };
    const watched = await watchRims(videoFrames(video, info), nothing, [rim], frames, { fps: 15, input: 256, widths: 7 });
    const unaligned = await watchRims(videoFrames(video, info), nothing, [rim], frames, { fps: 15, input: 256, widths: 7, settings: { MAX_SHIFT_SHARE: 0 } });
    let close = 0;
    for (let f = 1; f < frames; f++) {
      const t = f / 15;
      const { dx, dy } = watched[f][0].shift;
      // image(x + dx) ≈ reference(x): the content moved by −(offset change), the shift says so.
      if (Math.abs(dx - (ox(0) - ox(t))) <= 3 && Math.abs(dy - (oy(0) - oy(t))) <= 3) close++;
    }
    expect(close).toBeGreaterThanOrEqual(frames - 4);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const calm = mean(watched.slice(5).map((w) => w[0].roiMotion));
    const shaken = mean(unaligned.slice(5).map((w) => w[0].roiMotion));
    expect(calm).toBeLessThan(shaken / 2);
    // Lined up, nothing in the region moves: the model looked at about one frame in three.
    expect(watched.filter((w) => w[0].looked).length).toBeLessThanOrEqual(frames / 2);
  });

  it("a pan that takes the rim across a region held inside the frame: the track's move is no camera movement", async () => {
    // The camera pans 3 pixels a frame; the rim, near the right edge, moves left with the picture and
    // the track follows it exactly. Its region (seven widths) would reach past the frame, so it stands
    // still against the frame's edge while the rim crosses it (issue 24: a phone pan lost its only rim).
    const dir = mkdtempSync(path.join(tmpdir(), "rim-watch-"));
    const still = path.join(dir, "still.png");
    const video = path.join(dir, "pan.mp4");
    execFileSync(FFMPEG, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=760x420", "-frames:v", "1", still]);
    execFileSync(FFMPEG, ["-v", "error", "-loop", "1", "-framerate", "15", "-i", still, "-t", "2", "-vf", "crop=640:360:'20+3*n':30,format=yuv420p", "-c:v", "libx264", "-crf", "12", "-preset", "veryfast", video]);
    const info = await probe(video);
    const nothing: BasketballModel = { detect: async () => [] };
    const frames = 30;
    const rimAt = (f: number) => ({ cx: 560 - 3 * f, cy: 200, w: 40, h: 12 });
    const rim = { id: 0, coverage: 1, meanScore: 0.5, detections: 10, fixed: false, boxes: Array.from({ length: frames }, (_, f) => rimAt(f)) };
    // The region stands still for the first part of the pan.
    expect(roiAround(rimAt(0), 640, 360, 7).x).toBe(roiAround(rimAt(10), 640, 360, 7).x);
    const watched = await watchRims(videoFrames(video, info), nothing, [rim], frames, { fps: 15, input: 256, widths: 7 });
    const off = watched.slice(1).filter((w) => Math.hypot(w[0].shift.dx, w[0].shift.dy) > 3);
    expect(off.map((w) => w[0].shift), "the camera movement the track did not follow").toEqual([]);
  });

  it("looks at every frame while something moves through the region", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rim-watch-"));
    const video = path.join(dir, "pass.mp4");
    // A still scene; an orange square crosses it between 1.0 and 1.6 s.
    execFileSync(FFMPEG, [
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=15:d=2.4", "-f", "lavfi", "-i", "color=c=0xe07020:s=36x36:r=15:d=2.4",
      "-filter_complex", "[0:v]trim=end_frame=1,loop=loop=40:size=1:start=0,setpts=N/15/TB[bg];[bg][1:v]overlay=x='if(between(t,1,1.6),100+700*(t-1),-100)':y=150,format=yuv420p",
      "-t", "2.4", "-c:v", "libx264", "-crf", "12", "-preset", "veryfast", video,
    ]);
    const info = await probe(video);
    let calls = 0;
    const counting: BasketballModel = { detect: async () => (calls++, []) };
    const frames = 36;
    const rim = { id: 0, coverage: 1, meanScore: 0.5, detections: 10, fixed: true, boxes: Array.from({ length: frames }, () => ({ cx: 320, cy: 200, w: 60, h: 18 })) };
    // A 128 input for a 360-pixel region: ffmpeg shrinks the frames before the crop (the path large regions take).
    const watched = await watchRims(videoFrames(video, info), counting, [rim], frames, { fps: 15, input: 128, widths: 7 });
    const looked = watched.map((w) => w[0]?.looked ?? false);
    expect(calls).toBe(looked.filter(Boolean).length);
    // While the square crosses (frames 16–23, inside the region) every frame is looked at …
    for (let f = 16; f <= 23; f++) expect(looked[f], `frame ${f}`).toBe(true);
    // … and before it comes, about one in three.
    expect(looked.slice(3, 15).filter(Boolean).length).toBeLessThanOrEqual(5);
  });
});

// The same pass on small pictures held in memory (media/frames.ts) and a stand-in model that finds the
// orange discs drawn on them (blob-model.ts): the model's looks and what comes back, frame by frame.
describe("watchRims on pictures in memory", () => {
  const W = 320, H = 240, frames = 30;
  // A rim at (160, 130), 30 px wide: its region is 210 px square from (55, 10), 1.64 source pixels an input pixel at 128.
  const rim = { id: 0, coverage: 1, meanScore: 0.5, detections: 10, fixed: true, boxes: Array.from({ length: frames }, () => ({ cx: 160, cy: 130, w: 30, h: 9 })) };
  const options = { fps: 15, input: 128, widths: 7 };
  const still = texturedPicture(W, H);
  const looks = (samples: Array<Array<{ looked: boolean }>>) => samples.flatMap((s, f) => (s[0].looked ? [f] : []));

  it("looks at one frame in three while nothing moves, at every frame when told to", async () => {
    const model = blobModel();
    const watched = await watchRims(framesInMemory(Array.from({ length: frames }, () => still), 15), model, [rim], frames, options);
    expect(watched.map((s) => s[0].roi)[0]).toEqual({ x: 55, y: 10, w: 210, h: 210 });
    expect(looks(watched)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    expect(model.calls).toBe(10);
    expect(watched.every((s) => s[0].detections.length === 0 && s[0].roiMotion === 0 && s[0].shift.dx === 0)).toBe(true);
    const always = await watchRims(framesInMemory(Array.from({ length: frames }, () => still), 15), blobModel(), [rim], frames, { ...options, settings: { CALM_EVERY_FRAMES: 1 } });
    expect(looks(always)).toHaveLength(frames);
  });

  it("keeps looking for half a second after the model saw a ball, then calms down again", async () => {
    // The model's third look (frame 6) answers a ball in the middle of the region's upper half.
    const ballOnThirdLook = blobModel({ extra: (call) => (call === 2 ? [{ className: "ball", cx: 64, cy: 40, w: 10, h: 10, score: 0.5 }] : []) });
    const watched = await watchRims(framesInMemory(Array.from({ length: frames }, () => still), 15), ballOnThirdLook, [rim], frames, options);
    // 0, 3, 6; then every frame up to 6 + 7.5; then one in three from the last look (13).
    expect(looks(watched)).toEqual([0, 3, 6, 7, 8, 9, 10, 11, 12, 13, 16, 19, 22, 25, 28]);
    // Back in source pixels: the region's corner plus 1.640625 source pixels an input pixel.
    const [ball] = ofClass(watched[6][0].detections, "ball");
    expect(ball).toMatchObject({ cx: 55 + 64 * 1.640625, cy: 10 + 40 * 1.640625, w: 10 * 1.640625, score: 0.5 });
    // Nothing moved there: a ball the model imagines on a still picture stands out from nothing.
    expect(ball.motion).toBeLessThan(1);
  });

  it("tells a moving ball from a look-alike that never moves, and looks at every frame while it crosses", async () => {
    // A static orange logo in the region all along; a ball crosses it from frame 12 to 17.
    const logo = drawDisc(copyPicture(still), 110, 60, 6, ORANGE);
    const ballAt = (f: number) => ({ cx: 80 + 22 * (f - 12), cy: 120 });
    const pictures = Array.from({ length: frames }, (_, f) => (f >= 12 && f <= 17 ? drawDisc(copyPicture(logo), ballAt(f).cx, ballAt(f).cy, 10, ORANGE) : logo));
    const watched = await watchRims(framesInMemory(pictures, 15), blobModel(), [rim], frames, { ...options, settings: { WAKE_BALL_S: 0 } });
    for (let f = 12; f <= 17; f++) {
      expect(watched[f][0].looked, `frame ${f}`).toBe(true);
      const balls = ofClass(watched[f][0].detections, "ball");
      const moving = balls.find((b) => Math.hypot(b.cx - ballAt(f).cx, b.cy - ballAt(f).cy) <= 3);
      const still = balls.find((b) => Math.hypot(b.cx - 110, b.cy - 60) <= 3);
      expect(moving, `the ball at frame ${f}`).toBeDefined();
      expect(still, `the logo at frame ${f}`).toBeDefined();
      expect(moving!.motion).toBeGreaterThan(40);
      expect(still!.motion).toBeLessThan(4);
    }
    // Before the ball comes, with a ball seen not keeping it awake (WAKE_BALL_S 0): one frame in three.
    expect(looks(watched).filter((f) => f < 12)).toEqual([0, 3, 6, 9]);
  });
});
