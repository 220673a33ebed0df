// The two frame sources (media/frames.ts): ffmpeg's over a video file and the one over pictures in
// memory that the passes' unit tests use hand out the same frames for the same request — which
// pictures of a stretch at a rate, letterboxed or cut the same way, the same stills.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { videoFrames } from "../../gpu-runner/media/decode.ts";
import { framesInMemory, sampleLagFrames, sampleShows, type Frame, type FrameSource, type WholeFrameOptions } from "../../gpu-runner/media/frames.ts";
import type { RgbImage } from "../../gpu-runner/vision/image.ts";

async function all<T>(frames: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const f of frames) out.push(f);
  return out;
}

const meanAbsDiff = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

describe("frame sources", () => {
  let video: FrameSource, memory: FrameSource;

  beforeAll(async () => {
    // 2 s at 15 frames a second of a moving test pattern, lossless enough that pixels survive.
    const file = path.join(mkdtempSync(path.join(tmpdir(), "frames-")), "pattern.mp4");
    execFileSync(FFMPEG, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=96x64:r=15:d=2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", file]);
    video = videoFrames(file, { width: 96, height: 64, fps: 15 });
    const pictures: RgbImage[] = (await all(video.regionFrames())).map((f) => ({ data: f.rgb, width: f.width, height: f.height }));
    expect(pictures).toHaveLength(30);
    memory = framesInMemory(pictures, 15);
  });

  /** Each memory frame is the video frame with its index: the nearest of the video's frames around it. */
  const expectSameFrames = (a: Array<Frame>, b: Array<Frame>, tolerance: number) => {
    expect(a.map((f) => f.index)).toEqual(b.map((f) => f.index));
    a.forEach((f, i) => {
      const d = meanAbsDiff(f.rgb, b[i].rgb);
      expect(d, `frame ${i}`).toBeLessThan(tolerance);
      for (const other of [b[i - 1], b[i + 1]]) if (other) expect(meanAbsDiff(f.rgb, other.rgb), `frame ${i} against a neighbour`).toBeGreaterThan(d);
    });
  };

  it("whole frames letterboxed, over a stretch at a lower rate, with stills at their times", async () => {
    const request = (onStill: (k: number, rgb: Buffer) => void): WholeFrameOptions => ({ width: 64, height: 64, maxFps: 5, range: { startS: 0.4, durationS: 1 }, stills: { fps: 3, onStill } });
    const stills = { video: [] as Buffer[], memory: [] as Buffer[] };
    const fromVideo = await all(video.wholeFrames(request((k, rgb) => (stills.video[k] = rgb))));
    const fromMemory = await all(memory.wholeFrames(request((k, rgb) => (stills.memory[k] = rgb))));
    expect(fromVideo).toHaveLength(5);
    // ffmpeg scales bilinearly and the memory source with vision/image.ts's filter: close, not equal.
    expectSameFrames(fromMemory, fromVideo, 12);
    // The padding (rows 0–10 of a 96×64 picture letterboxed into 64×64) is the same grey.
    expect(fromMemory[0].rgb.subarray(0, 64 * 3 * 10)).toEqual(fromVideo[0].rgb.subarray(0, 64 * 3 * 10));
    // Stills at full resolution, the pictures of their times (ffmpeg converts them to RGB its own way: close, not equal).
    expect(stills.video).toHaveLength(3);
    expectSameFrames(stills.memory.map((rgb, index) => ({ index, rgb })), stills.video.map((rgb, index) => ({ index, rgb })), 12);
  });

  it("picks the pictures ffmpeg's fps filter picks: the last of each slot, up to the end of the stretch", async () => {
    const shown = async (source: FrameSource, maxFps: number, range?: { startS: number; durationS: number }) => {
      const out: number[] = [];
      // Which of the 30 pictures each frame is (cut, not scaled: exact where the pixels are).
      const pictures = await all(memory.regionFrames());
      for await (const f of source.regionFrames({ maxFps, range })) out.push(pictures.findIndex((p) => meanAbsDiff(p.rgb, f.rgb) < 1));
      return out;
    };
    for (const [maxFps, range] of [[5, { startS: 0.4, durationS: 1 }], [3, { startS: 0.4, durationS: 1 }], [5, { startS: 0.5, durationS: 0.7 }], [5, undefined], [15, { startS: 0.4, durationS: 1 }]] as const) {
      const fromVideo = await shown(video, maxFps, range);
      expect(fromVideo.length, `${maxFps}/s over ${JSON.stringify(range)}`).toBeGreaterThan(2);
      expect(await shown(memory, maxFps, range), `${maxFps}/s over ${JSON.stringify(range)}`).toEqual(fromVideo);
    }
    // As measured on ffmpeg: 5 a second from 0.4 s shows the second picture of each three.
    expect(await shown(video, 5, { startS: 0.4, durationS: 1 })).toEqual([7, 10, 13, 16, 19]);
  });

  it("a sample taken every `every` frames shows the picture sampleLagFrames(every) after its number", async () => {
    const pictures = await all(memory.regionFrames());
    for (const every of [1, 2, 3, 5]) {
      const shown: number[] = [];
      for await (const f of video.regionFrames({ maxFps: 15 / every })) shown.push(pictures.findIndex((p) => meanAbsDiff(p.rgb, f.rgb) < 1));
      expect(shown.slice(0, 4), `every ${every}`).toEqual([0, 1, 2, 3].map((k) => Math.min(29, every * k + sampleLagFrames(every))));
    }
  });

  it("a pass at a rate that does not divide the video's shows the pictures sampleShows says", async () => {
    const pictures = await all(memory.regionFrames());
    // 2 a second of a 15-frame video: one picture every 7.5, each the last of its slot.
    for (const source of [video, memory]) {
      const shown: number[] = [];
      for await (const f of source.regionFrames({ maxFps: 2 })) shown.push(pictures.findIndex((p) => meanAbsDiff(p.rgb, f.rgb) < 1));
      expect(shown).toEqual([3, 11, 18, 26]);
      expect(shown).toEqual([0, 1, 2, 3].map((k) => sampleShows(k, 7.5)));
    }
  });

  it("a region of every frame, cut and scaled", async () => {
    const request = { crop: { x: 20, y: 10, w: 40, h: 30 }, scaleTo: { w: 20, h: 16 }, range: { startS: 1, durationS: 0.5 } };
    const fromVideo = await all(video.regionFrames(request));
    const fromMemory = await all(memory.regionFrames(request));
    expect(fromMemory.map((f) => [f.width, f.height])).toEqual(fromVideo.map((f) => [f.width, f.height]));
    expect(fromVideo).toHaveLength(8);
    expectSameFrames(fromMemory, fromVideo, 12);
  });
});
