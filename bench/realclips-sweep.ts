// Sweeps named analysis settings over the TUNING clips of ../shared/realclips and prints one row per
// combination: attempt F1, precision/recall, made/missed and clips exactly right on the tuning part
// and on the original 18 — the figures a setting is chosen by. The held-out part is never swept
// (issue 24: measured, never tuned on); measure a chosen setting with bench/realclips.ts.
//   npx tsx bench/realclips-sweep.ts --vary 'attempts.NEAR_RIM_WIDTHS=1.1|1.3|1.5' \
//       [--vary 'realFootage.balls.SEED_MOTION_MIN=3|4|6' …] [--set name=value …] [--clips a,b]
//       [--observations bench/out/observations] [--out bench/out/realclips-sweep.json]
// Values are separated by `|` (a value may be a JSON array); every combination of the --vary lists
// is run, with the --set values under all of them. Observations are kept (bench/realclips.ts
// --observations): the first combination observes each clip once (minutes), and every combination
// that changes only the ball-path, rim-play or attempt settings replays them (seconds).
// HOOPS_MODEL_DIR chooses the detector as it does for the runner.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AnalysisSettings } from "../gpu-runner/analysis/pipeline.ts";
import { commandLine, printTable, runBench } from "./lib.ts";
import { parseSettingArgs, scoreClip, summarize, type ClipScore, type PartSummary } from "./realclips.ts";
import { readManifest, REALCLIPS_DIR } from "./realclips-manifest.ts";

const USAGE = `npx tsx bench/realclips-sweep.ts --vary 'group.NAME=v1|v2' [--vary …] [--set group.NAME=value …] [--clips a,b] [--observations DIR] [--out file.json]`;

/** Every combination of the `name=v1|v2|…` lists, as `name=value` arguments for parseSettingArgs. */
export function combinations(varies: string[]): string[][] {
  let out: string[][] = [[]];
  for (const v of varies) {
    const eq = v.indexOf("=");
    if (eq < 0) throw new Error(`--vary ${v}: expected name=v1|v2`);
    const name = v.slice(0, eq);
    out = out.flatMap((c) => v.slice(eq + 1).split("|").map((value) => [...c, `${name}=${value}`]));
  }
  return out;
}

async function main() {
  const { args, usageError } = commandLine(USAGE);
  if (!args.includes("--vary")) usageError("at least one --vary is needed");
  const values = (k: string) => args.flatMap((a, i) => (a === `--${k}` ? [args[i + 1]] : []));
  if (values("split").some((s) => s !== "tuning")) throw new Error("the sweep runs on the tuning part only: the held-out part is measured with bench/realclips.ts, never swept");
  const only = values("clips")[0]?.split(",");
  const observations = path.resolve(values("observations")[0] ?? "bench/out/observations");
  const chosen = readManifest()
    .map((clip, index) => ({ clip, index }))
    .filter(({ clip }) => clip.split === "tuning" && (!only || only.some((o) => clip.file.includes(o))));
  const fixed = values("set");
  const combos = combinations(values("vary"));
  // A folder of this process's own: two sweeps at once must not read each other's artifacts.
  const workRoot = path.resolve(`bench/out/realclips-work/sweep-${process.pid}`);
  const rows: Array<{ settings: string[]; tuning: PartSummary; original: PartSummary; scores: ClipScore[] }> = [];
  for (const [i, combo] of combos.entries()) {
    const settings: AnalysisSettings = parseSettingArgs([...fixed, ...combo]);
    const t0 = performance.now();
    const scores: ClipScore[] = [];
    for (const { clip, index } of chosen) scores.push(await scoreClip(clip, index, workRoot, REALCLIPS_DIR, settings, observations));
    const tuning = summarize(scores), original = summarize(scores.filter((s) => s.original));
    rows.push({ settings: combo, tuning, original, scores });
    console.error(`[${i + 1}/${combos.length}] ${combo.join(" ")}: F1 ${tuning.f1.toFixed(3)}, made ${tuning.madeAccuracy?.toFixed(3)}, exact ${tuning.exactlyRight}/${tuning.clips} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);
  console.log(`\nTuning part (${chosen.length} clips)${fixed.length ? `, with ${fixed.join(" ")}` : ""}:\n`);
  printTable(
    rows.map((r) => ({
      settings: r.settings.join(" "),
      "attempt F1": pct(r.tuning.f1),
      "precision / recall": `${pct(r.tuning.precision)} / ${pct(r.tuning.recall)}`,
      "made/missed": pct(r.tuning.madeAccuracy),
      "exactly right": `${r.tuning.exactlyRight} / ${r.tuning.clips}`,
      "shots on no-attempt clips": r.tuning.attemptsOnClipsWithoutAttempt,
      "hoop visible, failed": r.tuning.visibleHoopFailures.length,
      "original 18: F1 / made": `${pct(r.original.f1)} / ${pct(r.original.madeAccuracy)}`,
    })),
  );
  rmSync(workRoot, { recursive: true, force: true });
  const out = values("out")[0] ?? "bench/out/realclips-sweep.json";
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ fixed, rows }, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) runBench(main);
