// Who took each shot, from where, and who assisted or rebounded it (docs/analysis.md, stages 8–13):
// the release from the ball's path, the shooter from the dribble bounces, the floor spot under the
// released ball and the approach carrier, the shot's facts (free throw, three) from the court when
// it is calibrated (else from a court-free distance estimate), free throws from the line and a pause
// (rules/free-throw.ts: on a court registered from its lines, else at the estimated free-throw
// distance), then the candidate tags.
import type { Identity } from "./players.ts";
import { COURT_TEMPLATES, isThreePoint, type CourtTypeId } from "./court-template.ts";
import { viewForFrame, type CourtViewing } from "./court-view.ts";
import { applyHomography, invertHomography, type H3 } from "../../vision/homography.ts";
import { COURT_FREE_FREE_THROW_DEFAULTS, courtFreeFreeThrowCall, FREE_THROW_DEFAULTS, freeThrowCall, type CourtFreeFreeThrowSettings, type FeetBefore, type FreeThrowCall, type FreeThrowInput, type SizedPerson } from "./free-throw.ts";
import { placeBySize, placeShotBySize, PLAYER_HEIGHT_M, shotDistanceRange, THREE_POINT_DISTANCE_M, type CourtFreeShot } from "./distance.ts";
import { applyH, courtHomography, distanceToFtSpot, HOOP_WORLD, isThreePointWorld, type Homography } from "./geometry.ts";
import type { KeySample } from "../observe/observations.ts";
import { dominantOwner, lastPasser, lastSegmentBefore, type PossessionSegment } from "./possession.ts";
import { dribbleBounces, feetUnderBall, pickDribbler, pickShooter, type HeightModel, type ShooterCandidate } from "./release.ts";
import { flightStartDetail, type ShotEvent } from "./shots.ts";
import { ballisticRelease, type ReleaseSettings } from "./flight.ts";
import { reboundSegment } from "./possession.ts";
import { hoopBoxAt, trackBoxAt, type BallObs, type HoopTrack, type PlayerTrack } from "./tracks.ts";
import type { Tag } from "./boxscore.ts";
import type { Box, Point } from "../types.ts";

/** The ball's centre on the floor: its radius (0.12 m) over a ~1.95 m player. */
const BALL_ON_FLOOR_RATIO = 0.06;
/**
 * Assists (tuned on the development seeds): an opponent holding the ball longer than this took it (less
 * is a pass flying past a defender or a defender covering the receiver); this long with nobody
 * holding it ends the play; a hand-off that moves the ball less than this many player heights is
 * one player's track split in two, not a pass.
 */
const ASSIST_OPPONENT_HOLD_S = 1.0;
const ASSIST_MAX_GAP_S = 3.0;
const PASS_MIN_TRAVEL_HEIGHTS = 0.5;
/** A rebound is secured by holding the ball this long; shorter touches are the ball grazing a box. */
const REBOUND_MIN_HOLD_S = 0.4;
/**
 * The approach window read for the ball carrier (seconds before release), every frame weighing the
 * same; 2–3 s scored alike on the development games, shorter windows worse.
 */
const APPROACH_S = 2.5;

export interface Draft {
  ev: ShotEvent;
  release: number;
  shooter: string | null;
  shooterSeg: PossessionSegment | null;
  feet: Point | null;
  world: Point | null;
  /** The court type `world` is measured on when it comes from a court registered from its lines; null on the painted-key court (FIBA geometry) or without a court. */
  courtType: CourtTypeId | null;
  /** Analysis frame of the registered picture whose view placed the shot (null: no registered court). */
  courtViewFrame: number | null;
  /** How the free-throw rule saw the shot (on a court registered from its lines, or at the estimated distance without one; null: neither could be judged), for the artifacts. */
  freeThrow: FreeThrowCall | null;
  /** Metres from the hoop: from the court when calibrated, else the court-free estimate (or null). */
  distance: number | null;
  hoopBox: Box;
  made: boolean;
  is_free_throw: boolean;
  is_three_point: boolean;
}

export interface ShooterEvidence {
  release_s: number;
  holder: string | null;
  approach: string | null;
  dribbler: string | null;
  candidates: Array<{ key: string; distance: number }>;
  shooter: string | null;
}

export interface AttributionInput {
  fps: number;
  frames: number;
  events: ShotEvent[];
  ball: Array<BallObs | null>;
  rims: HoopTrack[];
  tracks: PlayerTrack[];
  identities: Identity[];
  owners: Array<string | null>;
  segments: PossessionSegment[];
  heightModel: HeightModel | null;
  /** Painted-key sightings when the court is calibrated; null when it is not. */
  keySamples: KeySample[] | null;
  /** Courts registered from their painted lines (real footage), in source pixels, and which a shot takes (rules/court-view.ts); null when none was looked for. */
  court?: CourtViewing | null;
  /** Source picture size and the analysis-to-source scale, for the court-free distance; `lensMm`: the 35 mm-equivalent lens the file says it was filmed with (media/lens.ts), null when it does not say. */
  picture: { width: number; height: number; scale: number; padX: number; padY: number; lensMm?: number | null };
  /**
   * Real footage: the release is where the ball's sightings stop fitting its free flight
   * (ballisticRelease), the walk up the rise only where the flight is too thinly seen to fit. Absent
   * (generated games, a ball seen in every frame): the walk up the rise over 2.5 s.
   */
  release?: ReleaseSettings;
  /** The court-free free-throw rule's settings over COURT_FREE_FREE_THROW_DEFAULTS (bench sweeps). */
  freeThrow?: Partial<CourtFreeFreeThrowSettings>;
  /** Filled with why each shot got its shooter (bench/accuracy.ts --misses prints it). */
  evidence?: ShooterEvidence[];
}

export function draftShots(a: AttributionInput): Draft[] {
  const { fps, ball, tracks, owners, segments, heightModel } = a;
  const validIdentities = a.identities.filter((p) => p.valid);
  const validKeys = new Set(validIdentities.map((p) => p.key));
  return a.events.map((ev) => {
    const hoop = a.rims.find((h) => h.id === ev.hoop)!;
    const seg = lastSegmentBefore(segments, ev.rimFrame);
    const launchInfo = a.release
      ? (ballisticRelease(ball, ev.rimFrame, fps, a.release) ?? flightStartDetail(ball, ev.rimFrame, fps, { windowS: a.release.SEARCH_S, contiguous: true }))
      : flightStartDetail(ball, ev.rimFrame, fps);
    const launch = launchInfo?.frame ?? null;
    const release = launch ?? (seg && ev.rimFrame - seg.end <= fps * 3 ? seg.end : Math.max(0, ev.rimFrame - Math.round(fps)));
    // The possession the shot came out of: the last one that began before the release.
    const fresh = lastSegmentBefore(segments.map((x) => ({ ...x, end: Math.min(x.end, release) })).filter((x) => x.start <= release), release);
    const usable = fresh && release - fresh.end <= fps * 1.5 ? segments.find((x) => x.start === fresh.start && x.track === fresh.track)! : null;
    // Candidates: who held the ball most over the second before release, and everyone standing
    // near the floor spot under the released ball (see release.ts); the closest on the floor wins.
    const holder = usable ? dominantOwner(owners, release - Math.round(fps), release) : null;
    const hom = a.keySamples ? homographyAt(a.keySamples, hoop, release, fps) : null;
    // `release` is the last frame before the rise: the ball is still at the start of the shooting
    // motion, about half the shooter's height (tuned on the development games), and moves slowly, so
    // its image position is reliable — unlike a frame later, when it is already a fast-moving blur overhead.
    const ballAt = nearestBall(ball, release, 3);
    // When the ball was hidden at the release, the first visible frame already shows it in the
    // air, roughly overhead (1.25 of the shooter's height).
    const implied = ballAt && heightModel ? feetUnderBall([ballAt.cx, ballAt.cy], heightModel, launchInfo?.held === false ? 1.25 : 0.5) : null;
    const impliedWorld = implied && hom ? applyH(hom, implied) : null;
    // Who carried the ball over the approach (the dribble/hold before the release): a shooter hidden
    // by a defender at the release usually held the ball, visibly, for most of the approach. Used
    // when nobody stands near the ball's floor spot (the shooter then usually has no box).
    const approach = dominantOwner(owners, release - Math.round(fps * APPROACH_S), release, { lateWeight: 0, eligible: (k) => validKeys.has(k) });
    // Who dribbled: at each bounce of the approach the ball is on the floor, a point the homography
    // maps exactly, and the dribbler stands within a metre of it while a defender stands farther.
    const bounces = heightModel ? dribbleBounces(ball, release - Math.round(fps * APPROACH_S), release - 1, Math.max(2, Math.round(fps * 0.15)), (cy) => 0.15 * heightModel(cy)) : [];
    const dribbler = pickDribbler(
      bounces.slice(-3).flatMap((f) => {
        const h = a.keySamples ? homographyAt(a.keySamples, hoop, f, fps) : null;
        const b = ball[f]!;
        if (!h || !heightModel) return [];
        const candidates: ShooterCandidate[] = [];
        for (const p of validIdentities) {
          const bx = identityBoxAt(p.trackIds, tracks, f, Math.round(fps * 0.2));
          if (bx) candidates.push({ key: p.key, world: applyH(h, [bx.cx, bx.cy + bx.h / 2]) });
        }
        return [{ frame: f, candidates, spot: applyH(h, feetUnderBall([b.cx, b.cy], heightModel, BALL_ON_FLOOR_RATIO)) }];
      }),
    );
    let shooter: string | null = holder;
    let box = holder ? identityBoxAt(a.identities.find((p) => p.key === holder)!.trackIds, tracks, release, Math.round(fps * 0.5)) : null;
    let feet: Point | null = box ? [box.cx, box.cy + box.h / 2] : null;
    if (impliedWorld && hom) {
      const candidates: ShooterCandidate[] = [];
      const boxes = new Map<string, Box>();
      for (const p of validIdentities) {
        // Up to a second away: a shooter hidden behind a defender at the release was usually seen
        // on the spot moments before.
        const b = identityBoxAt(p.trackIds, tracks, release, Math.round(fps * 1.0));
        if (!b) continue;
        boxes.set(p.key, b);
        candidates.push({ key: p.key, world: applyH(hom, [b.cx, b.cy + b.h / 2]) });
      }
      const pick = pickShooter(candidates, impliedWorld, holder);
      a.evidence?.push({ release_s: release / fps, holder, approach, candidates: candidates.map((c) => ({ key: c.key, distance: Math.round(100 * Math.hypot(c.world[0] - impliedWorld[0], c.world[1] - impliedWorld[1])) / 100 })).sort((x, y) => x.distance - y.distance).slice(0, 4), dribbler, shooter: dribbler ?? (pick ? pick.key : approach ?? holder) });
      shooter = dribbler ?? (pick ? pick.key : approach ?? holder);
      box = pick ? boxes.get(pick.key)! : box;
      // Feet of the chosen player when they stand where the ball says; else the ball's spot.
      feet = pick && pick.distance <= 1.0 ? [box!.cx, box!.cy + box!.h / 2] : implied;
    } else if (!hom && !shooter && approach) {
      // Without a court the floor spot cannot be compared; the approach carrier is the best guess.
      shooter = approach;
      box = identityBoxAt(a.identities.find((p) => p.key === approach)!.trackIds, tracks, release, Math.round(fps * 1.0));
      feet = box ? [box.cx, box.cy + box.h / 2] : null;
    }
    const hoopBox = hoopBoxAt(hoop, release);
    let world = feet && hom ? applyH(hom, feet) : null;
    let distance: number | null = null;
    let is_free_throw = false, is_three_point = false;
    // A court registered from its lines (real footage): the feet onto it, 2 or 3 from its own arc,
    // a free throw from the line after a pause (rules/free-throw.ts).
    const view = !world && feet && a.court ? viewForFrame(a.court, release, fps) : null;
    const toCourt = view && invertHomography(view.h);
    let courtType: CourtTypeId | null = null;
    let freeThrow: FreeThrowCall | null = null;
    if (view && toCourt && feet) {
      const p = a.picture;
      const onCourt = (h: H3, pt: Point): Point => applyHomography(h, [(pt[0] - p.padX) / p.scale, (pt[1] - p.padY) / p.scale]);
      world = onCourt(toCourt, feet);
      courtType = view.type;
      const t = COURT_TEMPLATES[view.type];
      // The shooter's feet on each frame of the pause, through the view registered nearest that frame.
      const shooterTracks = shooter ? a.identities.find((x) => x.key === shooter)!.trackIds : [];
      const before: FreeThrowInput["before"] = [];
      for (let f = release - 1; f >= Math.max(0, release - Math.ceil(FREE_THROW_DEFAULTS.PAUSE_S * fps)); f--) {
        const b = shooter ? identityBoxAt(shooterTracks, tracks, f, 0) : null;
        const v = b ? viewForFrame(a.court!, f, fps) : null;
        const h = v && v.type === view.type ? invertHomography(v.h) : null;
        before.push({ s: (release - f) / fps, feet: b && h ? onCourt(h, [b.cx, b.cy + b.h / 2]) : null });
      }
      const others = validIdentities.flatMap((x) => {
        const b = x.key === shooter ? null : identityBoxAt(x.trackIds, tracks, release, Math.round(fps * 0.2));
        return b ? [onCourt(toCourt, [b.cx, b.cy + b.h / 2])] : [];
      });
      freeThrow = shooter ? freeThrowCall({ template: t, feet: world, before, others }) : null;
      is_free_throw = freeThrow?.freeThrow ?? false;
      is_three_point = !is_free_throw && isThreePoint(t, world);
      distance = Math.hypot(world[0] - t.basketFromBaseline, world[1]);
    } else if (world) {
      const steady = feet ? ballSteady(ball, release, Math.round(fps * 0.8), box?.h ?? (heightModel ? heightModel(feet[1]) : 0)) : false;
      is_free_throw = steady && distanceToFtSpot(world) < 1.0;
      is_three_point = !is_free_throw && isThreePointWorld(world);
      distance = Math.hypot(world[0] - HOOP_WORLD[0], world[1] - HOOP_WORLD[1]);
    } else if (feet && shooter) {
      // No court: the distance to the rim estimated from sizes in the picture gives a free throw
      // (at the free-throw distance after a set pause) or two or three.
      const p = a.picture;
      const toSrc = (v: number) => v / p.scale;
      const o = { ...COURT_FREE_FREE_THROW_DEFAULTS, ...a.freeThrow };
      const shooterTracks = a.identities.find((x) => x.key === shooter)!.trackIds;
      const standing = medianHeight(shooterTracks, tracks);
      const sizes: CourtFreeShot = {
        feet: [toSrc(feet[0] - p.padX), toSrc(feet[1] - p.padY)],
        playerHeight: toSrc(standing),
        rim: { cx: toSrc(hoopBox.cx - p.padX), cy: toSrc(hoopBox.cy - p.padY), w: toSrc(hoopBox.w), h: toSrc(hoopBox.h) },
        frameWidth: p.width,
        frameHeight: p.height,
      };
      // Through the lens the file names, else the assumed one.
      const lensMm = p.lensMm ?? null;
      const placed = placeShotBySize(sizes, lensMm);
      distance = placed ? Math.hypot(placed.shooter[0] - placed.rim[0], placed.shooter[1] - placed.rim[1]) : null;
      // Feet relative to the rim (a panning camera moves both alike), in the person's standing heights.
      const fromRim = (pt: Point, f: number, height: number): Point => {
        const r = hoopBoxAt(hoop, f);
        return [(pt[0] - r.cx) / height, (pt[1] - r.cy) / height];
      };
      const feetBefore = (trackIds: number[], height: number, seconds: number): FeetBefore => {
        const out: FeetBefore = [];
        for (let f = release - 1; f >= Math.max(0, release - Math.ceil(seconds * fps)); f--) {
          const b = identityBoxAt(trackIds, tracks, f, 0);
          out.push({ s: (release - f) / fps, feet: b ? fromRim([b.cx, b.cy + b.h / 2], f, height) : null });
        }
        return out;
      };
      if (placed && standing > 0) {
        const others = validIdentities.flatMap((x): SizedPerson[] => {
          const b = x.key === shooter ? null : identityBoxAt(x.trackIds, tracks, release, Math.round(fps * 0.2));
          const height = b ? medianHeight(x.trackIds, tracks) : 0;
          const at = b && height > 0 ? placeBySize(toSrc(b.cx - p.padX), toSrc(height), PLAYER_HEIGHT_M, p.width, p.height, lensMm) : null;
          return b && at ? [{ feet: fromRim([b.cx, b.cy + b.h / 2], release, height), before: feetBefore(x.trackIds, height, o.LINED_UP_PAUSE_S), at }] : [];
        });
        const pauseS = Math.max(o.PAUSE_S, o.LINED_UP_PAUSE_S, o.STEP_IN_WITHIN_S);
        const sized: SizedPerson = { feet: fromRim(feet, release, standing), before: feetBefore(shooterTracks, standing, pauseS), at: placed.shooter };
        const [widestMm, longestMm] = lensMm !== null ? [lensMm / o.TAGGED_LENS_SPREAD, lensMm * o.TAGGED_LENS_SPREAD] : [o.WIDEST_LENS_MM, o.LONGEST_LENS_MM];
        const distanceRangeM = shotDistanceRange(sizes, widestMm, longestMm);
        freeThrow = { ...courtFreeFreeThrowCall({ distanceM: distance, distanceRangeM, shooter: sized, rim: placed.rim, others }, o), lensMm };
        is_free_throw = freeThrow.freeThrow;
      }
      is_three_point = !is_free_throw && distance !== null && distance > THREE_POINT_DISTANCE_M;
    }
    return { ev, release, shooter, shooterSeg: usable, feet, world, courtType, courtViewFrame: courtType ? view!.frame : null, freeThrow, distance, hoopBox, made: ev.made, is_free_throw, is_three_point };
  });
}

/** Candidate tags for the box score: scorer, assister (made field goals), rebounder (misses). */
export function tagShots(a: AttributionInput, drafts: Draft[]): Tag[] {
  const { fps, ball, segments, heightModel } = a;
  const tags: Tag[] = [];
  const teamOf = (k: string) => a.identities.find((p) => p.key === k)?.team_id ?? null;
  drafts.forEach((d, i) => {
    const scorer = d.shooter;
    if (scorer) tags.push({ shot: i, role: "scorer", player: scorer, confidence: d.shooterSeg && d.shooterSeg.end - d.shooterSeg.start >= 5 ? 0.9 : 0.6 });
    // Assist: the teammate who made the last pass to the scorer, with no shot in between.
    if (d.made && scorer && !d.is_free_throw) {
      const passer = lastPasser(segments, scorer, d.release, {
        opponentFrames: Math.round(fps * ASSIST_OPPONENT_HOLD_S),
        maxGapFrames: Math.round(fps * ASSIST_MAX_GAP_S),
        notBefore: i > 0 ? drafts[i - 1].ev.endFrame : -1,
        teamOf,
        ballTravelled: (fromEnd, toStart) => {
          const x = nearestBall(ball, fromEnd, 3), y = nearestBall(ball, toStart, 3);
          // Unknown ball positions count as a pass: the segments themselves say the ball changed hands.
          if (!x || !y || !heightModel) return true;
          return Math.hypot(x.cx - y.cx, x.cy - y.cy) >= PASS_MIN_TRAVEL_HEIGHTS * heightModel(y.cy);
        },
      });
      if (passer) tags.push({ shot: i, role: "assister", player: passer, confidence: 0.8 });
    }
    // Rebound: the first player to secure the ball after a miss, within 6 s and before the next shot.
    if (!d.made) {
      const nextRelease = i + 1 < drafts.length ? drafts[i + 1].release : a.frames;
      const seg = reboundSegment(segments, d.ev.rimFrame, Math.min(nextRelease, d.ev.rimFrame + Math.round(fps * 6) + 1), Math.round(fps * REBOUND_MIN_HOLD_S));
      if (seg) tags.push({ shot: i, role: "rebounder", player: seg.track, confidence: 0.8 });
    }
  });
  return tags;
}

/** Key corners near `frame` (median over ±3 s, robust to players standing on a corner), moved with the hoop. */
export function homographyAt(samples: KeySample[], hoop: HoopTrack, frame: number, fps: number): Homography | null {
  let near = samples.filter((s) => Math.abs(s.frame - frame) <= fps * 3);
  if (near.length < 3) near = samples;
  if (!near.length) return null;
  const rim = hoopBoxAt(hoop, frame);
  const quad: Point[] = [0, 1, 2, 3].map((k) => {
    // Corners are matched by angle around the quad centre: the quad's vertex order can rotate between frames.
    const xs = near.map((s) => sortByAngle(s.rel)[k][0]).sort((x, y) => x - y);
    const ys = near.map((s) => sortByAngle(s.rel)[k][1]).sort((x, y) => x - y);
    return [xs[xs.length >> 1] + rim.cx, ys[ys.length >> 1] + rim.cy];
  });
  const c = courtHomography(quad, [rim.cx, rim.cy]);
  return c ? c.imageToWorld : null;
}

function nearestBall(ball: Array<BallObs | null>, frame: number, within: number) {
  for (let d = 0; d <= within; d++) {
    const b = ball[frame - d] ?? ball[frame + d];
    if (b) return b;
  }
  return null;
}

function identityBoxAt(trackIds: number[], tracks: PlayerTrack[], frame: number, tolerance: number): Box | null {
  for (const id of trackIds) {
    const b = trackBoxAt(tracks.find((t) => t.id === id)!, frame, tolerance);
    if (b) return b;
  }
  return null;
}

function medianHeight(trackIds: number[], tracks: PlayerTrack[]): number {
  const hs = trackIds.flatMap((id) => tracks.find((t) => t.id === id)?.boxes.map((b) => b.h) ?? []).sort((x, y) => x - y);
  return hs.length ? hs[hs.length >> 1] : 0;
}

function sortByAngle(q: Point[]): Point[] {
  const cx = q.reduce((s, p) => s + p[0], 0) / q.length, cy = q.reduce((s, p) => s + p[1], 0) / q.length;
  return [...q].sort((x, y) => Math.atan2(x[1] - cy, x[0] - cx) - Math.atan2(y[1] - cy, y[0] - cx));
}

/** A free throw starts from a still ball: its height barely changes in the seconds before release. */
function ballSteady(ball: Array<BallObs | null>, release: number, frames: number, playerHeight: number): boolean {
  let lo = Infinity, hi = -Infinity, seen = 0;
  for (let f = Math.max(0, release - frames); f < release; f++) {
    const b = ball[f];
    if (!b) continue;
    seen++;
    lo = Math.min(lo, b.cy);
    hi = Math.max(hi, b.cy);
  }
  return seen >= frames * 0.6 && hi - lo < Math.max(3, playerHeight * 0.15);
}
