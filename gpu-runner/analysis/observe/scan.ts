// First pass over a real video: whole frames, letterboxed to the model's square input, a few times a
// second. It finds the people (for tracking and attribution), rim candidates (for the hoop stage)
// and balls that are big enough to see on the whole frame (for releases far from the rim).
import { letterboxFor, type Frame, type FrameSource, type TimeRange } from "../../media/frames.ts";
import type { BasketballModel } from "../../vision/basketball.ts";
import { centredIn, fromLetterbox, withData, type Detections } from "../../vision/detections.ts";
import { shirtColor } from "../rules/teams.ts";
import type { RGB } from "../types.ts";

/** What the scan saw on a whole frame, in source pixels: people (each with its shirt colour), balls and rim candidates. */
export type ScanDetections = Detections<{ color: RGB }, "person">;

export interface ScanSample {
  /** Timeline frame (at the analysis rate) this sample was taken at. */
  frame: number;
  detections: ScanDetections;
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

/**
 * A few full-resolution stills spread over a pass (closer looks at rim candidates): keeps every
 * step-th still and doubles the step whenever it holds more than `keep`, so however long the pass,
 * what it keeps is spread over all of it without knowing the length in advance.
 */
export class StillsReservoir {
  private step = 1;
  private held: Array<{ frame: number; k: number; rgb: Buffer }> = [];
  /** `frameOf`: the timeline frame of still k. */
  constructor(private readonly keep: number, private readonly frameOf: (k: number) => number) {}

  offer(k: number, rgb: Buffer): void {
    if (k % this.step) return;
    this.held.push({ frame: this.frameOf(k), k, rgb });
    if (this.held.length > this.keep) {
      this.step *= 2;
      this.held = this.held.filter((s) => s.k % this.step === 0);
    }
  }

  /** The stills kept so far, oldest first. */
  get stills(): ReadonlyArray<{ frame: number; k: number; rgb: Buffer }> {
    return this.held;
  }

  /** Lets go of the pictures. */
  clear(): void {
    this.held = [];
  }
}

export async function scanVideo(source: FrameSource, model: BasketballModel, opts: ScanOptions): Promise<ScanSample[]> {
  const S = opts.input;
  const lb = letterboxFor(source.width, source.height, S, S);
  const samples: ScanSample[] = [];
  // The picture inside the letterbox: boxes centred on the padding are not in the video.
  const picture = { x: lb.padX, y: lb.padY, w: lb.innerWidth, h: lb.innerHeight };
  const finish = async ({ f, found }: { f: Frame; found: Promise<Detections> }) => {
    const seen = centredIn(await found, picture);
    const frame = f.index * opts.every;
    // Shirt colours are read on the model input, where the boxes are before they are mapped back.
    const sample: ScanSample = { frame, detections: withData(fromLetterbox(seen, lb), "person", (_, i) => ({ color: shirtColor(f.rgb, S, S, seen[i]) })) };
    samples.push(sample);
    await opts.onSample?.(sample);
    opts.onFrame?.(frame);
  };
  // One frame in flight: the model looks at frame i while this thread finishes frame i − 1 (people,
  // jersey numbers) and reads the next frame from the decoder; samples are still finished in order.
  let inFlight: { f: Frame; found: Promise<Detections> } | null = null;
  for await (const f of source.wholeFrames({ width: S, height: S, maxFps: opts.fps / opts.every, range: opts.range, signal: opts.signal, stills: opts.stills })) {
    const next = { f, found: model.detect(f.rgb, S, S) };
    // Awaited in finish(); until then a failure must not count as unhandled.
    next.found.catch(() => {});
    if (inFlight) await finish(inFlight);
    inFlight = next;
  }
  if (inFlight) await finish(inFlight);
  return samples;
}
