// Court registration from the painted lines (issue 25, point 1): the key (lane) is the one
// quadrilateral every court paints near the basket, so four detected lines that enclose a
// quadrilateral are tried as its four sides (baseline, free-throw line and the two lane lines) in
// each court type; each guess gives a homography, and the court's other lines projected through
// it must land on painted stripes. The guess whose template lines are best supported wins, and
// with it the court type (the arcs and lane widths differ between rule books).
import { fitHomography, invertHomography, type H3, type Pt } from "../../vision/homography.ts";
import { houghLines, intersect, ridgeMask, type Line } from "../../vision/lines.ts";
import { COURT_TEMPLATES, COURT_TYPE_IDS, courtLandmarks, courtLines, type CourtTypeId } from "../rules/court-template.ts";

export const COURT_REGISTRATION_DEFAULTS = {
  /** Arcs (free-throw circle, three-point arc) are drawn as this many chords when scoring a guess. */
  ARC_CHORDS: 24,
  /** A sample counts as on a stripe when a ridge pixel lies within this many pixels of it. */
  HIT_RADIUS_PX: 1,
  /** Each drawn template pixel that lands on bare floor costs this many hits. */
  MISS_WEIGHT: 0.5,
  /** A registration needs at least this share of its drawn pixels on stripes, and this many times the share of stripe pixels in the picture (a guess on noise hits as often as the noise is dense), */
  MIN_HIT_SHARE: 0.7,
  MIN_HIT_SHARE_OVER_DENSITY: 2.5,
  /** and at least this many hits per 100 px of image width (a court, not a few stray pixels). */
  MIN_HITS_PER_100PX: 12,
  /** The horizon of a guess (where the court plane's far distance lands) may tilt by at most this (degrees): cameras are held about level. */
  MAX_HORIZON_TILT_DEG: 30,
  /** Refinement: template lines are sampled every this many metres, */
  REFINE_STEP_M: 0.25,
  /** and each sample looks for a stripe along its line's normal within these many pixels, one pass each. */
  REFINE_SEARCH_PX: [5, 3, 2],
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

/** The key's corners in the order its sides are matched: baseline (a), lane right (b), free throw (c), lane left (d). */
const KEY_CORNERS = ["baseline_lane_left", "baseline_lane_right", "ft_lane_right", "ft_lane_left"] as const;

/** Every template line as a polyline in court metres (arcs as short chords). */
function polylinesOf(type: CourtTypeId): Pt[][] {
  return courtLines(COURT_TEMPLATES[type]).map((l) => {
    if (l.kind === "segment") return [l.a, l.b];
    const n = COURT_REGISTRATION_DEFAULTS.ARC_CHORDS;
    return Array.from({ length: n + 1 }, (_, i) => {
      const a = l.from + ((l.to - l.from) * i) / n;
      return [l.centre[0] + l.radius * Math.cos(a), l.centre[1] + l.radius * Math.sin(a)] as Pt;
    });
  });
}
/** The templates' polylines, made once when the module loads (constant data, never changed after). */
const POLYLINES = Object.fromEntries(Object.keys(COURT_TEMPLATES).map((t) => [t, polylinesOf(t as CourtTypeId)])) as Readonly<Record<CourtTypeId, Pt[][]>>;
const polylines = (type: CourtTypeId): Pt[][] => POLYLINES[type];

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
 * score hits − MISS_WEIGHT × misses. Lines that reach behind the camera (w ≤ 0) are left out.
 */
export function lineSupport(h: H3, type: CourtTypeId, support: Uint8Array, W: number, H: number): { hits: number; inPicture: number; score: number } {
  let hits = 0, inPicture = 0;
  for (const poly of polylines(type)) {
    let prev: Pt | null = null;
    for (const p of poly) {
      const w = h[6] * p[0] + h[7] * p[1] + h[8];
      const cur: Pt | null = w > 0 ? [(h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w] : null;
      const seg = prev && cur ? clip(prev, cur, W, H) : null;
      prev = cur;
      if (!seg) continue;
      const [[x0, y0], [x1, y1]] = seg;
      const n = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
      for (let i = 0; i < n; i++) {
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

/**
 * The court seen in one picture, from its ridge mask and the straight lines found in it, or null
 * when no guess is supported well enough. Only one winding of each quadrilateral is tried: taken in
 * KEY_CORNERS order, a real view's key has a positive signed area in image pixels (y down), and a
 * camera above the floor never sees the court mirrored.
 */
export function registerCourt(mask: Uint8Array, W: number, H: number, lines: Line[], types: readonly CourtTypeId[] = COURT_TYPE_IDS): CourtRegistration | null {
  const o = COURT_REGISTRATION_DEFAULTS;
  const support = dilate(mask, W, H, o.HIT_RADIUS_PX);
  const slack = o.MAX_CORNER_OUTSIDE;
  const inReach = (p: Pt) => p[0] > -slack * W && p[0] < (1 + slack) * W && p[1] > -slack * H && p[1] < (1 + slack) * H;
  let best: CourtRegistration | null = null;
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
            for (const type of types) {
              const lm = courtLandmarks(COURT_TEMPLATES[type]);
              const h = fitHomography(KEY_CORNERS.map((k) => lm[k]), img);
              if (!h || !plausibleView(h, [(img[0][0] + img[1][0] + img[2][0] + img[3][0]) / 4, (img[0][1] + img[1][1] + img[2][1] + img[3][1]) / 4])) continue;
              const s = lineSupport(h, type, support, W, H);
              if (!best || s.score > best.score) best = { type, h, ...s };
            }
          }
        }
      }
  if (!best) return null;
  const refined = refineRegistration(best.h, best.type, mask, W, H);
  if (refined) {
    const s = lineSupport(refined, best.type, support, W, H);
    if (s.score > best.score) best = { type: best.type, h: refined, ...s };
  }
  let density = 0;
  for (const v of support) density += v;
  density /= W * H;
  const share = best.hits / Math.max(1, best.inPicture);
  if (share < o.MIN_HIT_SHARE || share < density * o.MIN_HIT_SHARE_OVER_DENSITY || best.hits < (o.MIN_HITS_PER_100PX * W) / 100) return null;
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

/** The court in one luma picture (W×H, one byte a pixel): ridge pixels, straight lines, the best-supported key guess. */
export function registerPicture(luma: Uint8Array, W: number, H: number): CourtRegistration | null {
  const mask = ridgeMask(luma, W, H);
  return registerCourt(mask, W, H, houghLines(mask, W, H));
}

/** The homography from a letterboxed working picture (p_work = p_src × scale + pad) back to source pixels. */
export function unletterboxRegistration(h: H3, scale: number, padX: number, padY: number): H3 {
  return [
    (h[0] - padX * h[6]) / scale, (h[1] - padX * h[7]) / scale, (h[2] - padX * h[8]) / scale,
    (h[3] - padY * h[6]) / scale, (h[4] - padY * h[7]) / scale, (h[5] - padY * h[8]) / scale,
    h[6], h[7], h[8],
  ];
}
