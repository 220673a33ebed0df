// One player per one-person clip (issue 25, point 4): runs analyzeGame on the named TUNING clips of
// ../shared/realclips that show one person (chosen from the manifest's notes and frames) and counts
// the players the result credits. Never choose or tune on held_out clips: `--measure-held-out` lets
// held-out clips be named, to measure the held-out target once a change is chosen.
//   npx tsx bench/one-person.ts name,name [--solo] [--measure-held-out] [--observations DIR]
// --observations DIR replays the observations bench/realclips.ts kept in DIR (observing and keeping
// them first where missing), so a change to the rules after the observation is measured in seconds.
import path from "node:path";
import { analyzeGame, AnalysisError } from "../gpu-runner/analysis/pipeline.ts";
import { probe } from "../gpu-runner/media/probe.ts";
import { AnalysisModels } from "../gpu-runner/vision/models.ts";
import { commandLine } from "./lib.ts";
import { analyzeKeepingObservations } from "./realclips.ts";
import { clipName, readManifest, REALCLIPS_DIR } from "./realclips-manifest.ts";

/** One set of models for every analysis this file runs (opened on first use). */
const models = new AnalysisModels();

const USAGE = `npx tsx bench/one-person.ts name,name [--solo] [--measure-held-out] [--observations DIR]
  the players each named tuning clip's result credits (one per one-person clip is the target), and its shots credited to a player
  --solo              submit with session_type: solo
  --measure-held-out  allow held-out clips, to measure a chosen change once (never to choose one)
  --observations      replay the observations bench:realclips kept in DIR (observing and keeping them where missing)`;
const { args, arg, usageError } = commandLine(USAGE);
const names = (args[0]?.startsWith("--") ? "" : (args[0] ?? "")).split(",").filter(Boolean);
if (!names.length) usageError("name the clips to measure");
const solo = args.includes("--solo");
const measureHeldOut = args.includes("--measure-held-out");
const observationsDir = arg("observations");
const manifest = readManifest();
for (const name of names) {
  const clip = manifest.find((c) => clipName(c) === name);
  if (!clip) throw new Error(`no clip ${name}`);
  if (clip.split !== "tuning" && !measureHeldOut) throw new Error(`${name} is ${clip.split}: only tuning clips are measured here (--measure-held-out to measure one)`);
  const file = path.join(REALCLIPS_DIR, clip.file);
  try {
    const video = await probe(file), workDir = path.resolve("bench/out/one-person", name), options = solo ? { session_type: "solo" as const } : {};
    const r = observationsDir
      ? await analyzeKeepingObservations(file, video, workDir, {}, observationsDir, name, options)
      : await analyzeGame({ models, videoPath: file, video, workDir, options });
    const teams = new Set(r.players.map((p) => p.team_id)).size;
    // Each shot of a one-person clip is that person's: the box score credits it to a player, or lists it under "Scorer not identified".
    const credited = r.shots.filter((s) => s.players.scorer !== null).length;
    console.log(`${name}\t${clip.split}\tplayers ${r.players.length}\tteams ${teams}\tshots with a scorer ${credited} of ${r.shots.length}`);
  } catch (e) {
    if (!(e instanceof AnalysisError)) throw e;
    console.log(`${name}\t${clip.split}\t${e.code}`);
  }
}
