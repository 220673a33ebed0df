import { describe, expect, it } from "vitest";
import { simulateGame } from "../../scripts/synth/script.ts";
import { makeRenderer } from "../../scripts/synth/render.ts";
import { isThreePoint, HOOP_X } from "../../scripts/synth/court.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { syntheticGame } from "./fixtures.ts";

describe("synthetic game generator", () => {
  it("is deterministic for a seed and differs across seeds", () => {
    const a = simulateGame({ seed: 7, seconds: 30, fps: 30, players: 6 });
    const b = simulateGame({ seed: 7, seconds: 30, fps: 30, players: 6 });
    const c = simulateGame({ seed: 8, seconds: 30, fps: 30, players: 6 });
    expect(a.shots).toEqual(b.shots);
    expect(Buffer.from(a.ball.buffer).equals(Buffer.from(b.ball.buffer))).toBe(true);
    expect(a.shots).not.toEqual(c.shots);
    const ra = makeRenderer(a, "wide", 320, 180, [0, 1]), rb = makeRenderer(b, "wide", 320, 180, [0, 1]);
    const fa = Buffer.alloc(320 * 180 * 3), fb = Buffer.alloc(320 * 180 * 3);
    ra.render(100, fa);
    rb.render(100, fb);
    expect(fa.equals(fb)).toBe(true);
  });

  it("labels shots consistently with the court geometry", () => {
    const g = simulateGame({ seed: 3, seconds: 90, fps: 30, players: 8 });
    expect(g.shots.length).toBeGreaterThan(5);
    for (const s of g.shots) {
      const [x, y] = s.court_position;
      if (s.is_free_throw) {
        expect(s.points).toBe(s.made ? 1 : 0);
        expect(Math.hypot(x - (HOOP_X - 4.225 - 0.3), y)).toBeLessThan(0.6);
      } else {
        expect(s.is_three_point).toBe(isThreePoint(x, y));
        expect(s.points).toBe(s.made ? (s.is_three_point ? 3 : 2) : 0);
      }
      if (s.made) expect(s.rebounder).toBeNull();
      else expect(s.assister).toBeNull();
      expect(g.players.some((p) => p.id === s.shooter)).toBe(true);
    }
    expect(new Set(g.players.map((p) => p.jersey)).size).toBe(g.players.length);
  });

  it("writes an H.264 MP4 with ground truth", async () => {
    const { video, gt } = await syntheticGame({ seed: 11, seconds: 6, camera: "side", size: "720p" });
    const info = await probe(video);
    expect(info).toMatchObject({ width: 1280, height: 720, codec: "h264" });
    expect(info.fps).toBeCloseTo(30, 1);
    expect(info.durationSeconds).toBeCloseTo(6, 0);
    expect(gt.players.length).toBeGreaterThanOrEqual(2);
    expect(gt.player_samples.length).toBeGreaterThan(10);
  });
});
