// Teams from jersey colours: 2-means over per-track median shirt colours.
export type RGB = [number, number, number];

export interface TeamClustering {
  centroids: [RGB, RGB];
  /** Team (0|1) per input colour, or null when it sits far from both centroids (referee, fan). */
  labels: Array<0 | 1 | null>;
  /** 1 when every shirt is one colour (a lone shooter, one side only): no opponent is invented. */
  teamCount: 1 | 2;
}

const dist = (a: RGB, b: RGB) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export function clusterTeams(colors: RGB[], weights: number[] = colors.map(() => 1), maxDistance = 60): TeamClustering {
  if (colors.length === 0) return { centroids: [[0, 0, 0], [0, 0, 0]], labels: [], teamCount: 1 };
  // Init from the two heaviest colour modes (weighted histogram of coarse bins), not the farthest
  // point: a few short false tracks (a patch of floor, two shirts blended) must not become a "team".
  const bins = new Map<string, { w: number; c: RGB }>();
  colors.forEach((c, i) => {
    const k = c.map((v) => Math.floor(v / 24)).join(",");
    const b = bins.get(k) ?? { w: 0, c: [0, 0, 0] as RGB };
    b.w += weights[i];
    for (let j = 0; j < 3; j++) b.c[j] += c[j] * weights[i];
    bins.set(k, b);
  });
  const modes = [...bins.values()].map((b) => ({ w: b.w, c: b.c.map((v) => v / b.w) as RGB })).sort((a, b) => b.w - a.w);
  const first = modes[0].c;
  const secondMode = modes.find((m) => dist(m.c, first) > 50);
  // No second shirt colour: one team. Splitting one colour in two (light and shade on the same
  // shirt) would turn a lone shooter into two players of two "teams".
  if (!secondMode) {
    const c = weightedMean(colors, weights, (col) => dist(col, first) <= maxDistance) ?? first;
    return { centroids: [c, c], labels: colors.map((col) => (dist(col, c) > maxDistance ? null : 0)), teamCount: 1 };
  }
  const second = secondMode.c;
  let cent: [RGB, RGB] = [[...first] as RGB, [...second] as RGB];
  for (let it = 0; it < 20; it++) {
    const next: [RGB, RGB] = [[0, 0, 0], [0, 0, 0]];
    const wsum = [0, 0];
    colors.forEach((c, i) => {
      const d0 = dist(c, cent[0]), d1 = dist(c, cent[1]);
      // Outliers do not move the centroids.
      if (Math.min(d0, d1) > maxDistance) return;
      const l = d0 <= d1 ? 0 : 1;
      wsum[l] += weights[i];
      for (let k = 0; k < 3; k++) next[l][k] += c[k] * weights[i];
    });
    for (const l of [0, 1] as const) next[l] = wsum[l] ? (next[l].map((v) => v / wsum[l]) as RGB) : cent[l];
    const moved = dist(next[0], cent[0]) + dist(next[1], cent[1]);
    cent = next;
    if (moved < 0.5) break;
  }
  // Team ids are arbitrary; order them by brightness so the same game always gets the same ids.
  const bright = (c: RGB) => c[0] + c[1] + c[2];
  const swap = bright(cent[0]) < bright(cent[1]);
  if (swap) cent = [cent[1], cent[0]];
  return {
    centroids: cent,
    teamCount: 2,
    labels: colors.map((c) => {
      const d0 = dist(c, cent[0]), d1 = dist(c, cent[1]);
      const l: 0 | 1 = d0 <= d1 ? 0 : 1;
      return Math.min(d0, d1) > maxDistance ? null : l;
    }),
  };
}

function weightedMean(colors: RGB[], weights: number[], keep: (c: RGB) => boolean): RGB | null {
  const sum: RGB = [0, 0, 0];
  let w = 0;
  colors.forEach((c, i) => {
    if (!keep(c)) return;
    w += weights[i];
    for (let k = 0; k < 3; k++) sum[k] += c[k] * weights[i];
  });
  return w ? (sum.map((v) => v / w) as RGB) : null;
}

/** Median colour of a grid of points over a box's shirt area; the median ignores the number. */
export function shirtColor(rgb: Buffer, W: number, H: number, box: { cx: number; cy: number; w: number; h: number }): RGB {
  const rs: number[] = [], gs: number[] = [], bs: number[] = [];
  const top = box.cy - box.h / 2;
  for (let iy = 0; iy < 5; iy++)
    for (let ix = 0; ix < 5; ix++) {
      // Shirt and shorts span ~0.18–0.64 of the body box from the top.
      const x = Math.round(box.cx + (ix / 4 - 0.5) * box.w * 0.45);
      const y = Math.round(top + box.h * (0.22 + iy * 0.09));
      if (x < 0 || y < 0 || x >= W || y >= H) continue;
      const o = (y * W + x) * 3;
      rs.push(rgb[o]); gs.push(rgb[o + 1]); bs.push(rgb[o + 2]);
    }
  const med = (a: number[]) => (a.length ? a.sort((p, q) => p - q)[a.length >> 1] : 0);
  return [med(rs), med(gs), med(bs)];
}
