// First pass over a real video: whole frames, letterboxed to the model's square input, a few times a
// second. It finds the people (for tracking and attribution), rim candidates (for the hoop stage)
// and balls that are big enough to see on the whole frame (for releases far from the rim).
import { decodeFrames, letterboxFor, type DecodedFrame, type Letterbox, type TimeRange } from "../../media/decode.ts";
import type { VideoInfo } from "../../media/probe.ts";
import type { BasketballModel, BasketballObjects, Candidate } from "../../vision/basketball.ts";
import { shirtColor, type RGB } from "../rules/teams.ts";

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
  /** Only this stretch of the video (timeline frame 0 is its start). */
  range?: TimeRange;
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
  const inPicture = (c: Candidate) => c.cx >= lb.padX && c.cx < lb.padX + lb.innerWidth && c.cy >= lb.padY && c.cy < lb.padY + lb.innerHeight;
  const finish = async ({ f, found }: { f: DecodedFrame; found: Promise<BasketballObjects> }) => {
    const objects = await found;
    const frame = f.index * opts.every;
    const sample: ScanSample = {
      frame,
      persons: objects.persons.filter(inPicture).map((p) => ({ ...toSource(p, lb), color: shirtColor(f.rgb, S, S, p) })),
      balls: objects.balls.filter(inPicture).map((b) => toSource(b, lb)),
      rims: objects.rims.filter(inPicture).map((r) => toSource(r, lb)),
    };
    samples.push(sample);
    await opts.onSample?.(sample);
    opts.onFrame?.(frame);
  };
  // One frame in flight: the model looks at frame i while this thread finishes frame i − 1 (people,
  // jersey numbers) and reads the next frame from the decoder; samples are still finished in order.
  let inFlight: { f: DecodedFrame; found: Promise<BasketballObjects> } | null = null;
  for await (const f of decodeFrames(videoPath, info.width, info.height, { width: S, height: S, maxFps: opts.fps / opts.every, range: opts.range, signal: opts.signal, stills: opts.stills })) {
    const next = { f, found: model.detect(f.rgb, S, S) };
    // Awaited in finish(); until then a failure must not count as unhandled.
    next.found.catch(() => {});
    if (inFlight) await finish(inFlight);
    inFlight = next;
  }
  if (inFlight) await finish(inFlight);
  return samples;
}
