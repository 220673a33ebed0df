// People through a video: online tracking of person boxes, and jersey numbers read from
// full-resolution stills split off the same decode. Jersey digits are a few pixels tall in a scaled
// model input, so each still is read where a tracked person stands, a few times a second, while
// the frame is still in memory; stills that arrive too late are dropped, never waited for.
import type { DetectionOf } from "../../vision/detections.ts";
import type { JerseyRead, JerseyReader } from "../../vision/jersey-ocr.ts";
import type { RGB } from "../types.ts";
import { PlayerTracker, type PlayerTrack } from "../rules/tracks.ts";

interface OcrJob {
  track: number;
  crop: { x: number; y: number; w: number; h: number };
}

export interface PlayerObserverOptions {
  /** Timeline rate. */
  fps: number;
  /** Rate of the stills handed to `onStill` (index k is at k / stillFps seconds). */
  stillFps: number;
  /** Source frame size (the stills' size). */
  sourceWidth: number;
  sourceHeight: number;
  /** Person boxes are in model-input pixels: source = (x − padX) / scale. */
  toSource: { scale: number; padX: number; padY: number };
  /** Frames a track may go unseen before it ends. */
  maxMissing: number;
  /** Reads per track after which it is not read again. */
  maxReads?: number;
  /** Smallest person (source pixels tall) worth reading. */
  minReadHeight?: number;
}

export class PlayerObserver {
  readonly tracker: PlayerTracker;
  readonly jerseyReads = new Map<number, JerseyRead[]>();
  private readonly stills = new Map<number, Buffer>();
  private readonly queue = new Map<number, OcrJob[]>();
  private readonly stillEvery: number;

  constructor(private readonly reader: JerseyReader | null, private readonly o: PlayerObserverOptions) {
    this.tracker = new PlayerTracker(o.maxMissing);
    this.stillEvery = o.fps / o.stillFps;
  }

  get tracks(): PlayerTrack[] {
    return this.tracker.tracks;
  }

  /** A full-resolution still arrived from the decoder (bounded: old ones are dropped, not hoarded). */
  onStill(k: number, rgb: Buffer): void {
    if (!this.reader) return;
    this.stills.set(k, rgb);
    for (const old of this.stills.keys()) if (this.stills.size > 12) this.stills.delete(old);
  }

  /** The persons seen at a timeline frame; reads any numbers whose still is in. Returns the assignment. */
  async update(frame: number, persons: ReadonlyArray<DetectionOf<"person"> & { color: RGB }>) {
    const assigned = this.tracker.update(frame, persons);
    if (!this.reader) return assigned;
    const { scale, padX, padY } = this.o.toSource;
    const stillK = Math.round(frame / this.stillEvery);
    if (Math.abs(frame - stillK * this.stillEvery) < 0.5) {
      const jobs: OcrJob[] = [];
      for (const { track, det } of assigned) {
        const hSrc = det.h / scale;
        if ((this.jerseyReads.get(track.id)?.length ?? 0) >= (this.o.maxReads ?? 12) || hSrc < (this.o.minReadHeight ?? 48)) continue;
        const x = (det.cx - padX) / scale, top = (det.cy - det.h / 2 - padY) / scale, wSrc = det.w / scale;
        // The number sits on the chest: 22–46 % of the body box from the top, the middle 80 %.
        jobs.push({ track: track.id, crop: { x: x - wSrc * 0.4, y: top + hSrc * 0.22, w: wSrc * 0.8, h: hSrc * 0.24 } });
      }
      if (jobs.length) this.queue.set(stillK, jobs);
    }
    for (const [k, jobs] of this.queue) {
      const still = this.stills.get(k);
      if (!still) {
        if (k < stillK - 6) this.queue.delete(k); // dropped still: give up on it
        continue;
      }
      for (const job of jobs) {
        const r = await this.reader.read(still, this.o.sourceWidth, this.o.sourceHeight, job.crop);
        if (r) this.jerseyReads.set(job.track, [...(this.jerseyReads.get(job.track) ?? []), r]);
      }
      this.queue.delete(k);
    }
    for (const k of this.stills.keys()) if (k < stillK - 6) this.stills.delete(k);
    return assigned;
  }
}
