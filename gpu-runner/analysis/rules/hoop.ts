// Finds the rims of a video from per-frame rim candidates and follows them while the camera moves.
// A rim is static structure: on a fixed camera the same place wins frame after frame, and on a
// handheld or panning camera it drifts smoothly. So candidates are linked into tracks by distance
// (a fraction of the rim's own width per sample), a track's strength is the sum of its scores over
// the video, and only tracks seen in a good share of the samples count as rims. A single frame's
// score says little (a true rim scored 0.21–0.79 across clips); persistence says a lot.
import { median, medianBox } from "../../vision/boxes.ts";
import type { Detection, DetectionOf } from "../../vision/detections.ts";
import type { BallObs } from "./tracks.ts";
import type { Box } from "../types.ts";

/** A rim candidate: the model's rim box in source pixels (vision/detections.ts). */
type RimCandidate = DetectionOf<"rim">;

export interface RimSample {
  /** Timeline frame of the sample. */
  frame: number;
  candidates: readonly RimCandidate[];
}

export interface RimTrack {
  id: number;
  /** Share of samples in which this rim was found. */
  coverage: number;
  /** Mean candidate score over the samples it was found in. */
  meanScore: number;
  /** Ring position and size at every timeline frame (interpolated between samples, held at the ends). */
  boxes: Box[];
  /** Samples it was found in. */
  detections: number;
  /** True when the rim moved less than a fifth of its width over the video (a fixed camera). */
  fixed: boolean;
  /** Half-open frame ranges in which the rim is in view (set when windows are joined); absent: the whole timeline. */
  active?: Array<[number, number]>;
  /** Timeline frame of `boxes[0]` when the boxes cover only the rim's own frames (tracks.ts, hoopBoxAt); absent: 0. */
  from?: number;
}

/** Rim tracking over the scan's samples: rim widths, shares of samples, model scores. */
export const RIM_TRACK_DEFAULTS = {
  /** A link may jump at most this many rim widths between consecutive samples… */
  GATE_RIM_WIDTHS: 1.0,
  /** …widening by this share for every sample the track went unseen… */
  GATE_GROWTH_PER_SAMPLE: 0.25,
  /** …up to this many times. */
  GATE_MAX_GROWTH: 3,
  /** A track unseen for more than this many samples ends. */
  LOST_AFTER_SAMPLES: 25,
  /** A track is kept when found in at least this share of all samples… */
  MIN_COVERAGE: 0.3,
  /** …and its mean score reaches this. */
  MIN_MEAN_SCORE: 0.15,
  /** Tracks within this many rim widths of a stronger one are the same rim (its net or a duplicate peak). */
  DUPLICATE_RIM_WIDTHS: 1.5,
  /** A rim whose sightings spread less than this (rim widths, median distance from their median) is fixed. */
  FIXED_SPREAD_RIM_WIDTHS: 0.2,
  /** A moving rim's position is the running median of this many sightings. */
  SMOOTH_SAMPLES: 5,
};

export type RimTrackSettings = typeof RIM_TRACK_DEFAULTS;

export interface RimTrackingOptions {
  /** Timeline length in frames. */
  frames: number;
  settings?: Partial<RimTrackSettings>;
}

interface Building {
  frames: number[];
  boxes: RimCandidate[];
}

/** Links per-sample candidates into rim tracks; strongest first. */
export function trackRims(samples: RimSample[], opts: RimTrackingOptions): RimTrack[] {
  const o = { ...RIM_TRACK_DEFAULTS, ...opts.settings };
  const gate = o.GATE_RIM_WIDTHS;
  const minCoverage = o.MIN_COVERAGE;
  const minMeanScore = o.MIN_MEAN_SCORE;
  const dupWidths = o.DUPLICATE_RIM_WIDTHS;
  const building: Building[] = [];
  let sampleIndex = 0;
  const lastSampleOf = new Map<Building, number>();
  for (const s of samples) {
    // Highest scores claim their nearest track first.
    const cands = [...s.candidates].sort((a, b) => b.score - a.score);
    const used = new Set<Building>();
    for (const c of cands) {
      let best: Building | null = null, bestD = Infinity;
      for (const t of building) {
        if (used.has(t)) continue;
        // A track that went unseen for a while may have drifted: the gate widens with the gap.
        const gap = sampleIndex - (lastSampleOf.get(t) ?? 0);
        if (gap > o.LOST_AFTER_SAMPLES) continue;
        const last = t.boxes[t.boxes.length - 1];
        const d = Math.hypot(last.cx - c.cx, last.cy - c.cy) / Math.max(last.w, 4);
        if (d < gate * Math.min(o.GATE_MAX_GROWTH, 1 + o.GATE_GROWTH_PER_SAMPLE * (gap - 1)) && d < bestD) { best = t; bestD = d; }
      }
      if (best) {
        best.frames.push(s.frame);
        best.boxes.push(c);
        used.add(best);
        lastSampleOf.set(best, sampleIndex);
      } else {
        const t: Building = { frames: [s.frame], boxes: [c] };
        building.push(t);
        used.add(t);
        lastSampleOf.set(t, sampleIndex);
      }
    }
    sampleIndex++;
  }
  const n = Math.max(1, samples.length);
  const scored = building
    .map((t) => ({ t, strength: t.boxes.reduce((a, b) => a + b.score, 0), coverage: t.frames.length / n, meanScore: t.boxes.reduce((a, b) => a + b.score, 0) / t.boxes.length }))
    .filter((x) => x.coverage >= minCoverage && x.meanScore >= minMeanScore)
    .sort((a, b) => b.strength - a.strength);
  const kept: typeof scored = [];
  for (const x of scored) {
    const med = medianBox(x.t.boxes);
    if (kept.some((k) => {
      const m = medianBox(k.t.boxes);
      return Math.hypot(m.cx - med.cx, m.cy - med.cy) < dupWidths * Math.max(m.w, med.w);
    })) continue;
    kept.push(x);
  }
  return kept.map((x, id) => ({ id, coverage: x.coverage, meanScore: x.meanScore, detections: x.t.frames.length, ...positions(x.t, opts.frames, o) }));
}

/**
 * Per-frame boxes. A rim that never moved by more than FIXED_SPREAD_RIM_WIDTHS (fixed camera) is the
 * median of all its sightings: single peaks jitter by a third of a rim width. A moving one is the
 * running median of SMOOTH_SAMPLES sightings, linearly interpolated between them.
 */
function positions(t: Building, frames: number, o: RimTrackSettings): { boxes: Box[]; fixed: boolean } {
  const med = medianBox(t.boxes);
  const spread = median(t.boxes.map((b) => Math.hypot(b.cx - med.cx, b.cy - med.cy)));
  const fixed = spread < o.FIXED_SPREAD_RIM_WIDTHS * med.w;
  const boxes: Box[] = new Array(frames);
  if (fixed) {
    for (let f = 0; f < frames; f++) boxes[f] = { ...med };
    return { boxes, fixed };
  }
  const smooth = t.boxes.map((_, i) => {
    const half = o.SMOOTH_SAMPLES >> 1;
    const win = t.boxes.slice(Math.max(0, i - half), i + half + 1);
    return { cx: median(win.map((b) => b.cx)), cy: median(win.map((b) => b.cy)), w: med.w, h: med.h };
  });
  let k = 0;
  for (let f = 0; f < frames; f++) {
    while (k + 1 < t.frames.length && t.frames[k + 1] <= f) k++;
    const a = t.frames[k], ba = smooth[k];
    if (f <= a || k + 1 >= t.frames.length) boxes[f] = { ...ba };
    else {
      const b = t.frames[k + 1], bb = smooth[k + 1];
      const s = (f - a) / (b - a);
      boxes[f] = { cx: ba.cx + (bb.cx - ba.cx) * s, cy: ba.cy + (bb.cy - ba.cy) * s, w: med.w, h: med.h };
    }
  }
  return { boxes, fixed };
}

/** Closer looks at rim candidates: rim widths, pixels, ratios of sizes. */
export const RIM_VERIFY_DEFAULTS = {
  /** Looks per still, each centred on the last one's peak. */
  ROUNDS: 2,
  /** At most this many candidates (strongest first) are looked at. */
  MAX_CANDIDATES: 6,
  /** The region looked at is this many rim widths square… */
  LOOK_RIM_WIDTHS: 4,
  /** …and at least this many source pixels (a tiny rim still gets context). */
  LOOK_MIN_PX: 96,
  /** The peak must stay within this many rim widths of where it was looked for… */
  STAY_RIM_WIDTHS: 1.5,
  /** …and have a rim's size for it: between these ratios of the looked-for width. */
  SIZE_MIN_RATIO: 0.4,
  SIZE_MAX_RATIO: 2.5,
  /** Verified rims closer than this many rim widths are one. */
  SAME_RIM_WIDTHS: 0.8,
  /**
   * A "ring" whose box is blown-out white over this share of its pixels (mean over the stills) is a
   * light shining into the camera, not a rim (isLight): at most 0.05 for a real ring on the tuning
   * clips, 0.36 for a gym's ceiling lamp that the rim head scored 0.36 on a closer look…
   */
  MAX_CLIPPED_WHITE_SHARE: 0.2,
  /** …a pixel being blown out when its red, green and blue all reach this level (0–255). */
  CLIPPED_WHITE_LEVEL: 245,
};

export type RimVerifySettings = typeof RIM_VERIFY_DEFAULTS;

/** Where a rim can hang, judged against people at its depth (see plausibleHeight). */
export const RIM_HEIGHT_DEFAULTS = {
  /** People at the rim's depth are this many rim widths tall (a 1.9 m player over a 0.45 m ring is about 4). */
  SAME_DEPTH_MIN_RIM_WIDTHS: 2.5,
  SAME_DEPTH_MAX_RIM_WIDTHS: 7,
  /** With fewer sightings of such people than this, the height is not judged. */
  MIN_PERSON_SIGHTINGS: 2,
  /** The ring hangs more than this many rim widths (a real one: 6.8)… */
  MIN_DROP_RIM_WIDTHS: 3,
  /** …and person heights (a real one: about 1.6) above their feet. */
  MIN_DROP_PERSON_HEIGHTS: 1.1,
};

export type RimHeightSettings = typeof RIM_HEIGHT_DEFAULTS;

/** A closer look at a region of the still at a timeline frame: the strongest rim inside it, in source pixels, or null. */
export type LookCloser = (frame: number, region: { x: number; y: number; w: number; h: number }) => Promise<RimCandidate | null>;

export interface VerifiedRim extends RimTrack {
  /** Mean score of the rim found when looking closer (0 where nothing was there). */
  verification: number;
  /** Mean share of the ring's box blown out white on the stills (see isLight); absent where not measured. */
  clippedWhite?: number;
}

/**
 * A lamp, not a rim. Ceiling lamps and floodlights are round and hang high, and the rim head can
 * score one as high as a real ring; but a light shines into the camera and blows the picture out
 * to white where it is, which a metal ring lit by the scene does not (a white backboard or net
 * behind a ring fills only a small part of the ring's own box).
 */
export function isLight(rim: Pick<VerifiedRim, "clippedWhite">, o: RimVerifySettings = RIM_VERIFY_DEFAULTS): boolean {
  return (rim.clippedWhite ?? 0) > o.MAX_CLIPPED_WHITE_SHARE;
}

/**
 * Looks at each candidate rim again, in a region four of its widths wide cut from full-resolution
 * stills: there a rim is a large object, the size the rim head was trained on, and the peak is both
 * surer and better placed than on the whole frame (a whole-frame peak on a rim's net or backboard
 * moves onto the ring). Two rounds per still follow the peak; candidates that end on the same rim
 * are merged. The boxes move by the offset found at the nearest still.
 */
export async function verifyRims(tracks: RimTrack[], stills: number[], look: LookCloser, opts: { frameW: number; frameH: number; settings?: Partial<RimVerifySettings> }): Promise<VerifiedRim[]> {
  const o = { ...RIM_VERIFY_DEFAULTS, ...opts.settings };
  const rounds = o.ROUNDS;
  const out: VerifiedRim[] = [];
  for (const t of tracks.slice(0, o.MAX_CANDIDATES)) {
    const found: Array<{ frame: number; box: RimCandidate | null }> = [];
    for (const s of stills) {
      const start = t.boxes[Math.min(s, t.boxes.length - 1)];
      let cur: RimCandidate | null = { ...start, className: "rim", score: 0 };
      for (let r = 0; r < rounds && cur; r++) {
        const side = Math.min(Math.max(o.LOOK_RIM_WIDTHS * cur.w, o.LOOK_MIN_PX), Math.max(opts.frameW, opts.frameH));
        const next = await look(s, { x: cur.cx - side / 2, y: cur.cy - side / 2, w: side, h: side });
        // The peak must stay near what we looked at and have a rim's size for it.
        cur = next && Math.hypot(next.cx - cur.cx, next.cy - cur.cy) <= o.STAY_RIM_WIDTHS * cur.w && next.w > o.SIZE_MIN_RATIO * cur.w && next.w < o.SIZE_MAX_RATIO * cur.w ? next : null;
      }
      found.push({ frame: s, box: cur });
    }
    const hits = found.filter((f) => f.box);
    const verification = found.length ? hits.reduce((a, f) => a + f.box!.score, 0) / found.length : 0;
    if (!hits.length) {
      out.push({ ...t, verification: 0 });
      continue;
    }
    const width = median(hits.map((h) => h.box!.w)), height = median(hits.map((h) => h.box!.h));
    const offsets = hits.map((h) => {
      const b = t.boxes[Math.min(h.frame, t.boxes.length - 1)];
      return { frame: h.frame, dx: h.box!.cx - b.cx, dy: h.box!.cy - b.cy };
    });
    const boxes = t.boxes.map((b, f) => {
      let nearest = offsets[0];
      for (const c of offsets) if (Math.abs(c.frame - f) < Math.abs(nearest.frame - f)) nearest = c;
      // A fixed rim takes the median offset: single looks jitter.
      const dx = t.fixed ? median(offsets.map((c) => c.dx)) : nearest.dx, dy = t.fixed ? median(offsets.map((c) => c.dy)) : nearest.dy;
      return { cx: b.cx + dx, cy: b.cy + dy, w: width, h: height };
    });
    out.push({ ...t, boxes, verification });
  }
  out.sort((a, b) => b.verification - a.verification);
  const kept: VerifiedRim[] = [];
  for (const r of out) {
    const m = medianBox(r.boxes);
    if (kept.some((k) => {
      const km = medianBox(k.boxes);
      return Math.hypot(km.cx - m.cx, km.cy - m.cy) < o.SAME_RIM_WIDTHS * Math.max(km.w, m.w);
    })) continue;
    kept.push(r);
  }
  return kept.map((r, id) => ({ ...r, id }));
}

/**
 * A rim hangs 3.05 m up, about 6.8 of its own widths and 1.6 heights of a grown player above the
 * floor. A person at the rim's depth (about four rim widths tall) therefore stands with their feet
 * well below it; a "rim" at the height of such a person's chest or feet is a red shirt, a floor logo,
 * a court line's curve or a TV graphic. Both measures must agree, each with a wide margin for the
 * camera's tilt and for people a little nearer or farther than the rim: more than 3 rim widths and
 * more than 1.1 person heights (a ring about 2 m up) from the ring down to the people's feet.
 */
export function plausibleHeight(rim: Box, persons: Box[], o: RimHeightSettings = RIM_HEIGHT_DEFAULTS): boolean {
  const sameDepth = persons.filter((p) => p.h > o.SAME_DEPTH_MIN_RIM_WIDTHS * rim.w && p.h < o.SAME_DEPTH_MAX_RIM_WIDTHS * rim.w);
  if (sameDepth.length < o.MIN_PERSON_SIGHTINGS) return true;
  const middle = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const inRimWidths = middle(sameDepth.map((p) => (p.cy + p.h / 2 - rim.cy) / rim.w));
  const inPersonHeights = middle(sameDepth.map((p) => (p.cy + p.h / 2 - rim.cy) / p.h));
  return inRimWidths > o.MIN_DROP_RIM_WIDTHS && inPersonHeights > o.MIN_DROP_PERSON_HEIGHTS;
}

/** Whether the ball came to a rim (see ballCameToRim): rim widths and seconds. */
export const RIM_PLAY_DEFAULTS = {
  /** The ball is at a rim when seen this many rim widths or less from the ring's centre (chosen on the tuning clips)… */
  NEAR_RIM_WIDTHS: 1.5,
  /** …and a rim is one only when the ball was seen there for at least this long over the video. */
  MIN_NEAR_S: 0.1,
};

export type RimPlaySettings = typeof RIM_PLAY_DEFAULTS;

/**
 * A rim is where the ball goes. The rim head also fires on things that look like a ring to it, and
 * on a closer look some score as high as a real rim or higher: a hoop drawn in an app's overlay, a TV
 * graphic or a logo (sharp, clean and static, it can outscore the real rim), a floodlight, an exit
 * sign, a patch of fence. Where people stand at its depth, plausibleHeight rejects what hangs too
 * low, but a corner graphic hangs as high as a rim. What none of them ever sees is the ball: a ball
 * thrown at a real rim, rebounding from it, dribbled or carried under it comes within a couple of rim
 * widths of the ring. So a candidate the ball was never seen near (seen, not interpolated, on any of
 * `paths`: the path watched around the rim itself, and the ball of the whole video, which the rim
 * watch can miss where the scan saw it) is not kept as a rim; a video with no rim left fails
 * `no_hoops` and is not billed. A real rim in a video without any ball near it (a hoop in the
 * background of a dribbling drill) fails the same way, where it would have failed `no_shots`.
 */
export function ballCameToRim(paths: ReadonlyArray<ReadonlyArray<BallObs | null>>, rimBoxes: readonly Box[], fps: number, o: RimPlaySettings = RIM_PLAY_DEFAULTS): boolean {
  if (!rimBoxes.length) return false;
  const frames = Math.max(0, ...paths.map((p) => p.length));
  let nearFrames = 0;
  for (let f = 0; f < frames; f++) {
    const rim = rimBoxes[Math.min(f, rimBoxes.length - 1)];
    if (paths.some((p) => {
      const b = p[f];
      return b && !b.interpolated && Math.hypot(b.cx - rim.cx, b.cy - rim.cy) <= o.NEAR_RIM_WIDTHS * rim.w;
    })) nearFrames++;
  }
  return nearFrames > 0 && nearFrames >= o.MIN_NEAR_S * fps;
}

/** Whether the rim watch saw a ring where a kept rim hangs (see ringSeenAtRim): rim widths, model scores, shares of frames. */
export const RIM_SEEN_DEFAULTS = {
  /** A rim the watch found counts as the ring when its centre is within this many rim widths of the rim's… */
  AT_RIM_WIDTHS: 0.5,
  /** …and the rim head scored it at least this… */
  MIN_RING_SCORE: 0.2,
  /** …in at least this share of the frames the watch looked at. */
  MIN_SEEN_SHARE: 0.25,
};

export type RimSeenSettings = typeof RIM_SEEN_DEFAULTS;

/**
 * A rim is a ring that stays where it hangs. The closer looks judge a candidate on a few stills,
 * searching up to one and a half of its widths around it; the rim watch then looks at the region
 * around it frame after frame, at a scale where the ring is the size the rim head knows best, and
 * runs the rim head there too. A real rim — fixed, rigid, hidden now and then by the ball or a
 * player — is found at its place in most of those frames (on the tuning clips every watched hoop
 * scored 0.2 or more in at least three quarters of the looked frames, a labelled one in 0.94 or
 * more). A ring-like
 * patch that only looks like a ring for a moment is not: the top of a ball bouncing on a table in a
 * rendered animation, a court line's curve in a panning broadcast close-up (both verified at
 * 0.25–0.30 on the stills, then never above 0.16 where they were watched). `looks` holds, per
 * timeline frame, the rim head's boxes in the watched region where the watch looked, and null where
 * it did not (or where the rim is out of view); `rimBoxes` is the rim at every frame.
 */
export function ringSeenAtRim(looks: ReadonlyArray<readonly Detection[] | null>, rimBoxes: readonly Box[], o: RimSeenSettings = RIM_SEEN_DEFAULTS): boolean {
  if (!rimBoxes.length) return false;
  let looked = 0, seen = 0;
  looks.forEach((found, f) => {
    if (!found) return;
    looked++;
    const rim = rimBoxes[Math.min(f, rimBoxes.length - 1)];
    if (found.some((d) => d.className === "rim" && d.score >= o.MIN_RING_SCORE && Math.hypot(d.cx - rim.cx, d.cy - rim.cy) <= o.AT_RIM_WIDTHS * rim.w)) seen++;
  });
  return looked > 0 && seen >= o.MIN_SEEN_SHARE * looked;
}
