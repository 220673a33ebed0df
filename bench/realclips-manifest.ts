// The labelled real clips in ../shared/realclips (read from there at run time: they carry no licence
// and are never copied into this repository), for the real-clip bench and the real-footage tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { LabelledShot } from "../gpu-runner/analysis/metrics.ts";

export const REALCLIPS_DIR = path.resolve(import.meta.dirname, "../../shared/realclips");

/**
 * `tuning`: develop and tune on these. `held_out`: clips from sources no tuning clip comes from —
 * measured, never tuned on (never used to choose a rule, a threshold or training data).
 */
export type ClipSplit = "tuning" | "held_out";
export const SPLITS: ClipSplit[] = ["tuning", "held_out"];

export interface ManifestShot extends LabelledShot {
  confidence: string;
}

export interface ManifestClip {
  file: string;
  split: ClipSplit;
  width: number;
  height: number;
  fps: number;
  duration_s: number;
  camera: string;
  view: string;
  setting: string;
  hoop_box: [number, number, number, number] | null;
  shots: ManifestShot[];
  attempts: number;
  makes: number;
  notes: string;
}

/** The manifest's first 18 clips are the original set the earlier figures were measured on (its README). */
export const ORIGINAL_SET_SIZE = 18;

export function readManifest(dir = REALCLIPS_DIR): ManifestClip[] {
  return (JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as { clips: ManifestClip[] }).clips;
}

export function clipName(clip: ManifestClip): string {
  return path.basename(clip.file, path.extname(clip.file));
}

/**
 * The clips a bench's `--split` and `--clips` name (each with its place in the manifest, which marks
 * the original 18): one part or both, and only files whose name contains one of `only` where given.
 */
export function chooseClips(split: string | undefined, only: string[] | undefined, dir = REALCLIPS_DIR): Array<{ clip: ManifestClip; index: number }> {
  if (split && !SPLITS.includes(split as ClipSplit)) throw new Error(`--split must be one of ${SPLITS.join(", ")}`);
  return readManifest(dir)
    .map((clip, index) => ({ clip, index }))
    .filter(({ clip }) => (!only || only.some((o) => clip.file.includes(o))) && (!split || clip.split === split));
}

/** Clips of the tuning part only: what tests and tuning may use. */
export function tuningClips(dir = REALCLIPS_DIR): ManifestClip[] {
  return readManifest(dir).filter((c) => c.split === "tuning");
}
