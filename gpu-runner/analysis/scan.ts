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
  /** Keep up to this many full-resolution stills, spread over the video (for closer looks at rims). */
  stills?: number;
  signal?: AbortSignal;
  onFrame?: (frame: number) => void;
}

export interface Still {
  /** Timeline frame. */
  frame: number;
  rgb: Buffer;
}

export function toSource(c: Candidate, lb: Letterbox): Candidate {
  return { cx: (c.cx - lb.padX) / lb.scale, cy: (c.cy - lb.padY) / lb.scale, w: c.w / lb.scale, h: c.h / lb.scale, score: c.score };
}

export async function scanVideo(videoPath: string, info: VideoInfo, model: BasketballModel, opts: ScanOptions): Promise<{ samples: ScanSample[]; stills: Still[] }> {
  const S = opts.input;
  const lb = letterboxFor(info.width, info.height, S, S);
  const samples: ScanSample[] = [];
  // Stills come twice a second from the same decode; a reservoir keeps every step-th one, doubling
  // the step whenever it is full, so any length of video ends with a few spread over all of it.
  const maxStills = opts.stills ?? 0;
  const stillFps = 2;
  let step = 1;
  let stills: Still[] = [];
  const onStill = (k: number, rgb: Buffer) => {
    if (k % step) return;
    stills.push({ frame: Math.round((k / stillFps) * opts.fps), rgb });
    if (stills.length > maxStills) {
      step *= 2;
      stills = stills.filter((s) => Math.round((s.frame / opts.fps) * stillFps) % step === 0);
    }
  };
  for await (const f of decodeFrames(videoPath, info.width, info.height, { width: S, height: S, maxFps: opts.fps / opts.every, signal: opts.signal, stills: maxStills ? { fps: stillFps, onStill } : undefined })) {
    const found = await model.detect(f.rgb, S, S);
    const frame = f.index * opts.every;
    const inPicture = (c: Candidate) => c.cx >= lb.padX && c.cx < lb.padX + lb.innerWidth && c.cy >= lb.padY && c.cy < lb.padY + lb.innerHeight;
    samples.push({
      frame,
      persons: found.persons.filter(inPicture).map((p) => ({ ...toSource(p, lb), color: shirtColor(f.rgb, S, S, p) })),
      balls: found.balls.filter(inPicture).map((b) => toSource(b, lb)),
      rims: found.rims.filter(inPicture).map((r) => toSource(r, lb)),
    });
    opts.onFrame?.(frame);
  }
  return { samples, stills };
}
