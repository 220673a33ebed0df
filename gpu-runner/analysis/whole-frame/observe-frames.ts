// Observation with a whole-frame detector that follows the YOLO export contract (a trained
// basketball model dropped into the model directory, or the colour-filter fixture used for the
// synthetic games): one decode pass, every analysed frame letterboxed to the model input, ball, hoop
// and person boxes on each. Analysis coordinates are the model input's pixels.
import { letterboxFor, type FrameSource } from "../../media/frames.ts";
import type { VideoInfo } from "../../media/probe.ts";
import { ofClass, topK, type Detection, type Detections } from "../../vision/detections.ts";
import type { Detector } from "../../vision/detector.ts";
import type { JerseyReader } from "../../vision/jersey-ocr.ts";
import { findKeyQuad, type KeyColorOptions } from "./court.ts";
import type { KeySample, Observations } from "../observe/observations.ts";
import { PlayerObserver } from "../observe/player-observer.ts";
import { shirtColor } from "../rules/teams.ts";
import { buildBallTrack, buildHoopTracks } from "../rules/tracks.ts";
import type { Point } from "../types.ts";

export interface FrameObserverOptions {
  fps: number;
  keyColor: KeyColorOptions;
  signal?: AbortSignal;
  onFrame?: (frame: number, expected: number) => void;
  timings: { decodeWaitMs: number; detectMs: number; ocrMs: number; courtMs: number; otherPerFrameMs: number; frames: number };
}

export async function observeWholeFrames(source: FrameSource, info: VideoInfo, detector: Detector, reader: JerseyReader | null, o: FrameObserverOptions): Promise<Observations> {
  const W = detector.inputWidth, H = detector.inputHeight;
  const lb = letterboxFor(info.width, info.height, W, H);
  const fps = o.fps;
  const maxFps = fps < info.fps ? fps : undefined;
  const expected = Math.max(1, Math.round(info.durationSeconds * fps));
  const perFrame: Detections[] = [];
  const stillFps = 3;
  const players = new PlayerObserver(reader, {
    fps,
    stillFps,
    sourceWidth: info.width,
    sourceHeight: info.height,
    toSource: { scale: lb.scale, padX: lb.padX, padY: lb.padY },
    maxMissing: Math.round(fps * 0.4),
  });
  const keySamples: KeySample[] = [];
  const keyEvery = Math.max(1, Math.round(fps / 3));
  let lastHoop: Detection | null = null;
  const tm = o.timings;
  let tick = performance.now();
  const lap = (k: "decodeWaitMs" | "detectMs" | "ocrMs" | "courtMs" | "otherPerFrameMs") => {
    const now = performance.now();
    tm[k] += now - tick;
    tick = now;
  };
  for await (const frame of source.wholeFrames({
    width: W,
    height: H,
    maxFps,
    signal: o.signal,
    stills: reader ? { fps: stillFps, onStill: (k, rgb) => players.onStill(k, rgb) } : undefined,
  })) {
    lap("decodeWaitMs");
    tm.frames++;
    const dets = await detector.detect(frame.rgb);
    lap("detectMs");
    const persons = ofClass(dets, "person").map((d) => ({ ...d, color: shirtColor(frame.rgb, W, H, d) }));
    perFrame.push([...dets.filter((d) => d.className !== "person"), ...persons]);
    const [hoop] = topK(ofClass(dets, "rim"), 1);
    if (hoop) lastHoop = hoop;
    lap("otherPerFrameMs");
    if (frame.index % keyEvery === 0 && lastHoop) {
      const quad = findKeyQuad(frame.rgb, W, H, o.keyColor);
      if (quad) keySamples.push({ frame: frame.index, rel: quad.map((p) => [p[0] - lastHoop!.cx, p[1] - lastHoop!.cy] as Point) });
    }
    lap("courtMs");
    await players.update(frame.index, persons);
    lap("ocrMs");
    o.onFrame?.(frame.index, expected);
  }
  return {
    fps,
    frames: perFrame.length,
    frame: lb,
    perFrame,
    rims: buildHoopTracks(perFrame),
    ball: buildBallTrack(perFrame, { maxJump: Math.max(W, H) * 0.08 }),
    rimWatch: null,
    tracks: players.tracks,
    jerseyReads: players.jerseyReads,
    keySamples,
    personEvery: 1,
  };
}
