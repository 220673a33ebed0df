// First pass over a real video: whole frames, letterboxed to the model's square input, a few times a
// second. It finds the people (for tracking and attribution), rim candidates (for the hoop stage)
// and balls that are big enough to see on the whole frame (for releases far from the rim).
import { decodeFrames, letterboxFor, type Letterbox } from "../media/decode.ts";
import type { VideoInfo } from "../media/probe.ts";
import type { BasketballModel, Candidate } from "../vision/basketball.ts";
import { shirtColor, type RGB } from "./teams.ts";

export interface ScanSample {
  /** Timeline frame (at the analysis rate) this sample was taken at. */
  frame: number;
  /** In source pixels. */
  persons: Array<Candidate & { color: RGB }>;
  balls: Candidate[];
  rims: Candidate[];
}

export interface ScanOptions {
  /** Timeline rate (frames per second). */
  fps: number;
  /** One sample every this many timeline frames. */
  every: number;
  /** Square model input side (a multiple of 32). */
  input: number;
  /** Full-resolution stills from the same decode (jersey numbers, closer looks at rims). */
  stills?: { fps: number; onStill: (index: number, rgb: Buffer) => void };
  /** Called with each sample as it is taken (people are tracked while the frame is in memory). */
  onSample?: (sample: ScanSample) => Promise<void> | void;
  signal?: AbortSignal;
  onFrame?: (frame: number) => void;
}

export function toSource(c: Candidate, lb: Letterbox): Candidate {
  return { cx: (c.cx - lb.padX) / lb.scale, cy: (c.cy - lb.padY) / lb.scale, w: c.w / lb.scale, h: c.h / lb.scale, score: c.score };
}

export async function scanVideo(videoPath: string, info: VideoInfo, model: BasketballModel, opts: ScanOptions): Promise<ScanSample[]> {
  const S = opts.input;
  const lb = letterboxFor(info.width, info.height, S, S);
  const samples: ScanSample[] = [];
  for await (const f of decodeFrames(videoPath, info.width, info.height, { width: S, height: S, maxFps: opts.fps / opts.every, signal: opts.signal, stills: opts.stills })) {
    const found = await model.detect(f.rgb, S, S);
    const frame = f.index * opts.every;
    const inPicture = (c: Candidate) => c.cx >= lb.padX && c.cx < lb.padX + lb.innerWidth && c.cy >= lb.padY && c.cy < lb.padY + lb.innerHeight;
    const sample: ScanSample = {
      frame,
      persons: found.persons.filter(inPicture).map((p) => ({ ...toSource(p, lb), color: shirtColor(f.rgb, S, S, p) })),
      balls: found.balls.filter(inPicture).map((b) => toSource(b, lb)),
      rims: found.rims.filter(inPicture).map((r) => toSource(r, lb)),
    };
    samples.push(sample);
    await opts.onSample?.(sample);
    opts.onFrame?.(frame);
  }
  return samples;
}
