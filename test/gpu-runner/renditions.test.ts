// Session renditions with the real ffmpeg: named by the short side, never
// upscaled, a remux at the source's own size, a preview image.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectMediaHardware } from "../../gpu-runner/media/hardware";
import { probe } from "../../gpu-runner/media/probe";
import { plannedRenditions, renderSessionRenditions, scaledSize } from "../../gpu-runner/outputs/renditions";
import { checkResolution, JobFailure } from "../../gpu-runner/job";
import { makeTestVideo } from "../e2e/runner-process";

describe("rendition planning", () => {
  it("names renditions by the short side and never upscales", () => {
    expect(plannedRenditions({ width: 1920, height: 1080 })).toEqual([1080, 720, 360]);
    expect(plannedRenditions({ width: 1280, height: 720 })).toEqual([720, 360]);
    expect(plannedRenditions({ width: 1080, height: 1920 })).toEqual([1080, 720, 360]);
    expect(plannedRenditions({ width: 640, height: 360 })).toEqual([360]);
    expect(plannedRenditions({ width: 320, height: 240 })).toEqual([]);
    expect(scaledSize({ width: 1080, height: 1920 }, 720)).toEqual({ width: 720, height: 1280 });
    expect(scaledSize({ width: 1920, height: 1080 }, 360)).toEqual({ width: 640, height: 360 });
  });

  it("refuses anything above 1920×1080 in either orientation", () => {
    expect(() => checkResolution({ width: 1920, height: 1080 })).not.toThrow();
    expect(() => checkResolution({ width: 1080, height: 1920 })).not.toThrow();
    for (const size of [{ width: 2560, height: 1440 }, { width: 1920, height: 1200 }, { width: 1200, height: 1921 }]) {
      expect(() => checkResolution(size)).toThrow(JobFailure);
    }
  });
});

describe("renderSessionRenditions", () => {
  it("renders a portrait 720×1280 source to 720p (remux) and 360p, plus a preview", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hoops-rend-"));
    const source = path.join(dir, "portrait.mp4");
    makeTestVideo(source, { width: 720, height: 1280, seconds: 2 });
    const info = await probe(source);
    const out = await renderSessionRenditions(source, info, dir, await detectMediaHardware());
    expect(out.video).toEqual({ preview: "preview.jpg", "1080p": null, "720p": "renditions/720p.mp4", "360p": "renditions/360p.mp4" });
    const byName = Object.fromEntries(out.files.map((f) => [f.name, f]));
    const p720 = await probe(byName["renditions/720p.mp4"].path);
    const p360 = await probe(byName["renditions/360p.mp4"].path);
    expect([p720.width, p720.height]).toEqual([720, 1280]);
    expect([p360.width, p360.height]).toEqual([360, 640]);
    expect(Math.abs(p360.durationSeconds - info.durationSeconds)).toBeLessThan(0.2);
    // +faststart: the moov atom directly follows ftyp, before the media data.
    for (const name of ["renditions/360p.mp4", "renditions/720p.mp4"]) {
      const head = readFileSync(byName[name].path).subarray(0, 64).toString("latin1");
      expect(head.indexOf("moov"), name).toBeGreaterThan(0);
    }
    const preview = await probe(byName["preview.jpg"].path);
    expect(preview.height).toBe(1280);
  });
});
