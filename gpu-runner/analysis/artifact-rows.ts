// The raw model output files (JSONL rows, docs/analysis.md "Artifacts"): coordinates normalised to
// the source picture through the run's frame mapping.
import type { Letterbox } from "../media/frames.ts";
import type { Detections } from "../vision/detections.ts";
import type { PossessionSegment } from "./rules/possession.ts";
import { hoopBoxAt, hoopInView, type BallObs, type HoopTrack, type PlayerTrack } from "./rules/tracks.ts";
import type { Box, Point, RGB, ShotResult } from "./types.ts";

export function medianColor(cs: RGB[]): RGB {
  const med = (k: number) => cs.map((c) => c[k]).sort((a, b) => a - b)[cs.length >> 1];
  return [med(0), med(1), med(2)];
}

export function normPoint(p: Point, lb: Letterbox): Point {
  return [(p[0] - lb.padX) / lb.innerWidth, (p[1] - lb.padY) / lb.innerHeight];
}
export function normBox(b: Box, lb: Letterbox) {
  return { x: round4((b.cx - lb.padX) / lb.innerWidth), y: round4((b.cy - lb.padY) / lb.innerHeight), w: round4(b.w / lb.innerWidth), h: round4(b.h / lb.innerHeight) };
}
export const round3 = (x: number) => Math.round(x * 1000) / 1000;
export const round4 = (x: number) => Math.round(x * 10000) / 10000;
export const roundPt = (p: Point): Point => [round4(Math.max(0, Math.min(1, p[0]))), round4(Math.max(0, Math.min(1, p[1])))];

export function* ballRows(perFrame: ReadonlyArray<Detections>, ball: Array<BallObs | null>, fps: number, lb: Letterbox) {
  for (let f = 0; f < perFrame.length; f++) {
    const dets = perFrame[f].filter((d) => d.className === "ball");
    const b = ball[f];
    if (!dets.length && !b) continue;
    yield { frame: f, t: round3(f / fps), track: b ? { ...normBox(b, lb), interpolated: !!b.interpolated } : null, detections: dets.map((d) => ({ ...normBox(d, lb), score: round3(d.score) })) };
  }
}

export function* hoopRows(perFrame: ReadonlyArray<Detections>, hoops: HoopTrack[], fps: number, lb: Letterbox) {
  for (let f = 0; f < perFrame.length; f++) {
    const dets = perFrame[f].filter((d) => d.className === "rim");
    yield { frame: f, t: round3(f / fps), hoops: hoops.filter((h) => hoopInView(h, f)).map((h) => ({ id: h.id, ...normBox(hoopBoxAt(h, f), lb) })), detections: dets.map((d) => ({ ...normBox(d, lb), score: round3(d.score) })) };
  }
}

export function* clusterRows(tracks: PlayerTrack[], teams: Map<number, 0 | 1 | null>, jerseys: Map<number, string | null>, reads: Map<number, Array<{ text: string; confidence: number }>>, trackToKey: Map<number, string>, centroids: [RGB, RGB], fps: number, lb: Letterbox) {
  yield { type: "teams", centroids: centroids.map((c) => c.map(Math.round)) };
  for (const t of tracks) {
    yield {
      type: "track",
      track: t.id,
      player: trackToKey.get(t.id) ?? null,
      team: teams.get(t.id) ?? null,
      color: medianColor(t.colors).map(Math.round),
      jersey: jerseys.get(t.id) ?? null,
      jersey_reads: (reads.get(t.id) ?? []).map((r) => ({ text: r.text, confidence: round3(r.confidence) })),
      start: round3(t.frames[0] / fps),
      end: round3(t.frames[t.frames.length - 1] / fps),
      frames: t.frames.length,
      // Sparse box samples (about two a second) so tools can match tracks to people over time.
      samples: t.frames.filter((_, i) => i % Math.max(1, Math.round(fps / 2)) === 0).map((f, i) => ({ t: round3(f / fps), ...normBox(t.boxes[i * Math.max(1, Math.round(fps / 2))], lb) })),
    };
  }
}

export function* possessionRows(segments: PossessionSegment[], fps: number) {
  for (const s of segments) yield { type: "possession", start: round3(s.start / fps), end: round3(s.end / fps), player: s.track };
}

export function* actionRows(segments: PossessionSegment[], shots: ShotResult[], fps: number, timing: Array<{ rim: number; evidence: unknown }> = []) {
  const rows: Array<{ t: number; row: Record<string, unknown> }> = [];
  for (const s of segments) rows.push({ t: s.start / fps, row: { type: "possession", start: round3(s.start / fps), end: round3(s.end / fps), player: s.track } });
  for (const s of shots) {
    rows.push({ t: s.start_seconds, row: { type: "shot", shot: s.key, start: s.start_seconds, rim: timing[s.index] ? round3(timing[s.index].rim) : null, end: s.end_seconds, made: s.made, points: s.points, free_throw: s.is_free_throw, three_point: s.is_three_point, player: s.players.scorer, evidence: timing[s.index]?.evidence ?? null } });
    if (s.players.assister) rows.push({ t: s.start_seconds - 0.001, row: { type: "assist", shot: s.key, player: s.players.assister } });
    if (s.players.rebounder) rows.push({ t: s.end_seconds, row: { type: "rebound", shot: s.key, player: s.players.rebounder } });
  }
  rows.sort((a, b) => a.t - b.t);
  for (const r of rows) yield r.row;
}
