// Observation windows (analysis/observe/windows.ts) and scene cuts (media/scenes.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assembleRealObservations, joinWindows, shownFrames } from "../../gpu-runner/analysis/observe/real-footage.ts";
import { sampleLagFrames } from "../../gpu-runner/media/frames.ts";
import { hoopBoxAt } from "../../gpu-runner/analysis/rules/tracks.ts";
import { planWindows } from "../../gpu-runner/analysis/observe/windows.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { findSceneCuts, parseSceneTimes } from "../../gpu-runner/media/scenes.ts";

describe("planWindows", () => {
  it("keeps a short video with no cut as one window", () => {
    expect(planWindows(150, [], 15, { WINDOW_S: 40, MARGIN_S: 4 })).toEqual([{ scene: 0, core: [0, 150], span: [0, 150] }]);
  });

  it("never lets a window cross a cut, and ignores cuts outside the timeline", () => {
    const w = planWindows(300, [200, 120, 0, 300, 120], 15, { WINDOW_S: 40, MARGIN_S: 4 });
    expect(w).toEqual([
      { scene: 0, core: [0, 120], span: [0, 120] },
      { scene: 1, core: [120, 200], span: [120, 200] },
      { scene: 2, core: [200, 300], span: [200, 300] },
    ]);
  });

  it("splits a long scene into equal cores that tile it, with margins inside the scene", () => {
    // 100 s at 10 fps, windows of at most 40 s: three cores of 33–34 s, margins of 4 s.
    const w = planWindows(1000, [], 10, { WINDOW_S: 40, MARGIN_S: 4 });
    expect(w.map((x) => x.core)).toEqual([[0, 333], [333, 667], [667, 1000]]);
    expect(w.map((x) => x.span)).toEqual([[0, 373], [293, 707], [627, 1000]]);
    // Cores tile the timeline: every frame belongs to exactly one.
    for (let i = 1; i < w.length; i++) expect(w[i].core[0]).toBe(w[i - 1].core[1]);
  });
});

describe("scene cuts", () => {
  it("reads cut times from ffmpeg's metadata output, merging cuts closer than a minimum scene", () => {
    const text = "frame:0    pts:64512   pts_time:4.2\nlavfi.scene_score=0.906\nframe:1 pts:1 pts_time:4.4\nlavfi.scene_score=0.8\nframe:2 pts:2 pts_time:9\n";
    expect(parseSceneTimes(text, 0.5)).toEqual([4.2, 9]);
  });

  it("finds the cut between two different shots and none inside one shot", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "scenes-"));
    const file = path.join(dir, "two-shots.mp4");
    // 2 s of a test pattern, then 2 s of colour bars: a hard cut at 2 s; the moving pattern itself is no cut.
    execFileSync(FFMPEG, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-f", "lavfi", "-i", "smptehdbars=size=320x240:rate=25:duration=2",
      "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]", "-map", "[v]", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", file]);
    const cuts = await findSceneCuts(file);
    expect(cuts).toHaveLength(1);
    expect(cuts[0]).toBeCloseTo(2, 1);
  });
});

describe("joinWindows", () => {
  const box = (cx: number, cy: number) => ({ cx, cy, w: 40, h: 12 });
  const rimOf = (frames: number, cx: number, cy: number) => ({ id: 0, coverage: 1, meanScore: 0.5, detections: 10, fixed: true, verification: 0.4, boxes: Array.from({ length: frames }, () => box(cx, cy)) });
  const watchSample = (tag: number) => ({ detections: [{ className: "ball" as const, cx: tag, cy: 0, w: 10, h: 10, score: 0.5, motion: 9 }], roi: { x: 0, y: 0, w: 100, h: 100 }, netMotion: tag, roiMotion: 0, shift: { dx: 0, dy: 0 }, looked: true });
  /** A window's raw observation: every frame's watch sample tagged with its global frame. */
  const raw = (span: [number, number], rims: Array<[number, number]>) => ({
    fps: 10, every: 2, width: 640, height: 360,
    scan: Array.from({ length: Math.ceil((span[1] - span[0]) / 2) }, (_, i) => ({ frame: 2 * i, detections: [] })),
    rims: rims.map(([cx, cy]) => rimOf(span[1] - span[0], cx, cy)),
    candidates: [],
    watch: Array.from({ length: span[1] - span[0] }, (_, f) => rims.map(() => watchSample(span[0] + f))),
    tracks: [{ id: 1, frames: [0, 1], boxes: [box(1, 1), box(1, 1)], colors: [[0, 0, 0] as [number, number, number], [0, 0, 0] as [number, number, number]], jerseyReads: [] }],
    jerseyReads: [[1, [{ text: "7", confidence: 0.9 }]]] as Array<[number, Array<{ text: string; confidence: number }>]>,
    cuts: [],
    timings: { scanMs: 1, watchMs: 2 },
  });

  it("takes every frame from the window whose core holds it, and one rim across windows of a scene", () => {
    const w = planWindows(100, [], 10, { WINDOW_S: 5, MARGIN_S: 1 });
    expect(w).toHaveLength(2);
    const joined = joinWindows(w.map((window) => ({ window, raw: raw(window.span, [[300, 100]]) })), 100, []);
    expect(joined.rims).toHaveLength(1);
    expect(joined.rims[0].active).toEqual([[0, 100]]);
    // Frame f's sample is the one its core's window took at f (the margins' samples are dropped).
    expect(joined.watch.map((s) => s[0].netMotion)).toEqual(Array.from({ length: 100 }, (_, f) => f));
    // Scan samples every second frame of each span: 0–48 from the first core, 50–98 from the second.
    expect(joined.scan.map((s) => s.frame)).toEqual(Array.from({ length: 50 }, (_, i) => 2 * i));
    expect(joined.timings).toEqual({ scanMs: 2, watchMs: 4 });
  });

  it("assembles each scene's rim over its own frames: its boxes, ball path and net movement start at its first frame", () => {
    // Each rim's region sees the ring where it hangs and a ball falling through it; the net's movement is tagged with the global frame.
    const sample = (f: number, [cx, cy]: [number, number]) => ({
      detections: [{ className: "rim" as const, cx, cy, w: 40, h: 12, score: 0.6, motion: 0 }, { className: "ball" as const, cx, cy: cy - 40 + 2 * (f % 40), w: 14, h: 14, score: 0.6, motion: 9 }],
      roi: { x: 0, y: 0, w: 100, h: 100 }, netMotion: f, roiMotion: 0, shift: { dx: 0, dy: 0 }, looked: true,
    });
    const w = planWindows(100, [60], 10, { WINDOW_S: 40, MARGIN_S: 1 });
    const scenes: Array<Array<[number, number]>> = [[[300, 100]], [[300, 100], [100, 80]]];
    const joined = joinWindows(w.map((window, i) => {
      const r = raw(window.span, scenes[i]);
      return { window, raw: { ...r, watch: r.watch.map((_, f) => scenes[i].map((at) => sample(window.span[0] + f, at))) } };
    }), 100, [6]);
    const obs = assembleRealObservations(joined);
    expect(obs.rims.map((r) => [r.from, r.boxes.length])).toEqual([[0, 60], [60, 40], [60, 40]]);
    expect(obs.rimWatch!.map((rw) => rw.netMotion.length)).toEqual([60, 40, 40]);
    expect(obs.rimWatch![2].netMotion).toEqual(Array.from({ length: 40 }, (_, i) => 60 + i));
    // The second scene's rim at (100, 80) saw the ball at frame 61 at y = 80 - 40 + 2 * 21: its path's index 1, the timeline's frame 61.
    expect(obs.rimWatch![2].ball[1]).toMatchObject({ cx: 100, cy: 82 });
    expect(obs.ball[61]).toMatchObject({ cx: 100, cy: 82 });
    expect(obs.ball).toHaveLength(100);
  });

  it("puts each scan sighting of the ball on the frame its picture shows, a frame after the sample's number", () => {
    // A scan every third frame of a 15-frame timeline shows the pictures 1, 4, 7… (media/frames.ts sampleLagFrames).
    const r = raw([0, 30], []);
    const scan = Array.from({ length: 10 }, (_, k) => ({ frame: 3 * k, detections: [{ className: "ball" as const, cx: 200 + 3 * k, cy: 150, w: 14, h: 14, score: 0.7 }] }));
    const obs = assembleRealObservations({ ...r, fps: 15, every: 3, scan, tracks: [] });
    expect(sampleLagFrames(3)).toBe(1);
    for (let k = 0; k < 10; k++) {
      expect(obs.ball[3 * k + 1], `sample ${k}`).toMatchObject({ cx: 200 + 3 * k, score: 0.7 });
      expect(obs.ball[3 * k + 1]!.interpolated, `sample ${k}`).toBeFalsy();
    }
    // Frame 0's picture was not the scan's, and between sightings the path is only filled in.
    expect(obs.ball[0]).toBeNull();
    expect(obs.ball[3]).toMatchObject({ cx: 202, interpolated: true });
    // The raw detections (balls.jsonl, hoops.jsonl) sit on the same frames as the path's sightings.
    expect(obs.perFrame.flatMap((d, f) => (d.length ? [f] : []))).toEqual(Array.from({ length: 10 }, (_, k) => 3 * k + 1));
    expect(obs.perFrame[4]).toEqual([expect.objectContaining({ className: "ball", cx: 203 })]);
  });

  it("puts each scan sighting of a person on the frame its picture shows, as the ball's, and drops one past the end", () => {
    // The same scan timing as the ball's above: samples 0, 3, 6… show the pictures 1, 4, 7….
    const r = raw([0, 30], []);
    const frames = Array.from({ length: 10 }, (_, k) => 3 * k);
    const track = { id: 7, frames, boxes: frames.map((f) => box(100 + f, 200)), colors: frames.map(() => [200, 30, 30] as [number, number, number]), jerseyReads: [] };
    const obs = assembleRealObservations({ ...r, fps: 15, every: 3, scan: frames.map((frame) => ({ frame, detections: [] })), tracks: [track] });
    const [t] = obs.tracks;
    // Seen at frame 1 where it stood at sample 0, filled in between sightings (densified), never at frame 0.
    expect(t.frames[0]).toBe(1);
    expect(t.boxes[t.frames.indexOf(1)]).toMatchObject({ cx: 100 });
    expect(t.boxes[t.frames.indexOf(28)]).toMatchObject({ cx: 127 });
    expect(t.boxes[t.frames.indexOf(4)]).toMatchObject({ cx: 103 });
    // A sample whose picture lies past the timeline's end (its last frame, 29, shows frame 30) is dropped with its box and colour.
    const late = shownFrames({ ...track, frames: [27, 29], boxes: [box(1, 1), box(2, 2)], colors: [[1, 1, 1], [2, 2, 2]] }, 1, 30);
    expect(late).toMatchObject({ id: 7, frames: [28], boxes: [box(1, 1)], colors: [[1, 1, 1]] });
  });

  it("keeps rims of different scenes apart, each in view only in its own scene, and track ids unique", () => {
    const w = planWindows(100, [60], 10, { WINDOW_S: 40, MARGIN_S: 1 });
    const joined = joinWindows(w.map((window, i) => ({ window, raw: raw(window.span, i === 0 ? [[300, 100]] : [[300, 100], [100, 80]]) })), 100, [6]);
    expect(joined.rims.map((r) => r.active)).toEqual([[[0, 60]], [[60, 100]], [[60, 100]]]);
    // A rim keeps boxes for its own scene's frames only (the observations grow with the video, not
    // with the video times its rims); outside them it holds its nearest position; nothing is watched there.
    expect(joined.rims.map((r) => [r.from, r.boxes.length])).toEqual([[0, 60], [60, 40], [60, 40]]);
    expect(hoopBoxAt(joined.rims[2], 0)).toEqual(box(100, 80));
    expect(hoopBoxAt(joined.rims[0], 99)).toEqual(box(300, 100));
    expect(joined.watch[10].filter(Boolean)).toHaveLength(1);
    expect(joined.watch[70].filter(Boolean)).toHaveLength(2);
    expect(new Set(joined.tracks.map((t) => t.id)).size).toBe(2);
    expect(joined.jerseyReads.map(([id]) => id)).toEqual(joined.tracks.map((t) => t.id));
    expect(joined.cuts).toEqual([6]);
  });
});
