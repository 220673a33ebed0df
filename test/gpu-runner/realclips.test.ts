// The default (trained) detector on real footage, read at run time from ../shared/realclips (the
// clips have no licence and are never copied into this repository): attempts and makes within ±1
// of the hand-labelled truth, and no invented shots where there were none.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, REALCLIPS_DIR } from "../../bench/realclips-manifest.ts";
import { matchShots } from "../../gpu-runner/analysis/metrics.ts";
import { readFileSync } from "node:fs";
import { AnalysisError, analyzeGame } from "../../gpu-runner/analysis/pipeline.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { CACHE_DIR } from "./fixtures.ts";
import { scoreClip } from "../../bench/realclips.ts";
import { rmSync } from "node:fs";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const WORK = path.join(CACHE_DIR, "realclips");

describe("real footage with the default detector", () => {
  it("has the real clips at hand", () => {
    // CI checks the shared folder out beside the repository; without it these tests cannot mean anything.
    expect(existsSync(path.join(REALCLIPS_DIR, "manifest.json")), `no real clips at ${REALCLIPS_DIR}`).toBe(true);
  });

  // The last one: a close-up where the detector loses the ball just before it falls past the ring.
  for (const name of ["chonyy_outdoor_handheld_1shot", "jbardelli_gym_side_1shot", "sujay_rim_miss_0505"]) {
    it(`${name}: attempts and makes within one of the labels`, async () => {
      const clip = readManifest().find((c) => c.file.includes(name))!;
      const r = await analyzeGame({ models, videoPath: path.join(REALCLIPS_DIR, clip.file), video: await probe(path.join(REALCLIPS_DIR, clip.file)), workDir: path.join(WORK, name), options: {} });
      const makes = r.shots.filter((s) => s.made).length;
      expect(Math.abs(r.shots.length - clip.attempts)).toBeLessThanOrEqual(1);
      expect(Math.abs(makes - clip.makes)).toBeLessThanOrEqual(1);
      // …and the labelled shot is found at its time (release, or arrival at the rim when the release is out of view).
      const rims = new Map(readFileSync(r.artifacts.actions, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((x) => x.type === "shot").map((x) => [x.shot, x.rim]));
      const matched = matchShots(clip.shots, r.shots.map((s) => ({ release: s.start_seconds, rim: rims.get(s.key) ?? null, made: s.made })));
      expect(matched.length).toBe(clip.attempts);
      expect(r.run_version).toBe(2);
      // Every shot has its rim in the picture and a highlight window around it.
      for (const s of r.shots) expect(s.location.hoop_image_normed).not.toBeNull();
      expect(r.highlights).toHaveLength(r.shots.length);
    });
  }

  it("the same file analysed twice gives the same result", async () => {
    const clip = readManifest().find((c) => c.file.includes("chonyy_outdoor_handheld_1shot"))!;
    const run = async (k: number) => analyzeGame({ models, videoPath: path.join(REALCLIPS_DIR, clip.file), video: await probe(path.join(REALCLIPS_DIR, clip.file)), workDir: path.join(WORK, `twice-${k}`), options: {} });
    const [a, b] = [await run(1), await run(2)];
    // Everything but where the files are and how long each stage took.
    const { artifacts: _a, diagnostics: da, ...first } = a;
    const { artifacts: _b, diagnostics: db, ...second } = b;
    expect(second).toEqual(first);
    expect(db.shooterEvidence).toEqual(da.shooterEvidence);
    expect(first.shots.length).toBeGreaterThan(0);
    // The raw model output too (the files differ only by where they are).
    for (const k of ["actions", "balls", "hoops", "clusters"] as const) expect(readFileSync(b.artifacts[k], "utf8")).toBe(readFileSync(a.artifacts[k], "utf8"));
  });

  it("kept observations replay to the same shots as a fresh run, and a changed rule setting is applied on replay (bench sweeps)", async () => {
    const manifest = readManifest();
    const index = manifest.findIndex((c) => c.file.includes("chonyy_outdoor_5shots"));
    const keep = path.join(WORK, "kept-observations");
    rmSync(keep, { recursive: true, force: true });
    const fresh = await scoreClip(manifest[index], index, path.join(WORK, "fresh"));
    const observed = await scoreClip(manifest[index], index, path.join(WORK, "observed"), REALCLIPS_DIR, {}, keep);
    const replayed = await scoreClip(manifest[index], index, path.join(WORK, "replayed"), REALCLIPS_DIR, {}, keep);
    expect(fresh.shots.length).toBeGreaterThan(0);
    expect(observed.shots).toEqual(fresh.shots);
    expect(replayed.shots).toEqual(fresh.shots);
    expect(replayed.outcome).toBe(fresh.outcome);
    // A rule setting reaches the replay: no ball is ever this near the ring, so no attempt is left.
    const strict = await scoreClip(manifest[index], index, path.join(WORK, "strict"), REALCLIPS_DIR, { attempts: { NEAR_RIM_WIDTHS: 0.01 } }, keep);
    expect(strict.outcome).toBe("no_shots");
  });

  const broadcastWithoutHoop = async () => {
    const clip = readManifest().find((c) => c.file.includes("brettfazio_broadcast_dribble_nohoop"))!;
    return analyzeGame({ models, videoPath: path.join(REALCLIPS_DIR, clip.file), video: await probe(path.join(REALCLIPS_DIR, clip.file)), workDir: path.join(WORK, "nohoop"), options: {} }).then(
      (r) => `processed with ${r.shots.length} shots`,
      (e) => (e instanceof AnalysisError ? e.code : String(e)),
    );
  };

  // With the fine-tuned detector (the default since issue 24's tuning-part sweep) a ring-like patch
  // at the top of this 426×240 panning broadcast is verified as a rim on the closer looks (0.30) and
  // the dribbled ball passes within 1.5 rim widths of it; the session failed `no_shots` rather than
  // `no_hoops` (the right outcome for the customer, the wrong reason). Where the rim watch looks at
  // it frame after frame the rim head never scores it above 0.16 (a real rim: 0.2 or more in most
  // looked frames), so it is no rim (hoop.ts, ringSeenAtRim).
  it("a broadcast close-up without a hoop in view fails no_hoops (a court line's curve is not a rim)", async () => {
    expect(await broadcastWithoutHoop()).toBe("no_hoops");
  });
});
