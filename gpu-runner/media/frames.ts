// Where the observation passes get their pictures: a `FrameSource` hands out a video's frames as RGB
// images, whole (letterboxed to a model's input) or a region of each, at a rate, over a stretch. The
// passes (analysis/observe/scan.ts, rim-watch.ts, court-views.ts) take one as a parameter and never
// decode anything themselves: with a video it is ffmpeg (`videoFrames`, media/decode.ts), in a unit
// test it is a few small pictures held in memory (`framesInMemory`), so a pass's own logic is tested
// on small arrays rather than encoded videos. Pure: nothing here spawns a process.
import { cropResize, type RgbImage } from "../vision/image.ts";

/** A stretch of a video, in seconds from its start. */
export interface TimeRange {
  startS: number;
  durationS: number;
}

export interface Letterbox {
  /** Scale from source pixels to output pixels. */
  scale: number;
  /** Offset of the picture inside the padded output, in output pixels. */
  padX: number;
  padY: number;
  /** Size of the picture inside the output. */
  innerWidth: number;
  innerHeight: number;
}

export function letterboxFor(srcW: number, srcH: number, dstW: number, dstH: number): Letterbox {
  const scale = Math.min(dstW / srcW, dstH / srcH);
  // Even sizes: the scaler and some encoders reject odd dimensions.
  const innerWidth = Math.min(dstW, Math.round((srcW * scale) / 2) * 2);
  const innerHeight = Math.min(dstH, Math.round((srcH * scale) / 2) * 2);
  const padX = Math.floor((dstW - innerWidth) / 2);
  const padY = Math.floor((dstH - innerHeight) / 2);
  return { scale: innerWidth / srcW, padX, padY, innerWidth, innerHeight };
}

/**
 * How many timeline frames after its number a sample taken every `every` timeline frames shows:
 * ffmpeg's fps filter (and `framesInMemory`) hands out the *last* picture of each slot centred on the
 * sample's time, so a scan at 5 a second of a 15-frame timeline numbers its samples 0, 3, 6… and
 * shows the pictures 1, 4, 7…; sources faster than the timeline land on the same frame, give or take
 * a source frame. Read where the scan's sightings meet the timeline's own (the rim watch sees every
 * frame), so the two agree on when the ball was where.
 */
export const sampleLagFrames = (every: number): number => sampleShows(0, every);

/**
 * Which source picture (counted from the stretch's first) sample `index` of a pass taking one picture
 * every `every` source pictures shows (`every` need not be whole: a pass every 2 s of a 29.97 fps
 * video): the last of the slot centred on index × every, as above. Past the stretch's end the
 * last picture is shown; the caller, who knows the end, clamps.
 */
export const sampleShows = (index: number, every: number): number => Math.max(Math.round(index * every), Math.ceil((index + 0.5) * every - 1e-9) - 1);

export interface Frame {
  /** 0 for the first frame handed out (of the stretch asked for, at the rate asked for). */
  index: number;
  /** RGB24, width*height*3 bytes, owned by the consumer. */
  rgb: Buffer;
}

export interface WholeFrameOptions {
  /** Output frame size; the source is scaled to fit and padded (letterboxed), keeping its aspect. */
  width: number;
  height: number;
  /** Gray used for padding; 114 matches the Ultralytics letterbox so YOLO models see what they were trained on. */
  padValue?: number;
  /** At most this many frames a second (frames in between are dropped, not blended). */
  maxFps?: number;
  /**
   * Full-resolution RGB stills at `fps` from the same pass (no second decode), for work that needs
   * detail the scaled frames lack (jersey numbers, closer looks at rims). Delivered as they come,
   * never blocking the frames: still k is the picture at k / fps seconds of the stretch.
   */
  stills?: { fps: number; onStill: (index: number, rgb: Buffer) => void };
  /** Only this stretch of the video; frame 0 is the first frame at or after `startS`. */
  range?: TimeRange;
  signal?: AbortSignal;
}

export interface RegionOptions {
  /** Source pixels to keep (even offsets and sizes); the whole frame when absent. */
  crop?: { x: number; y: number; w: number; h: number };
  /** At most this many frames a second. */
  maxFps?: number;
  /** Scale the (cropped) frames to this size (area averaging). */
  scaleTo?: { w: number; h: number };
  /** Only this stretch of the video (see WholeFrameOptions). */
  range?: TimeRange;
  signal?: AbortSignal;
}

/** A video's frames, for the passes that look at them. */
export interface FrameSource {
  /** The source picture's size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Its pictures a second (a variable-rate video's average, as probed): which picture a sample at a lower rate shows depends on it (sampleShows). */
  readonly fps: number;
  /** Whole frames, letterboxed to width×height. */
  wholeFrames(options: WholeFrameOptions): AsyncIterable<Frame>;
  /** The same region of every frame (or the whole frame), at source resolution or scaled. */
  regionFrames(options?: RegionOptions): AsyncIterable<Frame & { width: number; height: number }>;
}

/**
 * A source over pictures already in memory (all of the source's size), `fps` of them a second: for
 * unit tests of the passes on small synthetic pictures. It hands out the pictures the ffmpeg source
 * would for a stretch and a rate (test/gpu-runner/frames.test.ts), letterboxed or cut the same way,
 * and the same stills, though its resampling is vision/image.ts's, not ffmpeg's: pixels may differ a little.
 */
export function framesInMemory(pictures: readonly RgbImage[], fps: number): FrameSource {
  if (!pictures.length) throw new Error("framesInMemory needs at least one picture");
  const { width, height } = pictures[0];
  if (pictures.some((p) => p.width !== width || p.height !== height || p.data.length !== width * height * 3)) throw new Error("every picture must be RGB24 of the first one's size");
  /**
   * The pictures of a stretch at a rate, as ffmpeg hands them out (`-ss`/`-t` before the input, then
   * its fps filter): the stretch starts at the first picture at or after `startS`, its clock at
   * `startS`; output k stands for the slot k / rate, and takes the last picture whose time rounds to
   * it; slots are emitted up to the end of the last picture.
   */
  const pick = (range: TimeRange | undefined, rate: number | undefined): Array<{ picture: RgbImage; t: number }> => {
    const startS = range?.startS ?? 0;
    const first = range ? Math.ceil(startS * fps - 1e-9) : 0;
    const end = range ? Math.min(pictures.length, Math.ceil((startS + range.durationS) * fps - 1e-9)) : pictures.length;
    const time = (j: number) => (first + j) / fps - startS;
    const inRange = pictures.slice(first, Math.max(first, end)).map((picture, j) => ({ picture, t: time(j) }));
    if (!rate || rate >= fps || !inRange.length) return inRange;
    const slots = Math.round((time(inRange.length - 1) + 1 / fps) * rate + 1e-9);
    const out: Array<{ picture: RgbImage; t: number }> = [];
    for (let k = 0, j = 0; k < slots; k++) {
      while (j + 1 < inRange.length && Math.round(time(j + 1) * rate + 1e-9) <= k) j++;
      out.push({ picture: inRange[j].picture, t: k / rate });
    }
    return out;
  };
  const checkAbort = (signal: AbortSignal | undefined) => {
    if (signal?.aborted) throw new Error("aborted");
  };
  return {
    width,
    height,
    fps,
    async *wholeFrames(o) {
      const lb = letterboxFor(width, height, o.width, o.height);
      const pad = o.padValue ?? 114;
      const stills = o.stills ? pick(o.range, o.stills.fps) : [];
      let nextStill = 0;
      for (const [index, { picture, t }] of pick(o.range, o.maxFps).entries()) {
        checkAbort(o.signal);
        // Stills up to this frame's time come first, as ffmpeg's would have by then.
        for (; nextStill < stills.length && stills[nextStill].t <= t + 1e-9; nextStill++) o.stills!.onStill(nextStill, Buffer.from(stills[nextStill].picture.data));
        const inner = cropResize(picture, { x: 0, y: 0, w: width, h: height }, lb.innerWidth, lb.innerHeight);
        const rgb = Buffer.alloc(o.width * o.height * 3, pad);
        for (let y = 0; y < lb.innerHeight; y++) rgb.set(inner.subarray(y * lb.innerWidth * 3, (y + 1) * lb.innerWidth * 3), ((lb.padY + y) * o.width + lb.padX) * 3);
        yield { index, rgb };
      }
      for (; nextStill < stills.length; nextStill++) o.stills!.onStill(nextStill, Buffer.from(stills[nextStill].picture.data));
    },
    async *regionFrames(o = {}) {
      const crop = o.crop ?? { x: 0, y: 0, w: width, h: height };
      const out = o.scaleTo ?? { w: crop.w, h: crop.h };
      for (const [index, { picture }] of pick(o.range, o.maxFps).entries()) {
        checkAbort(o.signal);
        yield { index, rgb: Buffer.from(cropResize(picture, crop, out.w, out.h)), width: out.w, height: out.h };
      }
    },
  };
}
