// Court registration from the painted lines (issue 25, point 1): four detected lines that enclose a
// quadrilateral are tried as four painted lines of the court that enclose one: the baseline and
// the free-throw line across, and two lines along the court among the lane lines, the three-point
// line's straight parts and the sidelines (the key itself when both lane lines are seen; a lane
// line hidden by a player is replaced by a line parallel to it). Each guess, in each court type,
// gives a homography, and the court's other lines projected through it must land on painted
// stripes. The guess whose template lines are best supported wins, and with it the court type
// (the arcs and lane widths differ between rule books).
import { composeHomographies, fitHomography, invertHomography, planeCamera, viewInPicture, type H3, type Pt } from "../../vision/homography.ts";
import { equivalentLensMm } from "../rules/distance.ts";
import { houghLines, intersect, lineMask, poolMask, type Line } from "../../vision/lines.ts";
import type { CourtLineMasks } from "../../vision/court-lines.ts";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLines, type CourtTypeId } from "../rules/court-template.ts";
import { basketUnderRim, highestRimTop } from "../rules/court-rim.ts";
import type { Box } from "../types.ts";
import { boxInPicture } from "../../vision/boxes.ts";

export const COURT_REGISTRATION_DEFAULTS = {
  /** Arcs (free-throw circle, three-point arc) are drawn as this many chords when scoring a guess. */
  ARC_CHORDS: 24,
  /** A sample counts as on a stripe when a ridge pixel lies within this many pixels of it. */
  HIT_RADIUS_PX: 1,
  /** Each drawn template pixel that lands on bare floor costs this many hits. */
  MISS_WEIGHT: 0.5,
  /** A registration needs at least this share of its drawn pixels on stripes, and this many times the share of stripe pixels in the picture (a guess on noise hits as often as the noise is dense), */
  MIN_HIT_SHARE: 0.7,
  /**
   * …or this share when the picture's rims are checked: a court whose basket must also lie under a
   * rim seen there, at the rim's scale (rules/court-rim.ts), needs less of its paint to be sure. A
   * court worn or faint in places, or crossed by players, keeps less of its lines on stripes
   * (chonyy_outdoor_handheld_1shot's picture of 3.1 s, registered on its painted lines with 0.65 of
   * them on stripes). Measured on the tuning clips: 0.6 and 0.5 give the same views, that one new;
   * from 0.45 down, wrong rule books pass (two clips at 0.45, three at 0.4), so 0.6 keeps a margin.
   */
  MIN_HIT_SHARE_UNDER_RIM: 0.6,
  MIN_HIT_SHARE_OVER_DENSITY: 2.5,
  /** and at least this many hits per 100 px of image width (a court, not a few stray pixels). */
  MIN_HITS_PER_100PX: 12,
  /**
   * The winning guess's key must cover at least this share of the picture: a view that squeezes
   * the whole court onto one stripe (seen edge-on) draws every line on it and is no view of a
   * floor. Checked on the winner only, as the stripe share is: refusing such guesses before the
   * choice lets a wrong court win on pictures where the squeezed guess won and was refused (the
   * unit tests' NCAA and high school views without the baseline).
   */
  MIN_KEY_AREA_SHARE: 0.002,
  /**
   * The lines that tell the rule books apart (the free-throw circle and the three-point arc), each
   * where drawn over at least ARC_MIN_DRAWN_PX_PER_100PX px per 100 px of width, must have at least
   * this share of their drawn pixels on painted lines: a court whose key fits but whose arcs land
   * on bare floor is painted to another book (or none), and its 2 or 3 would be called against the
   * wrong arc.
   */
  MIN_ARC_SHARE: 0.35,
  ARC_MIN_DRAWN_PX_PER_100PX: 10,
  /**
   * The winning view must be one a camera can have: a pinhole camera with square pixels and its
   * principal point at the picture's centre, whose 35 mm-equivalent focal length is within these
   * (mm): a phone's widest lens to its longest zoom (about 120 mm; free-throw.ts LONGEST_LENS_MM)
   * with room to spare, and the wide lenses of gym cameras. A court folded onto one stripe (a high
   * school court on the baseline of a pan copy of chonyy_outdoor_45deg_2x_3shots) has no such
   * camera, and a driveway's edges fitted as an NCAA key need a 640–860 mm lens
   * (ashwin_driveway_front_portrait with the learned mask); the labelled real views come out at
   * 29–33 mm. A necessary condition only (vision/homography.ts).
   */
  MIN_LENS_MM: 8,
  MAX_LENS_MM: 200,
  /**
   * That camera must also stand at least this high over the floor (m): in a hand, on a tripod or in
   * the stands. A court of the wrong size fitted to a gym's lines can need a camera lying on the
   * floor behind a long lens (lreithmayr_gym_caption_1shot as pre-2010 FIBA: 0.15–0.18 m through
   * 250–300 mm); the right tuning views stand 0.9–1.7 m high, through 28–39 mm.
   */
  MIN_CAMERA_HEIGHT_M: 0.5,
  /** The horizon of a guess (where the court plane's far distance lands) may tilt by at most this (degrees): cameras are held about level. */
  MAX_HORIZON_TILT_DEG: 30,
  /** Refinement: template lines are sampled every this many metres, */
  REFINE_STEP_M: 0.25,
  /** and each sample looks for a stripe along its line's normal within these many pixels, one pass each. */
  REFINE_SEARCH_PX: [5, 3, 2],
  /** Refinement is repeated while it raises the score, at most this many times (a guess whose lines lie far apart, such as a lane line and the three-point line's corner part, starts further off). */
  REFINE_ROUNDS: 4,
  /**
   * The guesses (every four lines, each court type and quadrilateral of its lines) are compared on
   * every this many drawn pixels: with 16 lines they are tens of thousands a picture. The best of
   * each court type and quadrilateral is then scored on every pixel before the few to refine are
   * chosen.
   */
  GUESS_SCORE_EVERY_PX: 3,
  /** This many of the best-scoring guesses are refined (of the key's, and of the hidden-lane guesses); the best after refinement wins, */
  REFINED_GUESSES: 4,
  /** and a guess that takes a lane line as hidden must score this share more than the key's best to win over it. */
  HIDDEN_LANE_MARGIN: 0.1,
  /** Key corners may lie outside the picture (a corner hidden by the frame edge), by at most this share of its size. */
  MAX_CORNER_OUTSIDE: 0.5,
};

export interface CourtRegistration {
  type: CourtTypeId;
  /** Court metres → image pixels. */
  h: H3;
  hits: number;
  inPicture: number;
  score: number;
}

/** The court lines across the court a guess may take as its sides a and c (the quadrilateral's opposite sides). */
const ACROSS = ["baseline", "free_throw"] as const;
/** The court lines along the court a guess may take as its sides d and b, left to right as a player facing the basket sees them. */
const ALONG = ["sideline_left", "three_corner_left", "lane_left", "lane_right", "three_corner_right", "sideline_right"] as const;

/** Where two court lines (taken as infinite lines through their end points) cross, in court metres. */
function crossing(p: { a: Pt; b: Pt }, q: { a: Pt; b: Pt }): Pt {
  const [x1, y1] = p.a, [x2, y2] = p.b, [x3, y3] = q.a, [x4, y4] = q.b;
  const det = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4);
  const u = x1 * y2 - y1 * x2, v = x3 * y4 - y3 * x4;
  return [(u * (x3 - x4) - (x1 - x2) * v) / det, (u * (y3 - y4) - (y1 - y2) * v) / det];
}

/**
 * The quadrilaterals of painted lines a guess may match four detected lines to, as their corners
 * in court metres in the order the sides are matched: (a∩d, a∩b, c∩b, c∩d) with a the baseline, c
 * the free-throw line, d left of b. At least one of d and b is a lane line: two lines along the
 * court that both miss the key (a sideline and the three-point line's corner part) are a few
 * metres apart far from the key's crossings, and such guesses only multiply the chances of
 * fitting stray lines. The first is the key (both lane lines).
 */
function guessCorners(type: CourtTypeId): Pt[][] {
  const byName = Object.fromEntries(courtLines(COURT_TEMPLATES[type]).flatMap((l) => (l.kind === "segment" ? [[l.name, l]] : []))) as Record<string, { a: Pt; b: Pt }>;
  const [a, c] = ACROSS.map((n) => byName[n]);
  const out: Pt[][] = [];
  for (let i = 0; i < ALONG.length; i++)
    for (let j = i + 1; j < ALONG.length; j++) {
      if (!ALONG[i].startsWith("lane") && !ALONG[j].startsWith("lane")) continue;
      const d = byName[ALONG[i]], b = byName[ALONG[j]];
      const corners = [crossing(a, d), crossing(a, b), crossing(c, b), crossing(c, d)];
      if (ALONG[i] === "lane_left" && ALONG[j] === "lane_right") out.unshift(corners);
      else out.push(corners);
    }
  return out;
}
/** The guesses of every court type, made once when the module loads (constant data). */
const GUESSES = Object.fromEntries(Object.keys(COURT_TEMPLATES).map((t) => [t, guessCorners(t as CourtTypeId)])) as Readonly<Record<CourtTypeId, Pt[][]>>;

/** The unit square, in the corner order of the guesses. */
const SQUARE: Pt[] = [[0, 0], [1, 0], [1, 1], [0, 1]];
/**
 * Each guess's quadrilateral of court lines taken onto the unit square (court metres → square), by
 * court type: a guess's view is then the square taken onto the picture's quadrilateral after it, one
 * fit per quadrilateral of detected lines instead of one per guess (tens of thousands a picture).
 * Four corners fix a homography, so the composition is the fit of the court's corners to the
 * picture's. Constant data, made once when the module loads.
 */
const GUESS_TO_SQUARE = Object.fromEntries(
  Object.entries(GUESSES).map(([t, guesses]) => [t, guesses.map((corners) => invertHomography(fitHomography(SQUARE, corners)!)!)]),
) as Readonly<Record<CourtTypeId, H3[]>>;

/** Every template line as a named polyline in court metres (arcs as short chords). */
function polylinesOf(type: CourtTypeId): Array<{ name: string; pts: Pt[] }> {
  return courtLines(COURT_TEMPLATES[type]).map((l) => {
    if (l.kind === "segment") return { name: l.name, pts: [l.a, l.b] };
    const n = COURT_REGISTRATION_DEFAULTS.ARC_CHORDS;
    const pts = Array.from({ length: n + 1 }, (_, i) => {
      const a = l.from + ((l.to - l.from) * i) / n;
      return [l.centre[0] + l.radius * Math.cos(a), l.centre[1] + l.radius * Math.sin(a)] as Pt;
    });
    return { name: l.name, pts };
  });
}
/** The templates' polylines by line name, made once when the module loads (constant data, never changed after). */
const POLYLINES = Object.fromEntries(Object.keys(COURT_TEMPLATES).map((t) => [t, polylinesOf(t as CourtTypeId)])) as Record<CourtTypeId, Array<{ name: string; pts: Pt[] }>>;
/** The template's lines, or only those named in `only` (the bench reports each line's support apart). */
const polylines = (type: CourtTypeId, only?: readonly string[]): Pt[][] => POLYLINES[type].filter((l) => !only || only.includes(l.name)).map((l) => l.pts);

/** The part of segment p→q inside [0,W)×[0,H) (Liang–Barsky), or null. */
function clip(p: Pt, q: Pt, W: number, H: number): [Pt, Pt] | null {
  let t0 = 0, t1 = 1;
  const dx = q[0] - p[0], dy = q[1] - p[1];
  for (const [pp, qq] of [[-dx, p[0]], [dx, W - 1 - p[0]], [-dy, p[1]], [dy, H - 1 - p[1]]]) {
    if (pp === 0) { if (qq < 0) return null; continue; }
    const r = qq / pp;
    if (pp < 0) { if (r > t1) return null; if (r > t0) t0 = r; } else { if (r < t0) return null; if (r < t1) t1 = r; }
  }
  return [[p[0] + t0 * dx, p[1] + t0 * dy], [p[0] + t1 * dx, p[1] + t1 * dy]];
}

/** Where a drawn template pixel counts as on a stripe: the ridge mask grown by HIT_RADIUS_PX. */
export function stripeSupport(mask: Uint8Array, W: number, H: number): Uint8Array {
  return dilate(mask, W, H, COURT_REGISTRATION_DEFAULTS.HIT_RADIUS_PX);
}

/** Ridge mask grown by `r` pixels, so a projected sample a pixel off a stripe still finds it. */
function dilate(mask: Uint8Array, W: number, H: number, r: number): Uint8Array {
  if (r <= 0) return mask;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      if (!mask[y * W + x]) continue;
      for (let dy = -r; dy <= r; dy++)
        for (let dx = -r; dx <= r; dx++) {
          const X = x + dx, Y = y + dy;
          if (X >= 0 && Y >= 0 && X < W && Y < H) out[Y * W + X] = 1;
        }
    }
  return out;
}

/**
 * How well a court → image homography is supported by the stripes, counted in image pixels along
 * the projected template lines (not in metres, which would favour guesses that squeeze lines into
 * the distance): hits (pixels on a stripe), inPicture (pixels drawn inside the picture), and the
 * score hits − MISS_WEIGHT × misses. Lines that reach behind the camera (w ≤ 0) are left out;
 * `only` names the template lines to count (all when absent); with `everyPx` over 1, only every
 * so many drawn pixels are looked at (a quicker score on the same scale over `everyPx`, for
 * comparing guesses with one another).
 */
export function lineSupport(h: H3, type: CourtTypeId, support: Uint8Array, W: number, H: number, only?: readonly string[], everyPx = 1): { hits: number; inPicture: number; score: number } {
  let hits = 0, inPicture = 0;
  for (const poly of polylines(type, only)) {
    let prev: Pt | null = null;
    for (const p of poly) {
      const w = h[6] * p[0] + h[7] * p[1] + h[8];
      const cur: Pt | null = w > 0 ? [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w] : null;
      const seg = prev && cur ? clip(prev, cur, W, H) : null;
      prev = cur;
      if (!seg) continue;
      const [[x0, y0], [x1, y1]] = seg;
      const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
      for (let i = 0; i < n; i += everyPx) {
        const x = Math.round(x0 + ((x1 - x0) * i) / n), y = Math.round(y0 + ((y1 - y0) * i) / n);
        inPicture++;
        if (support[y * W + x]) hits++;
      }
    }
  }
  return { hits, inPicture, score: hits - COURT_REGISTRATION_DEFAULTS.MISS_WEIGHT * (inPicture - hits) };
}

/**
 * A camera above a level floor sees the floor's horizon as a near-level line above the court: a
 * guess that lays the court on a wall (the horizon upright) or above the horizon is no view of a
 * floor. The horizon is where image points map to court points at infinity (third row of H⁻¹).
 */
export function plausibleView(h: H3, keyCentre: Pt): boolean {
  const inv = invertHomography(h);
  if (!inv) return false;
  const [a, b, c] = [inv[6], inv[7], inv[8]];
  if (Math.abs(b) < 1e-12) return false;
  if ((Math.atan2(Math.abs(a), Math.abs(b)) * 180) / Math.PI > COURT_REGISTRATION_DEFAULTS.MAX_HORIZON_TILT_DEG) return false;
  const horizonY = -(a * keyCentre[0] + c) / b;
  return horizonY < keyCentre[1];
}

/** The key's corners in court metres in the guesses' corner order, by court type. */
const KEY_CORNERS = Object.fromEntries(Object.keys(COURT_TEMPLATES).map((t) => [t, GUESSES[t as CourtTypeId][0]])) as Readonly<Record<CourtTypeId, Pt[]>>;

/**
 * The key as a view through h shows it: in front of the camera, convex and not mirrored. A guess
 * matched on other lines (a hidden lane line) can fit a view where the key itself lies partly
 * behind the horizon and comes out folded; no camera over the floor sees that.
 */
export function keySeenUpright(h: H3, type: CourtTypeId): boolean {
  const q: Pt[] = [];
  for (const p of KEY_CORNERS[type]) {
    const w = h[6] * p[0] + h[7] * p[1] + h[8];
    if (w <= 0) return false;
    q.push([(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w]);
  }
  return convex(q) && signedArea(q) > 0;
}

/** Whether a camera that films basketball can see the court through h: the lens the view implies (MIN_LENS_MM, MAX_LENS_MM) and the camera's height over the floor (MIN_CAMERA_HEIGHT_M). */
export function cameraCanSee(h: H3, W: number, H: number): boolean {
  const o = COURT_REGISTRATION_DEFAULTS;
  const camera = planeCamera(h, W / 2, H / 2);
  if (camera === null) return false;
  const lens = equivalentLensMm(camera.focalPx, W, H);
  return lens >= o.MIN_LENS_MM && lens <= o.MAX_LENS_MM && camera.heightM >= o.MIN_CAMERA_HEIGHT_M;
}

/** The key's area in the picture through h (square pixels; 0 when a corner is behind the camera). */
export function keyAreaPx(h: H3, type: CourtTypeId): number {
  const q: Pt[] = [];
  for (const p of KEY_CORNERS[type]) {
    const w = h[6] * p[0] + h[7] * p[1] + h[8];
    if (w <= 0) return 0;
    q.push([(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w]);
  }
  return Math.abs(signedArea(q));
}

/** The key's centre in the picture through h (court metres → pixels). */
function keyCentreIn(h: H3, type: CourtTypeId): Pt {
  const x = COURT_TEMPLATES[type].freeThrowFromBaseline / 2;
  const w = h[6] * x + h[8];
  return [(h[0] * x + h[2]) / w, (h[3] * x + h[5]) / w];
}

/** Signed area of a polygon (image pixels): positive for one winding, negative for the other. */
function signedArea(q: Pt[]): number {
  let a = 0;
  for (let i = 0; i < q.length; i++) { const [x1, y1] = q[i], [x2, y2] = q[(i + 1) % q.length]; a += x1 * y2 - x2 * y1; }
  return a / 2;
}

function convex(q: Pt[]): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = q[i], [bx, by] = q[(i + 1) % 4], [cx, cy] = q[(i + 2) % 4];
    const z = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    if (Math.abs(z) < 1e-9) return false;
    if (sign && Math.sign(z) !== sign) return false;
    sign = Math.sign(z);
  }
  return true;
}

export interface RegisterOptions {
  /** The court types tried (all by default). */
  types?: readonly CourtTypeId[];
  /**
   * The rims seen in this picture, in its pixels: when given, every guess must put its basket under
   * one of them (rules/court-rim.ts), and a picture with none is not registered. Absent: no check
   * (a picture handed in alone, as the landmark bench and the synthetic courts are).
   */
  rims?: readonly Box[];
  /**
   * The picture's painted lines found elsewhere (the learned mask, vision/court-lines.ts), in place
   * of the stripe test's (courtLineMasks). Absent: the stripe test.
   */
  lines?: CourtLineMasks;
}

/**
 * The court seen in one picture, from its ridge mask and the straight lines found in it, or null
 * when no guess is supported well enough. Only one winding of each quadrilateral is tried: taken in
 * the guesses' corner order, a real view's quadrilateral has a positive signed area in image pixels
 * (y down), and a camera above the floor never sees the court mirrored. With the picture's rims,
 * a guess whose basket is under none of them is dropped before it is scored (the scoring is most
 * of the cost, and a guess off the rim is no court however well its lines land).
 */
export function registerCourt(mask: Uint8Array, W: number, H: number, lines: Line[], opts: RegisterOptions = {}): CourtRegistration | null {
  const o = COURT_REGISTRATION_DEFAULTS;
  const { types = COURT_TYPE_IDS, rims } = opts;
  const support = stripeSupport(mask, W, H);
  const slack = o.MAX_CORNER_OUTSIDE;
  const inReach = (p: Pt) => p[0] > -slack * W && p[0] < (1 + slack) * W && p[1] > -slack * H && p[1] < (1 + slack) * H;
  // The best-scoring fit of each court type and guess (guess 0 is the key).
  const bestOf = new Map<string, { guess: number; r: CourtRegistration }>();
  const keep = (guess: number, r: CourtRegistration) => {
    const id = `${r.type} ${guess}`, held = bestOf.get(id);
    if (!held || r.score > held.r.score) bestOf.set(id, { guess, r });
  };
  const n = lines.length;
  for (let a = 0; a < n; a++)
    for (let c = a + 1; c < n; c++)
      for (let b = 0; b < n; b++) {
        if (b === a || b === c) continue;
        for (let d = b + 1; d < n; d++) {
          if (d === a || d === c) continue;
          // Sides in order a, b, c, d around the quadrilateral: a and c opposite, b and d opposite.
          const q = [intersect(lines[a], lines[d]), intersect(lines[a], lines[b]), intersect(lines[c], lines[b]), intersect(lines[c], lines[d])];
          if (q.some((p) => !p || !inReach(p))) continue;
          const quad = q as Pt[];
          if (!convex(quad)) continue;
          // The four cyclic orders of one winding: each side in turn is the baseline; the other
          // winding is the mirror image and is never seen by a camera above the floor.
          const ordered = signedArea(quad) > 0 ? quad : [quad[1], quad[0], quad[3], quad[2]];
          for (let r = 0; r < 4; r++) {
            const img = [0, 1, 2, 3].map((i) => ordered[(i + r) % 4]);
            const centre: Pt = [(img[0][0] + img[1][0] + img[2][0] + img[3][0]) / 4, (img[0][1] + img[1][1] + img[2][1] + img[3][1]) / 4];
            const squareToImage = fitHomography(SQUARE, img);
            if (!squareToImage) continue;
            for (const type of types)
              for (const [g, courtToSquare] of GUESS_TO_SQUARE[type].entries()) {
                const m = composeHomographies(squareToImage, courtToSquare);
                const h = m.map((x) => x / m[8]);
                if (!plausibleView(h, centre) || (g > 0 && !keySeenUpright(h, type)) || (rims && !basketUnderRim(h, type, rims, { W, H }))) continue;
                keep(g, { type, h, ...lineSupport(h, type, support, W, H, undefined, o.GUESS_SCORE_EVERY_PX) });
              }
          }
        }
      }
  // The best few guesses (at most one per court type and guess) are refined, not only the best:
  // a guess through lines that lie far apart may score higher before refinement than one whose
  // refinement then overtakes it. The key (both lane lines seen) and the guesses that take a lane
  // line as hidden are refined apart, and a hidden-lane guess wins only by a clear margin: it
  // draws lines the picture may not show, and on a view of the whole key it can fit the court a
  // little askew and still score higher (NCAA lines drawn in the unit tests' view).
  const refinedBest = (isKey: boolean): CourtRegistration | null => {
    const top = [...bestOf.values()]
      .filter((b) => (b.guess === 0) === isKey)
      .map((b) => ({ ...b.r, ...lineSupport(b.r.h, b.r.type, support, W, H) }))
      .sort((x, y) => y.score - x.score)
      .slice(0, o.REFINED_GUESSES);
    let best: CourtRegistration | null = null;
    for (const guess of top) {
      const refined = refinedWhileBetter(guess, mask, support, W, H, rims);
      if (!best || refined.score > best.score) best = refined;
    }
    return best;
  };
  const key = refinedBest(true), hiddenLane = refinedBest(false);
  const best = hiddenLane && (!key || hiddenLane.score > key.score * (1 + o.HIDDEN_LANE_MARGIN)) ? hiddenLane : key;
  if (!best) return null;
  let density = 0;
  for (const v of support) density += v;
  density /= W * H;
  const share = best.hits / Math.max(1, best.inPicture);
  if (share < (rims ? o.MIN_HIT_SHARE_UNDER_RIM : o.MIN_HIT_SHARE) || share < density * o.MIN_HIT_SHARE_OVER_DENSITY || best.hits < (o.MIN_HITS_PER_100PX * W) / 100) return null;
  if (keyAreaPx(best.h, best.type) < o.MIN_KEY_AREA_SHARE * W * H) return null;
  if (!cameraCanSee(best.h, W, H)) return null;
  for (const arc of ["ft_circle", "three_arc"]) {
    const s = lineSupport(best.h, best.type, support, W, H, [arc]);
    if (s.inPicture >= (o.ARC_MIN_DRAWN_PX_PER_100PX * W) / 100 && s.hits < o.MIN_ARC_SHARE * s.inPicture) return null;
  }
  return best;
}

/**
 * A guess from four Hough lines is only as good as those lines; every painted line in view can
 * improve it. Each template line is sampled, projected, and the nearest ridge pixel along the
 * projected line's normal (within REFINE_SEARCH_PX) is taken as where that sample really is; the
 * homography refitted on those pairs, a few passes with a narrowing search. Null when too few
 * samples find a stripe.
 */
export function refineRegistration(h0: H3, type: CourtTypeId, mask: Uint8Array, W: number, H: number): H3 | null {
  const o = COURT_REGISTRATION_DEFAULTS;
  const project = (h: H3, p: Pt): Pt | null => {
    const w = h[6] * p[0] + h[7] * p[1] + h[8];
    return w > 0 ? [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w] : null;
  };
  let h = h0;
  for (const reach of o.REFINE_SEARCH_PX) {
    const court: Pt[] = [], image: Pt[] = [];
    for (const poly of polylines(type)) {
      for (let k = 0; k + 1 < poly.length; k++) {
        const [a, b] = [poly[k], poly[k + 1]];
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        for (let d = 0; d < len; d += o.REFINE_STEP_M) {
          const p: Pt = [a[0] + ((b[0] - a[0]) * d) / len, a[1] + ((b[1] - a[1]) * d) / len];
          const q: Pt = [a[0] + ((b[0] - a[0]) * Math.min(len, d + 0.05)) / len, a[1] + ((b[1] - a[1]) * Math.min(len, d + 0.05)) / len];
          const P = project(h, p), Q = project(h, q);
          if (!P || !Q || P[0] < 0 || P[1] < 0 || P[0] >= W || P[1] >= H) continue;
          const tl = Math.hypot(Q[0] - P[0], Q[1] - P[1]);
          if (tl < 1e-6) continue;
          const nx = -(Q[1] - P[1]) / tl, ny = (Q[0] - P[0]) / tl;
          for (let r = 0; r <= reach; r++) {
            const hit = [r, -r].map((t): Pt => [Math.round(P[0] + nx * t), Math.round(P[1] + ny * t)]).find(([x, y]) => x >= 0 && y >= 0 && x < W && y < H && mask[y * W + x]);
            if (hit) { court.push(p); image.push(hit); break; }
          }
        }
      }
    }
    if (court.length < 12) return null;
    const next = fitHomography(court, image);
    if (!next) return null;
    h = next;
  }
  return h;
}

/**
 * The court in one RGB picture handed in at twice the working size (2W × 2H, three bytes a pixel),
 * as a view of the W × H working picture. The painted lines are found at twice the size: a far line
 * one pixel wide in the working picture is blurred half into its floor there and falls under the
 * stripe contrast (chonyy_outdoor_handheld_1shot's left lane line at 480 px: 15 grey levels where
 * 18 are needed), while at twice the size it stands out whole. Found there, the lines are pooled
 * onto the working grid (courtLineMasks), where the straight lines are found and the guesses
 * searched at the working size's cost, and the winner is then refined on the lines as found, to a
 * fraction of a working pixel (refineOnFineLines).
 */
export function registerPicture(fineRgb: ArrayLike<number>, W: number, H: number, opts: RegisterOptions = {}): CourtRegistration | null {
  // No rim in view: no guess could pass, so the lines are not looked for.
  if (opts.rims && opts.rims.length === 0) return null;
  const { fine, working } = opts.lines ?? courtLineMasks(fineRgb, W, H);
  const r = registerCourt(working, W, H, houghLines(linesBelowRims(working, W, H, opts.rims), W, H), opts);
  return r && refineOnFineLines(r, fine, W, H, opts.rims);
}

/**
 * The mask with everything above the highest rim's top cleared, for the straight-line search alone:
 * the floor's lines all lie below the rims (a camera over the floor sees the floor below the ring),
 * while the stands, walls, windows and scoreboards above them are full of long straight edges that
 * would fill the line budget (LINE_DEFAULTS.MAX_LINES). Without rims: the whole mask.
 */
export function linesBelowRims(mask: Uint8Array, W: number, H: number, rims?: readonly Box[]): Uint8Array {
  if (!rims?.length) return mask;
  const top = Math.min(H, Math.max(0, Math.floor(highestRimTop(rims))));
  if (top === 0) return mask;
  const below = mask.slice();
  below.fill(0, 0, top * W);
  return below;
}

/** The painted lines of a picture at twice the working size (2W × 2H): as found there (`fine`), and pooled onto the W × H grid (`working`), which the guesses are searched over. */
export function courtLineMasks(fineRgb: ArrayLike<number>, W: number, H: number): CourtLineMasks {
  const fine = lineMask(fineRgb, 2 * W, 2 * H);
  return { fine, working: poolMask(fine, 2 * W, 2 * H) };
}

/**
 * A guess refined (refineRegistration) again and again while that raises its score, at most
 * REFINE_ROUNDS times. Refinement may slide the court into a view no camera over a floor has (every
 * line drawn onto one stripe, the court laid on edge, the key folded): such a step is refused as a
 * guess is (and, with the picture's rims, one whose basket leaves them), and the refinement stops there.
 */
function refinedWhileBetter(guess: CourtRegistration, mask: Uint8Array, support: Uint8Array, W: number, H: number, rims?: readonly Box[]): CourtRegistration {
  for (let round = 0; round < COURT_REGISTRATION_DEFAULTS.REFINE_ROUNDS; round++) {
    const refined = refineRegistration(guess.h, guess.type, mask, W, H);
    if (!refined || !plausibleView(refined, keyCentreIn(refined, guess.type)) || !keySeenUpright(refined, guess.type)) break;
    if (rims && !basketUnderRim(refined, guess.type, rims, { W, H })) break;
    const s = lineSupport(refined, guess.type, support, W, H);
    if (s.score <= guess.score) break;
    guess = { type: guess.type, h: refined, ...s };
  }
  return guess;
}

/**
 * A registration refined once more on the lines as found at twice the working size, as the guesses
 * were on the working grid (refinedWhileBetter), and kept when the view it ends on is one a camera
 * can have (cameraCanSee, as the winner's). A view of the working picture; its hits and score stay
 * the working grid's, which the acceptance checks were made on.
 */
function refineOnFineLines(r: CourtRegistration, fineMask: Uint8Array, W: number, H: number, rims?: readonly Box[]): CourtRegistration {
  const W2 = 2 * W, H2 = 2 * H;
  const support = stripeSupport(fineMask, W2, H2);
  // The working picture is the fine one at half the size: p_fine = 2 p_work.
  const h = viewInPicture(r.h, 0.5, 0, 0);
  const fineRims = rims?.map((b) => boxInPicture(b, 2, 0, 0));
  const refined = refinedWhileBetter({ type: r.type, h, ...lineSupport(h, r.type, support, W2, H2) }, fineMask, support, W2, H2, fineRims);
  return cameraCanSee(refined.h, W2, H2) ? { ...r, h: viewInPicture(refined.h, 2, 0, 0) } : r;
}
