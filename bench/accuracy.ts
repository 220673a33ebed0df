// Accuracy harness: generates games that were never used while developing the pipeline
// (seeds 101+, all camera variants), runs analyzeGame on each and compares with ground truth.
//   npx tsx bench/accuracy.ts [--games 8] [--seconds 60] [--seed-base 101] [--dev] [--misses]
// --dev switches to the development seeds (1..) for tuning; report figures without it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SYNTHETIC_FIXTURE } from "../gpu-runner/vision/detector.ts";
import { analyzeGame, type AnalysisRun } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import type { AnalysisResult } from "../gpu-runner/analysis/types.ts";
import { GENERATOR_VERSION, generateGame, type GroundTruth } from "../scripts/synth/generate.ts";
import type { CameraVariant, SizeName } from "../scripts/synth/render.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { commandLine } from "./lib.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const USAGE = `npx tsx bench/accuracy.ts [--games 8] [--seconds 60] [--seed-base 101] [--out bench/out/games] [--dev] [--misses]
  generated games never used while developing (seeds 101+, every camera variant) against their ground truth
  --dev     the development seeds (1..), for tuning; report figures without it
  --misses  print every wrong scorer (a development aid)`;
const { args, arg } = commandLine(USAGE);
const dev = args.includes("--dev");
// --misses prints every wrong scorer (development aid).
const showMisses = args.includes("--misses");
const evidenceRows: unknown[] = [];
const games = Number(arg("games") ?? "8");
const seconds = Number(arg("seconds") ?? "60");
const seedBase = Number(arg("seed-base") ?? (dev ? "1" : "101"));
const outDir = path.resolve(arg("out") ?? "bench/out/games");
const cameras: CameraVariant[] = ["wide", "pan", "side", "portrait"];
const MATCH_WINDOW_S = 1.0;

interface Counts {
  gt: number; pred: number; matched: number; madeOk: number; pointsOk: number; scorerOk: number; scorerN: number;
  teamOk: number; teamN: number; threeOk: number; ftOk: number; fouledOk: number; assistOk: number; assistN: number; reboundOk: number; reboundN: number;
  jerseyOk: number; jerseyN: number;
  /** Player rows with a team (what the box score lists) and the generated players; track samples on a row's majority person, of all its mapped samples (a row that merges two people scores under 100 %). */
  rows: number; truePlayers: number; pureSamples: number; mappedSamples: number;
  /** Metres between the reported and the true shot spot, per matched shot with a spot. */
  locationErrors: number[];
}
const zero = (): Counts => ({ gt: 0, pred: 0, matched: 0, madeOk: 0, pointsOk: 0, scorerOk: 0, scorerN: 0, teamOk: 0, teamN: 0, threeOk: 0, ftOk: 0, fouledOk: 0, assistOk: 0, assistN: 0, reboundOk: 0, reboundN: 0, jerseyOk: 0, jerseyN: 0, rows: 0, truePlayers: 0, pureSamples: 0, mappedSamples: 0, locationErrors: [] });

async function ensureGame(seed: number, camera: CameraVariant): Promise<{ gt: GroundTruth; video: string }> {
  const size: SizeName = camera === "portrait" ? "portrait" : "720p";
  const base = path.join(outDir, `game-s${seed}-${camera}-${size}`);
  if (existsSync(`${base}.json`) && existsSync(`${base}.mp4`)) {
    const gt = JSON.parse(readFileSync(`${base}.json`, "utf8")) as GroundTruth;
    if (gt.seconds === seconds && gt.player_samples && gt.generator_version === GENERATOR_VERSION) return { gt, video: `${base}.mp4` };
  }
  const gt = await generateGame({ seed, seconds, camera, size, out: outDir });
  return { gt, video: `${base}.mp4` };
}

/** Maps each detected player to the generated person its boxes sit on most often, with the votes behind it. */
function mapPlayers(result: AnalysisResult, gt: GroundTruth): { mapping: Map<string, string>; votes: Map<string, Map<string, number>> } {
  const clusters = readFileSync(result.artifacts.clusters, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const votes = new Map<string, Map<string, number>>();
  for (const row of clusters) {
    if (row.type !== "track" || !row.player) continue;
    for (const s of row.samples as Array<{ t: number; x: number; y: number; h: number }>) {
      const g = gt.player_samples.reduce((a, b) => (Math.abs(b.t - s.t) < Math.abs(a.t - s.t) ? b : a));
      let best: string | null = null, bd = Infinity;
      for (const [id, [x, y, h]] of Object.entries(g.boxes)) {
        const d = Math.hypot(x - s.x, (y - s.y) * (gt.height / gt.width)) / Math.max(h * (gt.height / gt.width), 1e-3);
        if (d < bd) { bd = d; best = id; }
      }
      if (!best || bd > 0.5) continue;
      const m = votes.get(row.player) ?? new Map<string, number>();
      m.set(best, (m.get(best) ?? 0) + 1);
      votes.set(row.player, m);
    }
  }
  const out = new Map<string, string>();
  for (const [p, m] of votes) out.set(p, [...m.entries()].sort((a, b) => b[1] - a[1])[0][0]);
  return { mapping: out, votes };
}

function evaluate(result: AnalysisRun, gt: GroundTruth): Counts {
  const c = zero();
  c.gt = gt.shots.length;
  c.pred = result.shots.length;
  const { mapping, votes } = mapPlayers(result, gt);
  const actions = readFileSync(result.artifacts.actions, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; start: number; end: number; player: string });
  /** A detected player as the generated person it maps to, with that person's team (for --misses). */
  const who = (k: string | null) => (k ? `${mapping.get(k) ?? "?"}/t${gt.players.find((p) => p.id === mapping.get(k))?.team ?? "?"}` : "-");
  const used = new Set<number>();
  for (const g of gt.shots) {
    let best = -1, bd = Infinity;
    result.shots.forEach((s, i) => {
      const d = Math.abs(s.start_seconds - g.release_seconds);
      if (!used.has(i) && d < bd && d <= MATCH_WINDOW_S) { bd = d; best = i; }
    });
    if (best < 0) continue;
    used.add(best);
    const s = result.shots[best];
    c.matched++;
    if (s.made === g.made) c.madeOk++;
    if (s.points === g.points) c.pointsOk++;
    if (s.is_three_point === g.is_three_point) c.threeOk++;
    const w = s.location.shot_world_normed;
    // Normalised half-court: x spans 15 m, y 14 m.
    if (w) c.locationErrors.push(Math.hypot((w[0] - g.court_position_normed[0]) * 15, (w[1] - g.court_position_normed[1]) * 14));
    if (s.is_free_throw === g.is_free_throw) c.ftOk++;
    if (s.is_fouled === g.is_fouled) c.fouledOk++;
    c.scorerN++;
    if (showMisses) {
      const ev = result.diagnostics.shooterEvidence.find((e) => Math.abs(e.release_s - s.start_seconds) < 0.01);
      const m = (k: string | null) => (k ? mapping.get(k) ?? "?" : null);
      if (ev) evidenceRows.push({ game: gt.seed, t: g.release_seconds, truth: g.shooter, got: m(s.players.scorer), holder: m(ev.holder), approach: m(ev.approach), dribbler: m(ev.dribbler), near: ev.candidates.map((c) => [m(c.key), c.distance]) });
    }
    if (s.players.scorer && mapping.get(s.players.scorer) === g.shooter) c.scorerOk++;
    else if (showMisses) {
      const got = s.players.scorer ? `${s.players.scorer} (= ${mapping.get(s.players.scorer) ?? "unmapped"})` : "nobody";
      console.error(`  scorer miss at ${g.release_seconds.toFixed(2)} s: expected ${g.shooter}, got ${got}${g.is_free_throw ? " [free throw]" : ""}`);
      const ev = result.diagnostics.shooterEvidence.find((e) => Math.abs(e.release_s - s.start_seconds) < 0.01);
      if (ev) console.error(`    holder ${who(ev.holder)} approach ${who(ev.approach)} dribbler ${who(ev.dribbler)} near spot ${ev.candidates.map((c) => `${who(c.key)}@${c.distance}m`).join(" ")}; shooter team t${gt.players.find((p) => p.id === g.shooter)?.team}`);
    }
    if (g.assister || s.players.assister) {
      c.assistN++;
      if ((s.players.assister ? mapping.get(s.players.assister) : null) === g.assister) c.assistOk++;
      else if (showMisses) {
        const segs = actions.filter((a) => a.type === "possession" && a.end >= s.start_seconds - 5 && a.start <= s.start_seconds).map((a) => `${who(a.player)}@${a.start.toFixed(1)}-${a.end.toFixed(1)}`);
        console.error(`  assist miss at ${g.release_seconds.toFixed(2)} s: expected ${g.assister ?? "none"}, got ${who(s.players.assister)}; scorer ${who(s.players.scorer)} (truth ${g.shooter}); possessions ${segs.join(" ")}`);
      }
    }
    if (g.rebounder || s.players.rebounder) {
      c.reboundN++;
      if ((s.players.rebounder ? mapping.get(s.players.rebounder) : null) === g.rebounder) c.reboundOk++;
    }
  }
  // Team ids are arbitrary labels: score the better of the two pairings.
  let same = 0, swapped = 0;
  for (const p of result.players) {
    const gid = mapping.get(p.key);
    const gp = gt.players.find((x) => x.id === gid);
    if (!gp || p.team_id === null) continue;
    c.teamN++;
    if (p.team_id === gp.team) same++;
    else swapped++;
    if (p.jersey !== null) {
      c.jerseyN++;
      if (p.jersey === gp.jersey) c.jerseyOk++;
    }
  }
  c.teamOk = Math.max(same, swapped);
  c.truePlayers = gt.players.length;
  for (const p of result.players) {
    if (p.team_id === null) continue;
    c.rows++;
    const v = [...(votes.get(p.key)?.values() ?? [])];
    c.pureSamples += v.length ? Math.max(...v) : 0;
    c.mappedSamples += v.reduce((a, b) => a + b, 0);
  }
  return c;
}

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "n/a");

async function main() {
  const rows: Array<{ name: string; c: Counts; error?: string }> = [];
  for (let k = 0; k < games; k++) {
    const seed = seedBase + k;
    const camera = cameras[k % cameras.length];
    const { gt, video } = await ensureGame(seed, camera);
    const name = path.basename(video, ".mp4");
    try {
      const result = await analyzeGame({ models, videoPath: video, video: await probe(video), workDir: path.join(outDir, "work", name), options: { jerseys: "auto" }, settings: { detector: SYNTHETIC_FIXTURE } });
      rows.push({ name, c: evaluate(result, gt) });
    } catch (e) {
      rows.push({ name, c: { ...zero(), gt: gt.shots.length }, error: (e as Error).message });
    }
    const r = rows[rows.length - 1];
    console.error(`${name}: ${r.error ?? `gt ${r.c.gt} pred ${r.c.pred} matched ${r.c.matched}`}`);
  }
  const t = rows.reduce((a, r) => {
    for (const k of Object.keys(a) as Array<keyof Counts>) {
      if (k === "locationErrors") a.locationErrors.push(...r.c.locationErrors);
      else a[k] += r.c[k];
    }
    return a;
  }, zero());
  const errs = [...t.locationErrors].sort((a, b) => a - b);
  const q = (p: number) => (errs.length ? errs[Math.min(errs.length - 1, Math.floor(p * errs.length))].toFixed(2) : "n/a");
  if (showMisses) writeFileSync(path.join(outDir, "..", "shooter-evidence.jsonl"), evidenceRows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const precision = t.pred ? t.matched / t.pred : 0, recall = t.gt ? t.matched / t.gt : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  console.log(`\nAccuracy on ${rows.length} generated games (${dev ? "DEV seeds" : "held-out seeds"} ${seedBase}..${seedBase + games - 1}, ${seconds}s each, cameras ${cameras.join("/")})\n`);
  console.log("| game | gt shots | detected | matched | made ok | points ok | scorer ok | team ok | player rows / true players | rows' samples on their own person |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.c.gt} | ${r.error ? `error: ${r.error}` : r.c.pred} | ${r.c.matched} | ${r.c.madeOk} | ${r.c.pointsOk} | ${r.c.scorerOk}/${r.c.scorerN} | ${r.c.teamOk}/${r.c.teamN} | ${r.c.rows} / ${r.c.truePlayers} | ${pct(r.c.pureSamples, r.c.mappedSamples)}% |`);
  console.log("\n| metric | value | target |");
  console.log("|---|---|---|");
  console.log(`| shot precision | ${pct(t.matched, t.pred)}% | |`);
  console.log(`| shot recall | ${pct(t.matched, t.gt)}% | |`);
  console.log(`| shot F1 | ${(100 * f1).toFixed(1)}% | ≥ 95% |`);
  console.log(`| made/missed accuracy | ${pct(t.madeOk, t.matched)}% | ≥ 95% |`);
  console.log(`| points accuracy | ${pct(t.pointsOk, t.matched)}% | ≥ 90% |`);
  console.log(`| scorer accuracy | ${pct(t.scorerOk, t.scorerN)}% | ≥ 80% |`);
  console.log(`| team assignment accuracy | ${pct(t.teamOk, t.teamN)}% | |`);
  console.log(`| 2 vs 3 accuracy | ${pct(t.threeOk, t.matched)}% | |`);
  console.log(`| free throw accuracy | ${pct(t.ftOk, t.matched)}% | |`);
  console.log(`| and-one (is_fouled) accuracy | ${pct(t.fouledOk, t.matched)}% | |`);
  console.log(`| assister accuracy | ${pct(t.assistOk, t.assistN)}% | |`);
  console.log(`| rebounder accuracy | ${pct(t.reboundOk, t.reboundN)}% | |`);
  console.log(`| shot spot error, median / 90th percentile (m) | ${q(0.5)} / ${q(0.9)} | |`);
  console.log(`| jersey number accuracy (players with a read number) | ${pct(t.jerseyOk, t.jerseyN)}% | |`);
  console.log(`| player rows / true players | ${t.rows} / ${t.truePlayers} | |`);
  console.log(`| rows' track samples on their own person (under 100 %: rows that merge people) | ${pct(t.pureSamples, t.mappedSamples)}% | |`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
