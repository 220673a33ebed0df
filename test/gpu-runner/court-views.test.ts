import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, REALCLIPS_DIR } from "../../bench/realclips-manifest.ts";
import { unletterboxRegistration } from "../../gpu-runner/analysis/observe/court-registration.ts";
import { COURT_VIEW_MATCH_DEFAULTS, courtViewAt, type CourtView } from "../../gpu-runner/analysis/rules/court-view.ts";
import { analyzeGame } from "../../gpu-runner/analysis/pipeline.ts";
import { letterboxFor } from "../../gpu-runner/media/frames.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { applyHomography, type H3 } from "../../gpu-runner/vision/homography.ts";
import { CACHE_DIR } from "./fixtures.ts";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const H0: H3 = [38, -22, 480, 6, 9, 300, 0.004, -0.028, 1];

describe("court views", () => {
  it("a shot takes the view nearest its release, none older than MAX_AGE_S", () => {
    const fps = 15;
    const views: CourtView[] = [0, 30, 60].map((frame) => ({ frame, type: "fiba", h: H0 }));
    expect(courtViewAt(views, 40, fps)!.frame).toBe(30);
    expect(courtViewAt(views, 60 + COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S * fps, fps)!.frame).toBe(60);
    expect(courtViewAt(views, 61 + COURT_VIEW_MATCH_DEFAULTS.MAX_AGE_S * fps, fps)).toBeNull();
    expect(courtViewAt([], 0, fps)).toBeNull();
  });

  it("a view found on a letterboxed working picture maps court points to the same source pixels", () => {
    // Court → source pixels of a 1280×720 frame; the working picture is 480×360 with bars.
    const lb = letterboxFor(1280, 720, 480, 360);
    const toWork = (p: [number, number]): [number, number] => [p[0] * lb.scale + lb.padX, p[1] * lb.scale + lb.padY];
    // The working picture's homography: the source homography followed by the letterbox.
    const work: H3 = [H0[0] * lb.scale + lb.padX * H0[6], H0[1] * lb.scale + lb.padX * H0[7], H0[2] * lb.scale + lb.padX * H0[8], H0[3] * lb.scale + lb.padY * H0[6], H0[4] * lb.scale + lb.padY * H0[7], H0[5] * lb.scale + lb.padY * H0[8], H0[6], H0[7], H0[8]];
    for (const p of [[2, 1], [5.8, -2.45], [0, 6.6]] as Array<[number, number]>) {
      const viaWork = applyHomography(work, p), src = applyHomography(H0, p);
      expect(Math.hypot(viaWork[0] - toWork(src)[0], viaWork[1] - toWork(src)[1])).toBeLessThan(1e-6);
      const back = applyHomography(unletterboxRegistration(work, lb.scale, lb.padX, lb.padY), p);
      expect(Math.hypot(back[0] - src[0], back[1] - src[1])).toBeLessThan(1e-6);
    }
  });
});

describe("shots placed on a court registered from its lines (real footage)", () => {
  it("chonyy_outdoor_45deg_2x_3shots: every shot on a FIBA court, just behind the free-throw line, a two", async () => {
    expect(existsSync(path.join(REALCLIPS_DIR, "manifest.json")), `no real clips at ${REALCLIPS_DIR}`).toBe(true);
    const clip = readManifest().find((c) => c.file.includes("chonyy_outdoor_45deg_2x_3shots"))!;
    const file = path.join(REALCLIPS_DIR, clip.file);
    const r = await analyzeGame({ models, videoPath: file, video: await probe(file), workDir: path.join(CACHE_DIR, "court-views", "45deg"), options: {} });
    expect(r.shots.length).toBeGreaterThan(0);
    const rows = readFileSync(r.artifacts.actions, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((x) => x.type === "shot");
    for (const s of r.shots) {
      // The labelled feet (bench/court-landmarks.json) are 6.1 m from the baseline, 0.5–0.7 m left of the middle: chart (0.45–0.47, 0.43–0.44).
      const [across, out] = s.location.shot_world_normed!;
      expect(across).toBeGreaterThan(0.38);
      expect(across).toBeLessThan(0.56);
      expect(out * 14).toBeGreaterThan(5);
      expect(out * 14).toBeLessThan(7.2);
      expect(s.is_three_point).toBe(false);
      // Just behind the free-throw line, but off a dribble: no free throw (rules/free-throw.ts), and the rule's view is in the evidence.
      expect(s.is_free_throw).toBe(false);
      expect(rows.find((x) => x.shot === s.key)!.evidence.free_throw).toMatchObject({ freeThrow: false });
      expect(rows.find((x) => x.shot === s.key)!.evidence.court).toBe("fiba");
      expect(s.court).toEqual({ type: "fiba", found_by: "lines" });
    }
  });
});
