// The basketball model on its own thread (vision/model-thread.ts) answers exactly what the model on
// the calling thread answers, in the order asked, and fails clearly.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBasketballModel, type BasketballModel } from "../../gpu-runner/vision/basketball.ts";
import { startModelThread, type ModelThread } from "../../gpu-runner/vision/model-thread.ts";

/** A fixed picture: gray with a few coloured blocks, so the heads have something to fire on. */
function picture(w: number, h: number, seed: number): Uint8Array {
  const rgb = new Uint8Array(w * h * 3).fill(120);
  for (let b = 0; b < 6; b++) {
    const x0 = (seed * 37 + b * 71) % (w - 40), y0 = (seed * 53 + b * 29) % (h - 40);
    for (let y = y0; y < y0 + 40; y++)
      for (let x = x0; x < x0 + 40; x++) rgb.set([(b * 90 + seed * 40) % 256, (b * 50) % 256, 255 - b * 30], (y * w + x) * 3);
  }
  return rgb;
}

describe("model thread", () => {
  let thread: ModelThread;
  let local: BasketballModel;
  const threadLines: string[] = [];
  beforeAll(async () => {
    [thread, local] = await Promise.all([
      startModelThread(undefined, { threads: 1, log: (msg) => threadLines.push(msg) }),
      loadBasketballModel(undefined, { threads: 1, log: () => {} }),
    ]);
    expect(thread.usable).toBe(true);
  });
  afterAll(() => thread?.close());

  it("gives the same detections as the model on this thread, for requests in flight together", async () => {
    const inputs = [picture(512, 320, 1), picture(256, 256, 2), picture(512, 320, 3)];
    const sizes = [[512, 320], [256, 256], [512, 320]] as const;
    // All three asked at once, and each input overwritten right after asking (callers reuse buffers).
    const asked = inputs.map((rgb, i) => {
      const p = thread.detect(rgb, sizes[i][0], sizes[i][1]);
      rgb.fill(0);
      return p;
    });
    const answers = await Promise.all(asked);
    for (let i = 0; i < 3; i++) {
      const expected = await local.detect(picture(sizes[i][0], sizes[i][1], i + 1), sizes[i][0], sizes[i][1]);
      expect(answers[i]).toEqual(expected);
    }
    expect(answers[0]).not.toEqual(answers[2]);
  });

  it("hands the thread's execution-provider line to the caller's log (the runner's JSON log), not to stdout", () => {
    expect(threadLines.filter((l) => /^\[vision\] execution provider: (cpu|cuda)/.test(l))).toHaveLength(1);
  });

  it("reports the model's own errors per request and keeps working", async () => {
    await expect(thread.detect(new Uint8Array(10), 100, 100)).rejects.toThrow(/multiple of 32/);
    const ok = await thread.detect(picture(256, 256, 4), 256, 256);
    expect(Array.isArray(ok)).toBe(true);
  });

  it("fails to start with the model's message when the model cannot be loaded", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "model-thread-"));
    await expect(startModelThread(path.join(dir, "missing.onnx"))).rejects.toThrow(/does not exist/);
    const junk = path.join(dir, "junk.onnx");
    writeFileSync(junk, "not a model");
    await expect(startModelThread(junk)).rejects.toThrow();
  });

  it("rejects what is still pending when closed, and everything after; the thread ends by itself after its run in hand", async () => {
    // Closing while a run is inside onnxruntime used to terminate the thread there, which aborted the
    // whole process now and then ("terminate called after throwing an instance of 'Napi::Error'").
    for (let round = 0; round < 4; round++) {
      const other = await startModelThread(undefined, { threads: 1 });
      const asked = [0, 1, 2].map((k) => other.detect(picture(512, 320, 5 + k), 512, 320));
      const settled = Promise.allSettled(asked);
      // Let the first request reach onnxruntime on the thread (or even finish).
      await new Promise((r) => setTimeout(r, 10 * round));
      await other.close();
      const outcomes = await settled;
      // Answered before the close, or rejected as closed; the last one cannot have been answered.
      for (const o of outcomes) if (o.status === "rejected") expect(String(o.reason)).toMatch(/closed/);
      expect(outcomes[2].status).toBe("rejected");
      await expect(other.detect(picture(256, 256, 5), 256, 256)).rejects.toThrow(/closed/);
      expect(other.usable).toBe(false);
      await other.close();
    }
  });
});
