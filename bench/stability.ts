// How much do the real-clip results hang on a pixel? Replays each clip's kept observations (as
// `bench:realclips --observations DIR` keeps them) several times with small changes no camera or
// detector would promise to hold still: the rim's place moved by a few hundredths of its width, the
// rim watch's ball scores moved by a few hundredths. A call that flips under such a change was a coin
// toss, however often it came out right; the spread of the part's figures over the runs says how far
// a single run's figure is from what the same rules would score on footage like it.
//   npx tsx bench/stability.ts --observations DIR [--split tuning|held_out] [--clips a,b] [--runs 8]
//                               [--rim-shift 0.03] [--score-jitter 0.03] [--out file.json]
// The observations must be kept already (a first `bench:realclips --observations DIR` run); settings are
// the defaults. Measuring the held-out part is allowed, choosing anything by its figures is not.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sameShots, scoreShots } from "../gpu-runner/analysis/metrics.ts";
import type { RawRealObservations } from "../gpu-runner/analysis/observe/real-footage.ts";
import { seededRandom } from "../gpu-runner/vision/random.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { chooseClips, clipName, REALCLIPS_DIR, SPLITS } from "./realclips-manifest.ts";
import { scoreClip, type ClipScore, type PerturbObservations } from "./realclips.ts";

export interface PerturbSettings {
  /** Spread (standard deviation) of each rim's move, in rim widths, the same over the whole clip. */
  RIM_SHIFT_RIM_WIDTHS: number;
  /** Spread of the change to each ball score of the rim watch (scores 0–1). */
  BALL_SCORE_JITTER: number;
}

export const PERTURB_DEFAULTS: PerturbSettings = { RIM_SHIFT_RIM_WIDTHS: 0.03, BALL_SCORE_JITTER: 0.03 };

/** A normal draw (Box–Muller) from a uniform generator. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** The kept observations with every rim moved by one draw and every watched ball's score changed by its own. */
export function perturbObservations(seed: number, o: PerturbSettings = PERTURB_DEFAULTS): PerturbObservations {
  return (raw: RawRealObservations) => {
    const random = seededRandom(seed);
    const rims = raw.rims.map((r) => {
      const w = r.boxes[0]?.w ?? 0;
      const dx = normal(random) * o.RIM_SHIFT_RIM_WIDTHS * w, dy = normal(random) * o.RIM_SHIFT_RIM_WIDTHS * w;
      return { ...r, boxes: r.boxes.map((b) => ({ ...b, cx: b.cx + dx, cy: b.cy + dy })) };
    });
    const watch = raw.watch.map((samples) =>
      samples.map((w) => w && { ...w, detections: w.detections.map((d) => (d.className === "ball" ? { ...d, score: Math.min(1, Math.max(0, d.score + normal(random) * o.BALL_SCORE_JITTER)) } : d)) }),
    );
    return { ...raw, rims, watch };
  };
}

/** A small stable number from a clip's name, so each clip draws its own changes whatever else runs. */
function nameSeed(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

const asReleased = (s: ClipScore) => s.shots.map((x) => ({ start: x.release, made: x.made }));

/** What a perturbed run changed on a clip, in words (the unperturbed shots against the run's). */
function change(base: ClipScore, run: ClipScore): string {
  if (base.outcome !== run.outcome) return `${base.outcome} → ${run.outcome}`;
  const parts: string[] = [];
  if (run.attempts !== base.attempts) parts.push(`attempts ${base.attempts} → ${run.attempts}`);
  if (run.makes !== base.makes) parts.push(`makes ${base.makes} → ${run.makes}`);
  if (run.madeCorrect !== base.madeCorrect) parts.push(`calls right ${base.madeCorrect} → ${run.madeCorrect}`);
  return parts.length ? parts.join(", ") : "a release moved";
}

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)} %`);

const USAGE = `npm run bench:stability -- --observations DIR [--split tuning|held_out] [--clips name,name] [--runs 8] [--rim-shift 0.03] [--score-jitter 0.03] [--out file.json]
  --observations  the folder bench:realclips --observations DIR kept each clip's observations in (required; run that first)
  --runs          changed replays a clip (each seeded by the clip's name and the run's number)
  --rim-shift     spread of each rim's move, in rim widths (0: the rim stays)
  --score-jitter  spread of the change to each watched ball score (0: scores stay)
  --out           where the JSON goes (default bench/out/stability.json)`;

async function main() {
  const { arg, usageError } = commandLine(USAGE);
  const observations = arg("observations") ?? usageError("--observations DIR is required");
  const runs = Number(arg("runs") ?? 8);
  const settings: PerturbSettings = {
    RIM_SHIFT_RIM_WIDTHS: Number(arg("rim-shift") ?? PERTURB_DEFAULTS.RIM_SHIFT_RIM_WIDTHS),
    BALL_SCORE_JITTER: Number(arg("score-jitter") ?? PERTURB_DEFAULTS.BALL_SCORE_JITTER),
  };
  const chosen = chooseClips(arg("split"), arg("clips")?.split(","));
  const workRoot = path.resolve("bench/out/stability-work");
  mkdirSync(workRoot, { recursive: true });
  const rows: Array<{ base: ClipScore; runs: ClipScore[] }> = [];
  for (const { clip, index } of chosen) {
    const base = await scoreClip(clip, index, workRoot, REALCLIPS_DIR, {}, observations);
    const perturbed: ClipScore[] = [];
    for (let r = 0; r < runs; r++) perturbed.push(await scoreClip(clip, index, workRoot, REALCLIPS_DIR, {}, observations, perturbObservations(nameSeed(clipName(clip)) + r, settings)));
    rows.push({ base, runs: perturbed });
    const changed = perturbed.filter((p) => p.outcome !== base.outcome || !sameShots(asReleased(p), asReleased(base)));
    console.error(`${base.clip} (${base.split}): changed in ${changed.length} of ${runs}`);
  }
  console.log(`\nrim moved ${settings.RIM_SHIFT_RIM_WIDTHS} rim widths (sd), ball scores ${settings.BALL_SCORE_JITTER} (sd), ${runs} runs a clip\n`);
  const summary: Record<string, unknown> = {};
  for (const part of SPLITS) {
    const mine = rows.filter((r) => r.base.split === part);
    if (!mine.length) continue;
    const unstable = mine
      .map(({ base, runs: rs }) => ({ base, changed: rs.filter((p) => p.outcome !== base.outcome || !sameShots(asReleased(p), asReleased(base))) }))
      .filter((x) => x.changed.length);
    console.log(`${part}: ${mine.length} clips, ${unstable.length} changed in some run\n`);
    if (unstable.length)
      printTable(
        unstable.map(({ base, changed }) => ({
          clip: base.clip,
          "runs changed": `${changed.length} / ${runs}`,
          "what changed (each distinct change, runs)": [...new Map(changed.map((c) => [change(base, c), 0])).keys()].map((k) => `${k} (${changed.filter((c) => change(base, c) === k).length})`).join("; "),
        })),
      );
    const baseScores = scoreShots(mine.map((r) => r.base));
    const perRun = Array.from({ length: runs }, (_, r) => scoreShots(mine.map((m) => m.runs[r])));
    const spread = (f: (s: typeof baseScores) => number | null) => {
      const v = perRun.map(f).filter((x): x is number => x !== null);
      return v.length ? { mean: v.reduce((a, b) => a + b, 0) / v.length, min: Math.min(...v), max: Math.max(...v) } : null;
    };
    const fmt = (x: { mean: number; min: number; max: number } | null) => (x ? `${pct(x.mean)} (${pct(x.min)}–${pct(x.max)})` : "–");
    const measures = {
      "attempt F1": [baseScores.f1, spread((s) => s.f1)],
      "made/missed on matched": [baseScores.madeAccuracy, spread((s) => s.madeAccuracy)],
      "clips exactly right": [baseScores.exactlyRight / mine.length, spread((s) => s.exactlyRight / mine.length)],
    } as const;
    console.log("");
    printTable(Object.entries(measures).map(([measure, [b, s]]) => ({ measure, "as kept": pct(b), "perturbed runs: mean (lowest–highest)": fmt(s) })));
    console.log("");
    summary[part] = { clips: mine.length, changedInSomeRun: unstable.map((u) => ({ clip: u.base.clip, runs: u.changed.length })), base: baseScores, perRun };
  }
  const out = arg("out") ?? "bench/out/stability.json";
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ settings, runs, summary }, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) runBench(main);
