// Court registration from the labelled landmarks alone (issue 25, points 1 and 3): for every
// labelled frame of bench/court-landmarks.json and every court type, the leave-one-out error of
// each landmark in metres (fit on the others, take the left-out pixel back onto the court), the
// type that fits best, and the tuning and held-out parts side by side. No video is read: this
// measures the templates and the fit, and is the ceiling for the line detector.
//   npm run bench:court
import path from "node:path";
import { readFileSync } from "node:fs";
import { bestCourtType, fitCourt, leaveOneOutErrors, median, type NamedPoint } from "../gpu-runner/analysis/court-fit.ts";
import { COURT_TYPE_IDS } from "../gpu-runner/analysis/court-template.ts";

interface LabelledFrame {
  clip: string;
  split: "tuning" | "held_out";
  time_s: number;
  landmarks: NamedPoint[];
}
const data = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "court-landmarks.json"), "utf8")) as {
  frames: LabelledFrame[];
  examined_without_four: Array<{ split: string }>;
};

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–");
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
