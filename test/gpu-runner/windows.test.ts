// Observation windows (analysis/windows.ts) and scene cuts (media/scenes.ts).
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planWindows } from "../../gpu-runner/analysis/windows.ts";
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
