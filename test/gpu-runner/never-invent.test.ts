// Never invent (issue 24, point 6): drawn hoops and hoops out of the picture are not rims. Videos
// are made at test time in a temporary folder from tuning clips of ../shared/realclips (read there,
// never copied into this repository): a hoop drawn in a corner of a real clip, as a phone app or a
// TV graphic would put it; a clip cropped so that its hoop is outside the picture; rendered
// animations of balls bouncing on a plank and on a table. A video without a real hoop fails `no_hoops`; the runner
// reports that as a failed job, and the Worker voids the session's hold on a failed job (covered in
// test/worker/jobs.test.ts), so it is never billed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REALCLIPS_DIR, tuningClips, type ManifestClip } from "../../bench/realclips-manifest.ts";
import { matchShots, sameShots } from "../../gpu-runner/analysis/metrics.ts";
import { AnalysisError, analyzeGame } from "../../gpu-runner/analysis/pipeline.ts";
import type { AnalysisResult } from "../../gpu-runner/analysis/types.ts";
import { analysisFailure } from "../../gpu-runner/job.ts";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { probe } from "../../gpu-runner/media/probe.ts";
import { AnalysisModels } from "../../gpu-runner/vision/models.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const WORK = mkdtempSync(path.join(tmpdir(), "never-invent-"));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** Every generated copy is encoded alike, so a copy with a drawing differs from its plain copy only by the drawing. */
const ENCODE = ["-an", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"];

function tuningClip(name: string): ManifestClip {
  const clip = tuningClips().find((c) => c.file.includes(name));
  if (!clip) throw new Error(`${name} is not a tuning clip of ${REALCLIPS_DIR}`);
  return clip;
}

function ffmpeg(args: string[]): void {
  execFileSync(FFMPEG, ["-v", "error", "-y", "-nostdin", ...args]);
}

type Rgba = [number, number, number, number];

/**
 * A hoop as an app or a TV graphic draws it, seen from the front: a white backboard with a red
 * frame and target square, an orange ring under it and a white mesh net, on a transparent ground.
 * Raw RGBA, `w`×`h` = 120×110.
 */
function drawnHoop(): { rgba: Uint8Array; w: number; h: number } {
  const w = 120, h = 110;
  const rgba = new Uint8Array(w * h * 4);
  const paint = (inside: (x: number, y: number) => boolean, colour: Rgba) => {
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (inside(x + 0.5, y + 0.5)) rgba.set(colour, (y * w + x) * 4);
  };
  const rect = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
  const frame = (x0: number, y0: number, x1: number, y1: number, t: number) => (x: number, y: number) => rect(x0, y0, x1, y1)(x, y) && !rect(x0 + t, y0 + t, x1 - t, y1 - t)(x, y);
  const white: Rgba = [255, 255, 255, 255], red: Rgba = [200, 30, 30, 255], orange: Rgba = [235, 90, 20, 255];
  paint(rect(15, 5, 105, 60), white);
  paint(frame(15, 5, 105, 60, 3), red);
  paint(frame(42, 28, 78, 56, 3), red);
  // The net: a diagonal mesh narrowing downwards under the ring.
  paint((x, y) => y >= 64 && y <= 96 && Math.abs(x - 60) <= 24 - (10 * (y - 64)) / 32 && ((x + y) % 8 < 1.5 || (x - y + 200) % 8 < 1.5), white);
  // The ring: an ellipse 50 px across, 4 px thick, and its bracket.
  paint((x, y) => Math.abs(Math.hypot((x - 60) / 25, (y - 64) / 6) - 1) * 6 < 2, orange);
  paint(rect(56, 58, 64, 62), orange);
  return { rgba, w, h };
}

interface Outcome {
  code: string;
  result: AnalysisResult | null;
  /** Rims kept, from the hoops artifact: centres in source pixels. */
  rims: Array<{ x: number; y: number }>;
}

async function analyse(file: string): Promise<Outcome> {
  const info = await probe(file);
  const workDir = path.join(WORK, `work-${path.basename(file, ".mp4")}`);
  let result: AnalysisResult | null = null, code = "processed";
  try {
    result = await analyzeGame({ models, videoPath: file, video: info, workDir, options: {} });
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
    code = e.code;
    // The runner's report of this failure: a failed job, with the code's sentence for the customer.
    expect(analysisFailure(e).code).toBe(e.code);
  }
  // The hoops artifact is written before the checks that fail, so failed runs show what was kept.
  const rows = readFileSync(path.join(workDir, "artifacts", "hoops.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { hoops: Array<{ id: number; x: number; y: number }> });
  const byId = new Map<number, { x: number; y: number }>();
  for (const r of rows) for (const h of r.hoops) byId.set(h.id, { x: h.x * info.width, y: h.y * info.height });
  return { code, result, rims: [...byId.values()] };
}

const shotsOf = (o: Outcome) => (o.result?.shots ?? []).map((s) => ({ start: s.start_seconds, made: s.made }));

describe("never invent: drawn hoops and hoops out of the picture are not rims", () => {
  it("a hoop drawn in a corner of a real clip is not kept as a rim: the real rim is, and the shots are unchanged", async () => {
    const clip = tuningClip("chonyy_outdoor_handheld_1shot");
    const source = path.join(REALCLIPS_DIR, clip.file);
    const icon = drawnHoop();
    const iconFile = path.join(WORK, "hoop.rgba");
    writeFileSync(iconFile, icon.rgba);
    const margin = 20;
    const plain = path.join(WORK, "plain.mp4"), drawn = path.join(WORK, "drawn-hoop.mp4");
    ffmpeg(["-i", source, ...ENCODE, plain]);
    ffmpeg(["-i", source, "-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${icon.w}x${icon.h}`, "-i", iconFile, "-filter_complex", `[0:v][1:v]overlay=W-w-${margin}:${margin}`, ...ENCODE, drawn]);
    const [alone, withDrawing] = [await analyse(plain), await analyse(drawn)];

    // The drawing is in the top right corner: no rim is kept there.
    const iconBox = { x0: clip.width - margin - icon.w, x1: clip.width - margin, y0: margin, y1: margin + icon.h };
    const inDrawing = withDrawing.rims.filter((r) => r.x >= iconBox.x0 && r.x <= iconBox.x1 && r.y >= iconBox.y0 && r.y <= iconBox.y1);
    expect(inDrawing, "a rim kept on the drawn hoop").toEqual([]);
    // The labelled hoop is kept…
    const [x1, y1, x2, y2] = clip.hoop_box!;
    expect(withDrawing.rims.some((r) => Math.hypot(r.x - (x1 + x2) / 2, r.y - (y1 + y2) / 2) <= x2 - x1), "the real rim is kept").toBe(true);
    // …and the shots are those of the same footage without the drawing, and the labelled ones.
    expect(withDrawing.code).toBe("processed");
    const shots = shotsOf(withDrawing), before = shotsOf(alone);
    expect(sameShots(shots, before), `with the drawing ${JSON.stringify(shots)}, without ${JSON.stringify(before)}`).toBe(true);
    expect(matchShots(clip.shots, withDrawing.result!.shots.map((s) => ({ release: s.start_seconds, rim: null, made: s.made }))).length).toBe(clip.attempts);
  });

  // Each crop keeps the shooter and the ball in the picture and leaves the labelled hoop out.
  for (const { name, crop, kept } of [
    // A floodlight on a pole and a patch of the fence's foot were kept as rims (the clip ended no_shots).
    { name: "chonyy_outdoor_handheld_1shot", crop: { x: 0, y: 0, w: 480, h: 540 }, kept: "a floodlight and a patch of fence" },
    // A ceiling lamp (the ball flies past it towards the hoop out of the picture) and an exit sign.
    { name: "lreithmayr_gym_side_1shot", crop: { x: 640, y: 0, w: 640, h: 720 }, kept: "a ceiling lamp and an exit sign" },
    { name: "jbardelli_gym_side_1shot", crop: { x: 0, y: 0, w: 440, h: 480 }, kept: "nothing" },
  ]) {
    it(`${name} with its hoop cropped out fails no_hoops (before: ${kept} kept as rims)`, async () => {
      const clip = tuningClip(name);
      const [x1, , x2] = clip.hoop_box!;
      expect(x1 >= crop.x + crop.w || x2 <= crop.x, "the hoop is outside the crop").toBe(true);
      const file = path.join(WORK, `${name}-cropped.mp4`);
      ffmpeg(["-i", path.join(REALCLIPS_DIR, clip.file), "-vf", `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y}`, ...ENCODE, file]);
      const outcome = await analyse(file);
      expect(outcome.code, `rims kept: ${JSON.stringify(outcome.rims)}`).toBe("no_hoops");
    });
  }

  it("a rendered animation of a ball bouncing on a plank, with no hoop anywhere, fails no_hoops", async () => {
    const file = path.join(WORK, "animation.mp4");
    // Sky, a wooden plank, and a shaded orange ball bouncing along it (a disc drawn with geq).
    const ball = "color=c=black@0:s=40x40:r=30,format=rgba,geq=r='220-2*hypot(X-14,Y-14)':g='110-hypot(X-14,Y-14)':b=40:a='if(lt(hypot(X-20,Y-20),19),255,0)'";
    ffmpeg([
      "-f", "lavfi", "-i", "color=c=0x87b5e0:s=640x360:d=4:r=30", "-f", "lavfi", "-i", ball,
      "-filter_complex", "[0:v]drawbox=x=0:y=300:w=640:h=60:color=0x6b4a2b:t=fill,drawbox=x=0:y=296:w=640:h=6:color=0x4a3018:t=fill[bg];[bg][1:v]overlay=x='40+130*t':y='256-200*abs(sin(PI*t/1.1))':shortest=1",
      ...ENCODE, "-t", "4", file,
    ]);
    expect((await analyse(file)).code).toBe("no_hoops");
  });

  // The rim head verifies ring-like patches near the top of the balls' bounces (0.26 and 0.25 on the
  // closer looks with the fine-tuned detector; the heads before it fired on the ball bouncing in
  // place) and the balls pass them, so shots were invented (three). Where the rim watch looks at
  // them frame after frame the rim head never scores them above 0.13: they are no ring that stays
  // where it hangs (hoop.ts, ringSeenAtRim), and the video fails no_hoops.
  it("a rendered animation of three balls bouncing on a table, one of them in place, fails no_hoops (ring-like patches on the closer looks, never a ring where watched)", async () => {
    const file = path.join(WORK, "animation-table.mp4");
    const ball = "color=c=black@0:s=40x40:r=30,format=rgba,geq=r='220-2*hypot(X-14,Y-14)':g='110-hypot(X-14,Y-14)':b=40:a='if(lt(hypot(X-20,Y-20),19),255,0)'";
    ffmpeg([
      "-f", "lavfi", "-i", "color=c=0xd8d0c0:s=960x540:d=5:r=30", "-f", "lavfi", "-i", ball, "-f", "lavfi", "-i", ball, "-f", "lavfi", "-i", ball,
      "-filter_complex",
      "[0:v]drawbox=x=0:y=440:w=960:h=100:color=0x8a8a8a:t=fill,drawbox=x=150:y=250:w=600:h=18:color=0x9c6b3a:t=fill,drawbox=x=150:y=268:w=600:h=5:color=0x5a3a1a:t=fill," +
        "drawbox=x=180:y=273:w=14:h=167:color=0x5a3a1a:t=fill,drawbox=x=706:y=273:w=14:h=167:color=0x5a3a1a:t=fill[bg];" +
        "[bg][1:v]overlay=x='160+90*t':y='210-150*abs(sin(PI*t/0.9))':shortest=1[a];[a][2:v]overlay=x='700-70*t':y='210-110*abs(sin(PI*t/0.7+1))'[b];" +
        "[b][3:v]overlay=x='if(lt(t,2.5),420,420+120*(t-2.5))':y='if(lt(t,2.5),210-60*abs(sin(PI*t/0.5)),min(400,210+300*(t-2.5)*(t-2.5)))'",
      ...ENCODE, "-t", "5", file,
    ]);
    expect((await analyse(file)).code).toBe("no_hoops");
  });
});
