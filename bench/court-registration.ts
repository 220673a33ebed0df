// Court registration from the labelled landmarks alone (issue 25, points 1 and 3): for every
// labelled frame of bench/court-landmarks.json and every court type, the leave-one-out error of
// each landmark in metres (fit on the others, take the left-out pixel back onto the court), the
// type that fits best, and the tuning and held-out parts side by side: this measures the
// templates and the fit, and is the ceiling for the line detector. Then the line detector
// (vision/lines.ts, analysis/observe/court-registration.ts) on the same frames, decoded from
// ../shared/realclips: registered or not, the type it chose, and the labelled landmarks' error in
// metres (their pixels taken onto the court through the found view, against the chosen template).
// Last, 2 vs 3 of the labelled attempts: the line detector on the release frame, the labelled
// feet taken onto the court, against the registered type's arc. And the ceiling the acceptance
// check sets: through the view fitted on the labelled landmarks themselves, the share of each
// court type's drawn lines that lands on stripes (a view is kept at MIN_HIT_SHARE), and which
// lines miss: whether the line detector, the stripes or the court's own paint limit a frame.
//   npm run bench:court                 (also: how many frames within WINDOW_S of each labelled frame register)
//   npm run bench:court -- --pipeline   also the pipeline's court pass (observeCourtViews) over every
//                                       clip of the manifest: its time and the views it registers
//   npm run bench:court -- --pipeline --observations bench/out/observations/<key>
//                                       with the rims of kept observations (bench:realclips
//                                       --observations writes them), so that every court must put
//                                       its basket under a rim, as in the analysis (rules/court-rim.ts)
//   npm run bench:court -- --pipeline --split tuning
//                                       the pass over one part only: a sweep reads the tuning clips,
//                                       and the held-out part is run once the setting is chosen
//   npm run bench:court -- --stripe-lines
//                                       the painted lines found by the stripe test (vision/lines.ts)
//                                       instead of the learned mask the runner uses (vision/court-lines.ts)
//   npm run bench:court -- --set MIN_CONTRAST=15 --set EDGE_MIN_COLOUR=0
//                                       a setting of LINE_DEFAULTS, COURT_REGISTRATION_DEFAULTS or COURT_RIM_DEFAULTS
//                                       changed for this run (a sweep is a loop over runs)
import path from "node:path";
import { readFileSync } from "node:fs";
import { bestCourtType, fitCourt, leaveOneOutErrors, median, type NamedPoint } from "../gpu-runner/analysis/rules/court-fit.ts";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLandmarks, courtLines, courtNormed, isThreePoint } from "../gpu-runner/analysis/rules/court-template.ts";
import { COURT_REGISTRATION_DEFAULTS, courtLineMasks, lineSupport, registerPicture, stripeSupport } from "../gpu-runner/analysis/observe/court-registration.ts";
import { observeCourtViews } from "../gpu-runner/analysis/observe/court-views.ts";
import { planCourtViews } from "../gpu-runner/analysis/rules/court-view.ts";
import { REAL_FOOTAGE_DEFAULTS, assembleRealObservations, type RawRealObservations } from "../gpu-runner/analysis/observe/real-footage.ts";
import { videoFrames } from "../gpu-runner/media/decode.ts";
import { applyHomography, invertHomography, viewInPicture } from "../gpu-runner/vision/homography.ts";
import { halvePicture, LINE_DEFAULTS } from "../gpu-runner/vision/lines.ts";
import { courtLineModelPath, loadCourtLineModel, type CourtLineModel } from "../gpu-runner/vision/court-lines.ts";
import { COURT_RIM_DEFAULTS } from "../gpu-runner/analysis/rules/court-rim.ts";
import { commandLine } from "./lib.ts";
import { FFMPEG } from "../gpu-runner/media/binaries.ts";
import { runTool } from "../gpu-runner/media/run.ts";

/** Frames are registered at this width (the unit tests' synthetic courts are this size too). */
const WORK_WIDTH = 480;
const CLIPS = path.resolve(import.meta.dirname, "../../shared/realclips/clips");

interface LabelledFrame {
  clip: string;
  split: "tuning" | "held_out";
  time_s: number;
  width: number;
  height: number;
  landmarks: NamedPoint[];
}
const data = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "court-landmarks.json"), "utf8")) as {
  frames: LabelledFrame[];
  examined_without_four: Array<{ clip: string; split: string; time_s: number }>;
  attempts: Array<{ clip: string; split: "tuning" | "held_out"; release_s: number; points: 2 | 3; feet: { x: number; y: number } }>;
};

const USAGE = `npm run bench:court -- [--pipeline] [--stripe-lines] [--set NAME=VALUE …]
  court registration on the labelled landmark frames (bench/court-landmarks.json): the landmarks alone, then
  the line detector on the same frames, 2 vs 3 of the labelled attempts, tuning and held-out side by side
  --pipeline  also the pipeline's court pass over every clip of the manifest: its time and the views it registers
  --observations DIR  the pass with the rims of the kept observations in DIR (DIR/<clip>.json): a court must put its basket under one
  --split tuning|held_out  the pass over one part only (sweep on tuning; held_out is measured once a setting is chosen)
  --stripe-lines  the painted lines found by the stripe test instead of the learned mask the runner uses
  --set       a setting of LINE_DEFAULTS, COURT_REGISTRATION_DEFAULTS or COURT_RIM_DEFAULTS for this run (a number or true/false)`;
const { args, arg } = commandLine(USAGE);
const split = arg("split");
if (split !== undefined && split !== "tuning" && split !== "held_out") throw new Error(`--split ${split}: tuning or held_out`);

// Settings changed for this run (--set NAME=VALUE, a number or true/false), for sweeps.
for (let i = 0; i < args.length; i++) {
  if (args[i] !== "--set") continue;
  const [name, raw] = (args[i + 1] ?? "").split("=");
  const owner = [LINE_DEFAULTS, COURT_REGISTRATION_DEFAULTS, COURT_RIM_DEFAULTS].find((o) => name in o) as Record<string, unknown> | undefined;
  if (!owner || raw === undefined) throw new Error(`--set ${args[i + 1]}: not NAME=VALUE of a setting of LINE_DEFAULTS, COURT_REGISTRATION_DEFAULTS or COURT_RIM_DEFAULTS`);
  const value = raw === "true" ? true : raw === "false" ? false : Number(raw);
  if (typeof value !== typeof owner[name] || (typeof value === "number" && !Number.isFinite(value))) throw new Error(`--set ${name}: ${raw} is not a ${typeof owner[name]}`);
  owner[name] = value;
  console.log(`setting ${name} = ${raw}`);
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–");

/** Four landmarks of which three lie on one straight court line (in court metres): they fix no view. */
function onOneLine(points: NamedPoint[]): boolean {
  if (points.length !== 4) return false;
  const lm = courtLandmarks(COURT_TEMPLATES.fiba);
  const at = points.map((p) => lm[p.name]);
  return [0, 1, 2, 3].some((skip) => {
    const [a, b, c] = at.filter((_, i) => i !== skip);
    return Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-6;
  });
}
console.log(`frame\tsplit\tlandmarks\t${COURT_TYPE_IDS.join("\t")}\tbest`);
const summary: Record<string, { examined: number; four: number; fitted: number; errors: Record<string, number[]>; best: string[] }> = {};
for (const split of ["tuning", "held_out"]) {
  summary[split] = {
    examined: data.examined_without_four.filter((e) => e.split === split).length,
    four: 0, fitted: 0, best: [],
    errors: Object.fromEntries(COURT_TYPE_IDS.map((id) => [id, []])),
  };
}
for (const f of data.frames) {
  const s = summary[f.split];
  s.examined++;
  if (f.landmarks.length >= 4) s.four++;
  if (COURT_TYPE_IDS.some((id) => fitCourt(id, f.landmarks))) s.fitted++;
  const cells = COURT_TYPE_IDS.map((id) => {
    const errors = leaveOneOutErrors(id, f.landmarks);
    s.errors[id].push(...errors);
    return fmt(median(errors));
  });
  const best = bestCourtType(f.landmarks);
  if (best) s.best.push(best.type);
  console.log(`${f.clip}@${f.time_s}\t${f.split}\t${f.landmarks.length}\t${cells.join("\t")}\t${best?.type ?? "(4 points: exact fit, no check)"}`);
}
console.log("\nsplit\tframes examined\twith ≥4 landmarks\tfitted\tleave-one-out median (m) by type\tbest type per frame");
for (const [split, s] of Object.entries(summary)) {
  const byType = COURT_TYPE_IDS.map((id) => `${id} ${fmt(median(s.errors[id]))} (n=${s.errors[id].length})`).join(", ");
  console.log(`${split}\t${s.examined}\t${s.four}\t${s.fitted}\t${byType}\t${s.best.join(", ") || "–"}`);
}

/** One frame (exact seek) as RGB at twice WORK_WIDTH, where registration finds the lines (registerPicture); W, H and factor are the working picture's. Decoded once: the tables below read the labelled frames again. */
const decoded = new Map<string, Promise<{ fine: Uint8Array; W: number; H: number; factor: number }>>();
function rgbAt(clip: string, t: number, width: number, height: number) {
  const key = `${clip}@${t}`;
  if (!decoded.has(key)) decoded.set(key, decodeAt(clip, t, width, height));
  return decoded.get(key)!;
}
async function decodeAt(clip: string, t: number, width: number, height: number) {
  const W = WORK_WIDTH, H = Math.round((height * W) / width / 2) * 2;
  const buf = await runTool(FFMPEG, ["-v", "error", "-ss", String(t), "-i", path.join(CLIPS, `${clip}.mp4`), "-frames:v", "1", "-vf", `scale=${2 * W}:${2 * H}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
  return { fine: new Uint8Array(buf.buffer, buf.byteOffset, 4 * W * H * 3), W, H, factor: width / W };
}

/** The painted lines as the runner finds them on real footage (the learned mask), or by the stripe test (--stripe-lines). */
const lineModel: CourtLineModel | undefined = args.includes("--stripe-lines") ? undefined : await loadCourtLineModel(courtLineModelPath());
/** One picture at twice the working size registered without rims (registerPicture), its lines found as the run asks. */
async function register(fine: Uint8Array, W: number, H: number) {
  return registerPicture(fine, W, H, { lines: await lineModel?.masks(halvePicture(fine, 2 * W, 2 * H), W, H) });
}

/**
 * Every frame within WINDOW_S of `t` (as the exact seek of rgbAt, at twice WORK_WIDTH), registered:
 * how many register, and as which types. One frame's registration can turn on its compression noise
 * or where a player stands; the frames around it say whether it holds.
 */
const WINDOW_S = 0.25;
async function registeredAround(clip: string, t: number, width: number, height: number): Promise<string> {
  const W = WORK_WIDTH, H = Math.round((height * W) / width / 2) * 2, per = 4 * W * H * 3;
  const from = Math.max(0, t - WINDOW_S);
  const buf = await runTool(FFMPEG, ["-v", "error", "-ss", String(from), "-t", String(t + WINDOW_S - from), "-i", path.join(CLIPS, `${clip}.mp4`), "-vf", `scale=${2 * W}:${2 * H}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
  const types: string[] = [];
  let frames = 0;
  for (let k = 0; (k + 1) * per <= buf.length; k++, frames++) {
    const r = await register(new Uint8Array(buf.buffer, buf.byteOffset + k * per, per), W, H);
    if (r) types.push(r.type);
  }
  return `${types.length} of ${frames}${types.length ? ` (${[...new Set(types)].join(", ")})` : ""}`;
}

console.log(`\nline detector\nframe\tsplit\tregistered\ttype\tlandmark errors (m)\tmedian\tframes within ${WINDOW_S} s registered`);
const detected: Record<string, { frames: number; registered: number; errors: number[]; clips: Set<string>; clipsRegistered: Set<string> }> = {
  tuning: { frames: 0, registered: 0, errors: [], clips: new Set(), clipsRegistered: new Set() },
  held_out: { frames: 0, registered: 0, errors: [], clips: new Set(), clipsRegistered: new Set() },
};
for (const f of data.frames) {
  const { fine, W, H, factor } = await rgbAt(f.clip, f.time_s, f.width, f.height);
  const r = await register(fine, W, H);
  const around = await registeredAround(f.clip, f.time_s, f.width, f.height);
  const d = detected[f.split];
  d.frames++;
  d.clips.add(f.clip);
  if (!r) { console.log(`${f.clip}@${f.time_s}\t${f.split}\tno\t–\t–\t–\t${around}`); continue; }
  d.registered++;
  d.clipsRegistered.add(f.clip);
  const inv = invertHomography(viewInPicture(r.h, 1 / factor, 0, 0))!;
  const lm = courtLandmarks(COURT_TEMPLATES[r.type]);
  const errors = f.landmarks.filter((p) => lm[p.name]).map((p) => {
    const at = applyHomography(inv, [p.x, p.y]);
    return Math.hypot(at[0] - lm[p.name][0], at[1] - lm[p.name][1]);
  });
  d.errors.push(...errors);
  console.log(`${f.clip}@${f.time_s}\t${f.split}\tyes (${r.hits}/${r.inPicture} px on stripes)\t${r.type}\t${errors.map(fmt).join(" ")}\t${fmt(median(errors))}\t${around}`);
}
// The ceiling the acceptance check sets: the view fitted on the labelled landmarks (exact with
// four), each court type's lines drawn through it, and the share on stripes. Four landmarks of
// which three lie on one court line fit no view (the baseline's three crossings): listed as such.
console.log(`\nexact labelled view: share of the drawn lines on stripes (a view is kept at ${COURT_REGISTRATION_DEFAULTS.MIN_HIT_SHARE})\nframe\tsplit\t${COURT_TYPE_IDS.join("\t")}\tlines of the best type under half on stripes (on stripes/drawn px)`);
for (const f of data.frames) {
  const { fine, W, H, factor } = await rgbAt(f.clip, f.time_s, f.width, f.height);
  const support = stripeSupport(courtLineMasks(fine, W, H).working, W, H);
  const scaled = f.landmarks.map((p) => ({ ...p, x: p.x / factor, y: p.y / factor }));
  if (onOneLine(f.landmarks)) { console.log(`${f.clip}@${f.time_s}\t${f.split}\t(three of four landmarks on one court line: no view)`); continue; }
  const shares = COURT_TYPE_IDS.map((id) => {
    const h = fitCourt(id, scaled)!;
    const s = lineSupport(h, id, support, W, H);
    return { id, h, share: s.hits / Math.max(1, s.inPicture) };
  });
  const top = shares.reduce((a, b) => (b.share > a.share ? b : a));
  const missing = courtLines(COURT_TEMPLATES[top.id]).flatMap((l) => {
    const s = lineSupport(top.h, top.id, support, W, H, [l.name]);
    return s.inPicture >= 10 && s.hits < s.inPicture / 2 ? [`${l.name} ${s.hits}/${s.inPicture}`] : [];
  });
  console.log(`${f.clip}@${f.time_s}\t${f.split}\t${shares.map((x) => fmt(x.share)).join("\t")}\t${top.id}: ${missing.join(", ") || "none"}`);
}

// Frames examined with fewer than four landmarks: registered or not (no truth to measure the view against).
const manifestClips = (JSON.parse(readFileSync(path.resolve(CLIPS, "../manifest.json"), "utf8")) as { clips: Array<{ file: string; width: number; height: number }> }).clips;
const unlabelled: string[] = [];
for (const e of data.examined_without_four) {
  const meta = manifestClips.find((c) => c.file === `clips/${e.clip}.mp4`)!;
  const { fine, W, H } = await rgbAt(e.clip, e.time_s, meta.width, meta.height);
  const r = await register(fine, W, H);
  unlabelled.push(`${e.clip} (${e.split}): ${r ? `registered as ${r.type}` : "not registered"}`);
}
// The issue's target counts clips: a clip is registered when one of its labelled frames is.
console.log("\nsplit\tlabelled frames\tregistered\tclips with a labelled frame\tclips registered\tmedian landmark error (m)");
for (const [split, d] of Object.entries(detected)) console.log(`${split}\t${d.frames}\t${d.registered}\t${d.clips.size}\t${d.clipsRegistered.size}\t${fmt(median(d.errors))} (n=${d.errors.length})`);
console.log(`\nframes with fewer than four landmarks:\n  ${unlabelled.join("\n  ")}`);

console.log("\nattempt\tsplit\tregistered\ttype\tcourt position (m)\tchart\tpoints (truth)");
const twoThree: Record<string, { attempts: number; registered: number; right: number }> = { tuning: { attempts: 0, registered: 0, right: 0 }, held_out: { attempts: 0, registered: 0, right: 0 } };
for (const a of data.attempts) {
  const meta = manifestClips.find((c) => c.file === `clips/${a.clip}.mp4`)!;
  const { fine, W, H, factor } = await rgbAt(a.clip, a.release_s, meta.width, meta.height);
  const r = await register(fine, W, H);
  const t = twoThree[a.split];
  t.attempts++;
  if (!r) { console.log(`${a.clip}@${a.release_s}\t${a.split}\tno\t–\t–\t–\t– (${a.points})`); continue; }
  t.registered++;
  const at = applyHomography(invertHomography(viewInPicture(r.h, 1 / factor, 0, 0))!, [a.feet.x, a.feet.y]);
  const points = isThreePoint(COURT_TEMPLATES[r.type], at) ? 3 : 2;
  if (points === a.points) t.right++;
  const normed = courtNormed(COURT_TEMPLATES[r.type], at);
  console.log(`${a.clip}@${a.release_s}\t${a.split}\tyes\t${r.type}\t${fmt(at[0])}, ${fmt(at[1])}\t${fmt(normed[0])}, ${fmt(normed[1])}\t${points} (${a.points})`);
}
console.log("\nsplit\tattempts\ton a registered court\t2-vs-3 right");
for (const [split, t] of Object.entries(twoThree)) console.log(`${split}\t${t.attempts}\t${t.registered}\t${t.right} of ${t.registered}`);

// The pipeline's court pass (gpu-runner/analysis/observe/court-views.ts) over every clip, as the
// analysis runs it: a picture every EVERY_S seconds, decoded and registered. Wall time on this
// machine (shared and noisy: compare runs made one after the other).
if (args.includes("--pipeline")) {
  console.log("\ncourt pass over every clip (observeCourtViews, the submit's default camera_setup: fixed)\nclip\tsplit\tcamera (label)\tseconds\tviews registered\tpicture shift (share of width)\tchanged share\tshots placed by");
  const manifest = JSON.parse(readFileSync(path.resolve(CLIPS, "../manifest.json"), "utf8")) as { clips: Array<{ file: string; width: number; height: number; fps: number; split: string; camera: string; duration_s: number }> };
  let total = 0, withViews = 0;
  const observations = arg("observations");
  const clips = manifest.clips.filter((c) => split === undefined || c.split === split);
  console.log(observations ? `rims of the kept observations in ${observations}: a court must put its basket under one` : "no rims (no --observations): courts are not checked against a rim");
  for (const c of clips) {
    const rims = observations ? assembleRealObservations((JSON.parse(readFileSync(path.join(observations, `${path.basename(c.file, ".mp4")}.json`), "utf8")) as { raw: RawRealObservations }).raw).rims : undefined;
    const t0 = performance.now();
    const { views, motion } = await observeCourtViews(videoFrames(path.resolve(CLIPS, "..", c.file), c), REAL_FOOTAGE_DEFAULTS.fps, { camera: "fixed", durationS: c.duration_s, rims, lines: lineModel });
    const s = (performance.now() - t0) / 1000;
    total += s;
    if (views.length) withViews++;
    const plan = planCourtViews(views, "fixed", motion);
    console.log(`${path.basename(c.file, ".mp4")}\t${c.split}\t${c.camera}\t${s.toFixed(2)}\t${views.length ? `${views.length} (${[...new Set(views.map((v) => v.type))].join(", ")})` : "0"}\t${motion.maxShiftShare.toFixed(3)}\t${motion.maxChangedShare.toFixed(2)}\t${plan.why}`);
  }
  console.log(`\n${clips.length} clips${split ? ` (${split})` : ""}: court pass ${total.toFixed(1)} s in all; clips with a registered view: ${withViews}`);
}
