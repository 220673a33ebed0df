import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeFrames } from "../../gpu-runner/media/decode.ts";
import { letterboxFor } from "../../gpu-runner/media/frames.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { MediaError, runTool } from "../../gpu-runner/media/run.ts";
import { CACHE_DIR, syntheticGame } from "./fixtures.ts";

describe("media", () => {
  it("letterboxes landscape and portrait sources into the model input", () => {
    expect(letterboxFor(1920, 1080, 640, 384)).toEqual({ scale: 1 / 3, padX: 0, padY: 12, innerWidth: 640, innerHeight: 360 });
    const p = letterboxFor(720, 1280, 640, 384);
    expect(p.innerHeight).toBe(384);
    expect(p.innerWidth).toBe(216);
    expect(p.padX).toBe(212);
  });

  it("decodes every frame once at the requested size", async () => {
    const { video, gt } = await syntheticGame({ seed: 11, seconds: 6, camera: "side", size: "720p" });
    let count = 0;
    for await (const f of decodeFrames(video, gt.width, gt.height, { width: 320, height: 192 })) {
      expect(f.rgb.length).toBe(320 * 192 * 3);
      expect(f.index).toBe(count);
      // Pad rows are the Ultralytics gray.
      expect(f.rgb[0]).toBe(114);
      count++;
    }
    expect(count).toBe(180);
  });

  it("stops decoding when aborted", async () => {
    const { video, gt } = await syntheticGame({ seed: 11, seconds: 6, camera: "side", size: "720p" });
    const ac = new AbortController();
    let count = 0;
    await expect(
      (async () => {
        for await (const _ of decodeFrames(video, gt.width, gt.height, { width: 320, height: 192, signal: ac.signal })) {
          if (++count === 5) ac.abort();
        }
      })(),
    ).rejects.toThrow(MediaError);
    expect(count).toBeLessThan(180);
  });

  it("rejects a file that is not a video", async () => {
    await mkdir(CACHE_DIR, { recursive: true });
    const bogus = path.join(CACHE_DIR, "not-a-video.mp4");
    await writeFile(bogus, "hello");
    await expect(probe(bogus)).rejects.toThrow(MediaError);
  });
});

describe("runTool and signals to the runner's process group", () => {
  // A shell that kills itself with SIGINT on its first run stands for a tool that a Ctrl-C to the
  // runner's group reached in the instant it started, before it had its own group.
  const script = (flag: string) => `if [ -e '${flag}' ]; then echo second run; else touch '${flag}'; kill -INT $$; sleep 5; fi`;

  it("runs a tool killed by a group signal the runner did not send once more", async () => {
    const dir = path.join(CACHE_DIR, "run-tool");
    await mkdir(dir, { recursive: true });
    const flag = path.join(dir, `flag-${process.pid}-${Date.now()}`);
    expect((await runTool("/bin/sh", ["-c", script(flag)])).toString().trim()).toBe("second run");
  });

  it("does not run it again when killed twice, nor when the runner cancelled it", async () => {
    const err = await runTool("/bin/sh", ["-c", "kill -INT $$; sleep 5"]).catch((e) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err.killedBy).toBe("SIGINT");
    const cancel = new AbortController();
    const started = runTool("/bin/sh", ["-c", "sleep 5"], cancel.signal).catch((e) => e);
    setTimeout(() => cancel.abort(), 100);
    expect((await started).message).toBe("aborted");
  });
});
